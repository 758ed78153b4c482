#pragma once
// The options of the gradient rule search (learners/gradient_rules/gradient_rules.cpp), a component that
// gradient-rules and rule-logistic's gradient candidates compose: their types and defaults here, their checks
// and help in gradient_rules_params(), which learners/gradient_rules/ registers. Every other part of candor sees
// them as LearnerParams::options<GradientRuleOptions>() and by their names (--gradient-rounds, ...).
#include <vector>

#include "candor/util/names.hpp"

namespace candor {

// What a round does with the rule its search found, before the rows are asked for its step.
enum class GradientPrune {
  none,  // every found rule steps the scores, as found
  cut,   // each rule is cut to the prefix whose statistic against the scores so far is least likely a search's
         // chance find by EVC's law for its length
  stop,  // cut, and a rule no prefix of which beats chance is dropped; a round left without rules ends the search
};
inline constexpr Named<GradientPrune> kGradientPruneNames[] = {
    {"none", GradientPrune::none}, {"cut", GradientPrune::cut}, {"stop", GradientPrune::stop}};

struct GradientRuleOptions {
  int rounds = 50;         // rounds of one rule search per class (docs/defaults.md)
  double shrinkage = 0.5;  // the share of each rule's Newton step the scores take
  int sample = 10000;      // rows each round's searches see, drawn afresh each round (0: every row)
  GradientPrune prune = GradientPrune::none;
  bool operator==(const GradientRuleOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the group "gradient", in the order of `candor params`.
const std::vector<ParamInfo>& gradient_rules_params();

}  // namespace candor
