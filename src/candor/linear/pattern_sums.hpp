#pragma once
// The sums over row patterns (linear/row_patterns.hpp) that the weights of a logistic model over rules alone
// are fitted from (linear/penalised_logistic.hpp, solve_rule_logistic): the rows' weights by class, in all and
// under each rule, and the loss with its gradient at given weights. Every sum is exact (util/exact_sum.hpp) and
// every term is a pattern's weight times a value of its class and rules alone (the loss's terms and residuals
// cut to a fine grid first, so that most products are of integers): the sums over the patterns of parts of the
// rows merge into those over the patterns of all of them, bit for bit (with whole-number weights; with others,
// up to the rounding of each pattern's summed weight). So the weights
// fitted on rows held in parts elsewhere (learn/fit_rows.hpp) are those of the fit in one process, and the
// process that fits them holds a number per rule and class, whatever the rows.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "candor/linear/row_patterns.hpp"
#include "candor/util/exact_sum.hpp"

namespace candor {

// The rows' summed weight by class, in all and under each rule.
struct PatternWeights {
  std::vector<ExactSum> classes;
  std::vector<std::vector<ExactSum>> rules;  // per rule, per class
  void merge(const PatternWeights& other);
};
PatternWeights pattern_weights(const RowPatterns& patterns, std::size_t classes);

// One logistic problem over rules alone (penalised_logistic.hpp's LogisticProblem without its rows): its logits
// (1: binary), the class whose rows are its label 1 (`positive`; -1: the label is the class), each rule's logit
// and sign, and the point its loss is asked at: the intercepts (per logit) and the rules' weights b_k.
struct RuleLossQuery {
  int logits = 1;
  int positive = -1;
  std::vector<int> rule_logit;
  std::vector<double> rule_sign;
  std::vector<double> intercepts, rules;
  // Whether the loss's curvature is asked for too (RuleLossSums::curvature).
  bool curvature = false;
};

// The summed weighted cross-entropy of the rows at that point, and its gradient: per logit (the intercepts'),
// and per rule the residuals of its logit summed over the rows it covers (the sign not applied). Each row's
// cross-entropy is cut toward zero to a multiple of 2^-44 and each residual to one of 2^-52 before it is summed.
// When the query asks for it, also the loss's second derivatives (a Newton step's matrix): over the variables
// numbered intercepts first (logit j is j), then the rules (rule k is logits + k), the entry of u <= v at
// curvature_index(u, v, n), n the number of variables, of the packed upper triangle `curvature`. An entry is the
// rows' summed weight times d p_j / d eta_j' over the rows both variables reach (an intercept reaches every row),
// j and j' their logits and p the probabilities (binary: p (1 - p)); a rule's sign is not applied. Each row's
// term is cut toward zero to a whole number of steps of 2^-52 and the entry holds the count of steps: exact, in
// any order, merged by addition. With whole-number weights a term is exact and parts merge into the whole bit for
// bit, as the loss does; a fractional weight's term is its rounded product, cut.
__extension__ typedef __int128 CurvatureSteps;  // GCC's and Clang's 128-bit integer
struct RuleLossSums {
  ExactSum loss;
  std::vector<ExactSum> intercepts, rules;
  std::vector<CurvatureSteps> curvature;  // empty unless asked for
  void merge(const RuleLossSums& other);
};
// The index in RuleLossSums::curvature of variables u <= v of n.
inline std::size_t curvature_index(std::size_t u, std::size_t v, std::size_t n) {
  return u * (2 * n - u + 1) / 2 + (v - u);
}
// RuleLossSums::curvature of n variables as the symmetric matrix of its values. Throws std::invalid_argument for
// sums of another number of variables.
Eigen::MatrixXd curvature_matrix(const std::vector<CurvatureSteps>& curvature, std::size_t n);

// Throws std::invalid_argument for a query of another number of rules than the patterns', or a class or logit
// out of range.
RuleLossSums rule_loss(const RowPatterns& patterns, std::size_t classes, const RuleLossQuery& query);

}  // namespace candor
