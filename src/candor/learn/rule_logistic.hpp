#pragma once
// The rule-logistic learner (paper 000, section 4.3.3): CN2 rules as 0/1 features beside the original
// attributes in an L2 logistic regression whose rule weights also pay gamma_k |b_k| (LRRP). Variants by
// option: LR (--features attributes), LRR (--rule-penalty none), LRRP-EVC(R) (--features rules), LRRS
// (--rule-data half), LRRP-M2 (--quality m-estimate --m 2 --m-scale 0).
#include <memory>
#include <vector>

#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_logistic_options.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/model.hpp"
#include "candor/util/names.hpp"

namespace candor {

// What rule-logistic does, read from its options once: the names as enums, the learner's defaults applied.
struct RuleLogisticOptions {
  LogisticFeatures features = LogisticFeatures::rules;
  LogisticPenalty penalty = LogisticPenalty::l2;
  RulePenalty rule_penalty = RulePenalty::gamma;
  RuleSign rule_sign = RuleSign::by_class;
  RuleData rule_data = RuleData::all;
  LambdaSearchOn lambda_search = LambdaSearchOn::none;  // resolved (LearnerParams::resolved_lambda_search)
  LogisticLink link = LogisticLink::binary;             // binary on two classes, else --multiclass
  bool with_rules() const { return features != LogisticFeatures::attributes; }
  bool with_attributes() const { return features != LogisticFeatures::rules; }
};
// Throws std::invalid_argument naming the option for a name it does not know.
RuleLogisticOptions read_rule_logistic_options(const LearnerParams& p, std::size_t classes);

// The learner's fit function (learn/learner.hpp's ModelFit); the rules come from cn2-unordered with the
// rule options of `params`.
std::unique_ptr<Model> fit_rule_logistic(const Dataset& data, const LearnerParams& params, int threads);

// The lambdas tried when --lambda is 0: 10^3 down to 10^-3 in half decades (the search stops early once
// the cross-validated log loss has risen twice in a row).
const std::vector<double>& lambda_grid();

}  // namespace candor
