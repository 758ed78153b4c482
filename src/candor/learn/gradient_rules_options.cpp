#include "candor/learn/gradient_rules_options.hpp"

#include "candor/learn/params.hpp"

namespace candor {

const std::vector<ParamInfo>& gradient_rules_params() {
  static const std::vector<ParamInfo> table{
      {"gradient_rounds", option_field<&GradientRuleOptions::rounds>(),
       "gradient-rules (and rule-logistic with --candidates gradient or covering+additive): rounds of rule search, "
       "each adding the best rule of each class (a rule found again adds to its step, not to the rules): at most "
       "rounds x classes rules, before the logistic model's penalty drops some",
       "gradient", in_range(1, 100000)},
      {"gradient_shrinkage", option_field<&GradientRuleOptions::shrinkage>(),
       "gradient-rules: the share of each rule's Newton step the scores take before the next search (smaller: "
       "more rounds find rules that differ less)",
       "gradient", in_range(0, 1, true)},
      {"gradient_sample", option_field<&GradientRuleOptions::sample>(),
       "gradient-rules: on more training rows than this, each round's searches see this many of them, drawn "
       "without replacement and afresh each round (stochastic gradient boosting, Friedman 2002), so that a "
       "round's cost stops growing with the data; the rules' counts, probabilities and steps are those of "
       "every row (0: every row, every round; docs/defaults.md measures it)",
       "gradient", at_least(0)},
      {"gradient_prune", named_option_field<kGradientPruneNames, &GradientRuleOptions::prune>(),
       "gradient-rules: none (every rule a round's search finds steps the scores as found), cut (each found rule "
       "is cut to the prefix of its conditions, in the order the search added them, whose score statistic "
       "against the rules so far, R^2 / H over every row it covers, is least likely a search's chance find by the "
       "EVC law of the best LRS of that length, the laws the rules' probabilities are corrected with; its "
       "quality is then that statistic corrected) or stop (cut, and a rule with no prefix above what a search of "
       "noise finds is dropped; a round that drops every rule ends the search); docs/defaults.md measures them",
       "gradient"},
  };
  return table;
}

}  // namespace candor
