#pragma once
// --lambda-search, held as its enum: which model's cross-validation chooses rule-logistic's lambda (this
// model, the attributes-only model) or none (a fixed lambda). The learner reads it (learn/rule_logistic/) and
// the model records it (model/logistic_rule_model.hpp), so it is declared here, below both.
#include "candor/util/names.hpp"

namespace candor {

enum class LambdaSearchOn { model, attributes, none };
inline constexpr Named<LambdaSearchOn> kLambdaSearchNames[] = {
    {"model", LambdaSearchOn::model}, {"attributes", LambdaSearchOn::attributes}, {"none", LambdaSearchOn::none}};

}  // namespace candor
