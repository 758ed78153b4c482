#pragma once
// The options of rule-logistic, the linear learner (learners/rule_logistic/rule_logistic.cpp, paper 000
// s4.3.3): their types and defaults here, their checks and help in linear_params(), which the folder
// registers (learners/rule_logistic/register.cpp). Every other part of candor sees them as
// LearnerParams::options<LinearOptions>() and by their names (--features, --lambda, ...). --multiclass,
// which KBS reads too, is declared with them but kept in LearnerParams itself.
#include <optional>
#include <string>
#include <vector>

#include "candor/model/lambda_search.hpp"
#include "candor/model/logistic_loss.hpp"
#include "candor/util/names.hpp"

namespace candor {

// The names of rule-logistic's options (--rule-sign, --candidates, --rule-data here; --features, --penalty,
// --rule-penalty in model/logistic_loss.hpp and --lambda-search in model/lambda_search.hpp, which the model
// records), declared once: linear_params() checks them, and the learner reads them into these enums once, when
// a fit starts (learners/rule_logistic/rule_logistic.hpp: RuleLogisticOptions).
enum class RuleSign { by_class, free };
inline constexpr Named<RuleSign> kRuleSignNames[] = {{"class", RuleSign::by_class}, {"free", RuleSign::free}};
// covering_additive: covering's rules and gradient rules of one condition each (an additive model's steps),
// found on the same rows; the stable mode's default (docs/stability.md).
enum class RuleCandidates { covering, gradient, covering_additive };
inline constexpr Named<RuleCandidates> kRuleCandidateNames[] = {
    {"covering", RuleCandidates::covering},
    {"gradient", RuleCandidates::gradient},
    {"covering+additive", RuleCandidates::covering_additive}};
enum class RuleData { all, half };
inline constexpr Named<RuleData> kRuleDataNames[] = {{"all", RuleData::all}, {"half", RuleData::half}};

struct LinearOptions {
  // Held as their enums, read and written by the names above (named_option_field).
  LogisticFeatures features = LogisticFeatures::rules;
  LogisticPenalty penalty = LogisticPenalty::l2;
  RulePenalty rule_penalty = RulePenalty::gamma;
  RuleSign rule_sign = RuleSign::by_class;
  RuleData rule_data = RuleData::all;
  // unset: gradient, covering+additive with --stable-resamples (resolved_candidates)
  std::optional<RuleCandidates> candidates;
  double lambda = 0;                            // 0: the lambda search's choice (resolved_lambda_search)
  std::optional<LambdaSearchOn> lambda_search;  // unset: none for rules only, else attributes
  int lambda_folds = 5;
  bool operator==(const LinearOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the linear group's options, in the order of `candor params`.
const std::vector<ParamInfo>& linear_params();

}  // namespace candor
