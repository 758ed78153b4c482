#pragma once
// Inference for a fitted logistic model of attribute columns (no rules, no lasso): the Hessian of the
// objective of linear/penalised_logistic.hpp at the optimum, the covariance of the estimates it gives (its
// inverse: at lambda 0 the observed information of maximum likelihood, whose square roots are the usual
// standard errors), and Wald tests of groups of columns. PrIL chooses its branching attributes by these tests
// (paper 004: "fitting logit models to the data and identifying the most significant main effects").
//
// Parameters are ordered as the solver's: (intercepts, attribute weights logit by logit).
#include <Eigen/Core>
#include <vector>

#include "candor/linear/penalised_logistic.hpp"

namespace candor {

// The objective's Hessian: sum_i w_i (diag(p_i) - p_i p_i^T) (x) (1, x_i)(1, x_i)^T, plus lambda on every
// attribute weight (one logit: w_i p_i (1 - p_i) (1, x_i)(1, x_i)^T). Throws std::invalid_argument for a
// problem with rules or the lasso.
Eigen::MatrixXd logistic_hessian(const LogisticProblem& p, const LogisticWeights& w);

// The covariance of the estimates: the Moore-Penrose inverse of the Hessian. A softmax over K logits does
// not see a shift of all K intercepts (nor, at lambda 0, of one column's K weights): those directions are
// the Hessian's null space, and the covariance is 0 along them, so that it is right for every quantity the
// model identifies (a binary model's weights, a multinomial model's differences between logits).
Eigen::MatrixXd logistic_covariance(const LogisticProblem& p, const Eigen::MatrixXd& hessian);

struct WaldTest {
  double statistic = 0;  // beta' V^+ beta over the tested contrasts
  int df = 0;            // the rank of their covariance
  double p_value = 1;    // chi-squared upper tail with df degrees of freedom; 1 when df is 0
};

// Tests that attribute columns `columns` have no effect on the class: their weights are 0 (one logit), or
// equal in every logit (multinomial; the contrasts of logits 1..K-1 against logit 0 are tested).
WaldTest wald_test(const LogisticProblem& p, const LogisticWeights& w, const Eigen::MatrixXd& covariance,
                   const std::vector<Eigen::Index>& columns);

}  // namespace candor
