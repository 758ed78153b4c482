#pragma once
// The loss of rule-logistic's model, held as enums: its features (--features), the penalty on attribute and rule
// weights (--penalty) and the gamma penalty on rule weights (--rule-penalty). The learner reads them
// (learners/rule_logistic/) and the model records them as its settings (model/logistic_rule_model.hpp), so they
// are declared here, below both.
#include "candor/util/names.hpp"

namespace candor {

enum class LogisticFeatures { rules, rules_and_attributes, attributes };
inline constexpr Named<LogisticFeatures> kLogisticFeatureNames[] = {
    {"rules", LogisticFeatures::rules},
    {"rules+attributes", LogisticFeatures::rules_and_attributes},
    {"attributes", LogisticFeatures::attributes}};
enum class LogisticPenalty { l2, l1 };
inline constexpr Named<LogisticPenalty> kLogisticPenaltyNames[] = {{"l2", LogisticPenalty::l2},
                                                                   {"l1", LogisticPenalty::l1}};
// relaxed: the gamma penalty chooses the rules (those it leaves a weight), an L2 penalty alone weighs them, as
// glmnet's relaxed lasso refits the lasso's choice with less shrinkage (learners/rule_logistic/).
enum class RulePenalty { gamma, none, relaxed };
inline constexpr Named<RulePenalty> kRulePenaltyNames[] = {
    {"gamma", RulePenalty::gamma}, {"none", RulePenalty::none}, {"relaxed", RulePenalty::relaxed}};

}  // namespace candor
