#pragma once
// The rule-logistic learner (paper 000, section 4.3.3): CN2 rules as 0/1 features beside the original
// attributes in an L2 logistic regression whose rule weights also pay gamma_k |b_k| (LRRP). Variants by
// option: LR (--features attributes), LRR (--rule-penalty none), LRRP-EVC(R) (--features rules), LRRS
// (--rule-data half), LRRP-M2 (--quality m-estimate --m 2 --m-scale 0).
#include <memory>
#include <vector>

#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"

namespace candor {

// The learner's fit function (learn/learner.hpp's ModelFit); the rules come from cn2-unordered with the
// rule options of `params`.
std::unique_ptr<Model> fit_rule_logistic(const Dataset& data, const LearnerParams& params, int threads);

// The lambdas tried when --lambda is 0: 10^3 down to 10^-3 in half decades (the search stops early once
// the cross-validated log loss has risen twice in a row).
const std::vector<double>& lambda_grid();

}  // namespace candor
