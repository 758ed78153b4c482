#pragma once
// Penalised logistic regression over dense attribute columns and sparse 0/1 rule features (paper 000,
// eq. 21):
//
//   loss = sum_i w_i * cross-entropy_i + lambda/2 (||A||^2 + ||b||^2) + sum_k gamma_k |b_k|
//
// with one logit (binary: the logit of class 1) or one per class (multinomial, softmax). Each logit j has
// an unpenalised intercept and a weight per attribute column (row j of A); each rule k adds
// sign_k * b_k to one logit only, the one of its class (binary: +b_k for a class-1 rule, -b_k for a
// class-0 rule), so that eq. (22) holds: at lambda 0 and b_k > 0 the mean predicted probability of the
// rule's class over the examples it covers is q_k. gamma_k = max(0, s_k - q_k n_k) from the rule's
// weighted counts on the rows of the problem; a rule penalty of none sets every gamma_k to 0.
//
// The L1 term is made smooth by writing b = b+ - b- with b+, b- >= 0 (gamma_k (b+ + b-)), and the bounded
// problem is minimised by L-BFGS-B (LBFGSpp). With sign_constrained, b- is fixed at 0: a rule can only
// raise the probability of its own class.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "candor/linear/logit_probabilities.hpp"

namespace candor {

struct LogisticProblem {
  Eigen::MatrixXd X;      // rows x attribute columns (encoded)
  std::vector<int> y;     // per row: the class (multinomial) or 0/1 (binary)
  std::vector<double> w;  // per row: example weight
  int logits = 1;         // 1: binary; > 1: multinomial over that many classes
  // Per rule: the covered rows (ascending), the logit it adds to, its sign, and q_k, the rule's estimate
  // of the probability of its class among the examples it covers.
  std::vector<std::vector<std::uint32_t>> rule_rows;
  std::vector<int> rule_logit;
  std::vector<double> rule_sign;
  std::vector<double> rule_q;
  double lambda = 1;
  bool rule_penalty = true;       // gamma_k from q_k; false: gamma = 0
  bool sign_constrained = false;  // b_k >= 0
  // Plain lasso (RuleFit's penalty): lambda (||A||_1 + ||b||_1) replaces the L2 term; the attribute
  // weights are split as well, A = A+ - A-.
  bool lasso = false;

  std::size_t rows() const { return y.size(); }
  std::size_t rules() const { return rule_rows.size(); }
  // Whether row i's label is the class rule k is about: y == 1 for a binary rule of sign +1, y == 0 for
  // sign -1, y == the rule's logit for a multinomial one.
  bool rule_positive(std::size_t k, std::size_t i) const;
  // gamma_k for every rule (zeros when rule_penalty is false).
  std::vector<double> gammas() const;
  // The problem on a subset of the rows (inner cross-validation); rule coverage is restricted to it.
  LogisticProblem subset(const std::vector<std::size_t>& rows) const;
};

struct LogisticWeights {
  Eigen::VectorXd intercepts;  // per logit
  Eigen::MatrixXd attributes;  // logits x attribute columns
  Eigen::VectorXd rules;       // b_k (the sign of the rule's class is applied on top)
  double objective = 0;
  int iterations = 0;
};

struct SolverOptions {
  // Converged when the largest projected gradient entry, in coordinates scaled by the inverse square root
  // of each variable's curvature bound, is below this (no single variable could then lower the objective
  // by more than about tolerance^2 / 2).
  double tolerance = 1e-3;
  int max_iterations = 1000;
};

// Minimises the loss above; `start`, when given, is the starting point (a neighbouring lambda's solution).
// Deterministic: one thread, a fixed order of operations.
LogisticWeights solve_logistic(const LogisticProblem& p, const SolverOptions& options = {},
                               const LogisticWeights* start = nullptr);

// The sums over a problem's rows that its solver reads besides the loss: the summed weight per label (binary:
// 0 and 1) and in all, and per rule over the rows it covers, in all (n_k) and of the label it is about (s_k,
// rule_positive).
struct LogisticRowSums {
  std::vector<double> label_weight;
  double total = 0;
  std::vector<double> rule_weight, rule_positive_weight;
};
// The sums of p's rows, each in row order.
LogisticRowSums row_sums(const LogisticProblem& p);
// gamma_k for every rule from the sums (zeros when p.rule_penalty is false).
std::vector<double> rule_gammas(const LogisticProblem& p, const LogisticRowSums& sums);

// The summed weighted cross-entropy of a problem's rows at intercepts `a` (per logit) and rule weights `b`, and
// its gradient: `gradient_a` per logit, `gradient_rules` per rule the residuals w_i (p_ij - y_ij) of its logit
// summed over the rows it covers, its sign not applied. When `curvature` is not null, it is set to the loss's
// second derivatives over the variables (intercepts, then rules), the rules' signs not applied: entry (u, v) sums
// w_i d p_ij / d eta_ij' over the rows both reach, j and j' their logits (linear/pattern_sums.hpp).
using RuleDataLoss =
    std::function<double(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& gradient_a,
                         Eigen::VectorXd& gradient_rules, Eigen::MatrixXd* curvature)>;
// solve_logistic for a problem over rules alone whose rows are held elsewhere: `shape` has no rows and no
// attribute columns (rule_rows: an empty list per rule) and its rows are read through their sums and their loss
// (linear/pattern_sums.hpp computes both over row patterns, for rows in one process or in parts). The same
// problem on rows in `shape`, its sums and loss computed the same way, gives the same weights. Throws
// std::invalid_argument for a shape with rows or columns, or sums of another shape.
//
// Minimised by proximal Newton steps (as glmnet's and newGLMNET's): at each point the loss's gradient and
// curvature give a quadratic model, whose minimum with the L1 terms and the bounds is found by coordinate
// descent; a backtracking line search on the objective takes the step. With a variable per rule and class a
// few hundred at most, the model's matrix is small, and the loss is asked for about ten times instead of the
// hundred and more an L-BFGS-B solve asks (docs/benchmarks.md). Converged as solve_logistic is: when no
// variable's least subgradient, scaled as SolverOptions says, exceeds the tolerance.
LogisticWeights solve_rule_logistic(const LogisticProblem& shape, const LogisticRowSums& sums, const RuleDataLoss& loss,
                                    const SolverOptions& options = {});

// log(1 + e^x) and 1 / (1 + e^-x), without overflow.
double softplus(double x);
double sigmoid(double x);

// The objective and its gradient with respect to (intercepts, attributes row by row [lasso: A+ then A-],
// b+, b-), for tests.
double logistic_objective(const LogisticProblem& p, const Eigen::VectorXd& theta, Eigen::VectorXd* gradient);
// The same with the rule penalties given (p.gammas() computed once per solve).
double logistic_objective_with(const LogisticProblem& p, const std::vector<double>& gamma, const Eigen::VectorXd& theta,
                               Eigen::VectorXd* gradient);

// The logits (rows x logits) of the problem's rows under `weights`.
Eigen::MatrixXd logistic_logits(const LogisticProblem& p, const LogisticWeights& weights);

// logit_probabilities: linear/logit_probabilities.hpp.

}  // namespace candor
