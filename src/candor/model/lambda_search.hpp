#pragma once
// --lambda-search, held as its enum: which model's cross-validation chooses rule-logistic's lambda (this
// model; this model with its rules found again in each fold; the attributes-only model) or none (a fixed
// lambda). The learner reads it (learners/rule_logistic/) and the model records it (model/logistic_rule_model.hpp),
// so it is declared here, below both.
#include "candor/util/names.hpp"

namespace candor {

enum class LambdaSearchOn { model, refit, attributes, none };
inline constexpr Named<LambdaSearchOn> kLambdaSearchNames[] = {{"model", LambdaSearchOn::model},
                                                               {"refit", LambdaSearchOn::refit},
                                                               {"attributes", LambdaSearchOn::attributes},
                                                               {"none", LambdaSearchOn::none}};

// What the cross-validation of `on` scores, as the model's text and the learner's description say it.
inline const char* lambda_search_subject(LambdaSearchOn on) {
  switch (on) {
    case LambdaSearchOn::model: return "this model";
    case LambdaSearchOn::refit: return "this model, its rules found again in each fold";
    case LambdaSearchOn::attributes: return "the attributes-only model";
    case LambdaSearchOn::none: break;
  }
  return "no model";
}

}  // namespace candor
