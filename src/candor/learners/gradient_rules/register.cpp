// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learners/gradient_rules/gradient_rules.hpp"

namespace candor {

LearnerRegistration register_gradient_rules() {
  return {
      .position = 15,
      .learners = {{.name = "gradient-rules",
                    .description = "rules found by gradient boosting of the log loss (ENDER, MLRules), one per "
                                   "class and round, each searched on the rows weighted by their residuals under "
                                   "the rules so far; combined by --combine, or weighted by rule-logistic (its "
                                   "default --candidates gradient)",
                    .fit = fit_gradient_rules,
                    .fit_on_rows = fit_gradient_rules,
                    .refuses_rows = gradient_rules_refuses_rows,
                    // On rows weighted by their residuals, wracc is the sum of the covered rows' residuals (the
                    // loss's gradient) over the total: the rule of steepest descent, as ENDER searches. A != v lets
                    // one rule cover what a tree's "other values" branch covers. docs/defaults.md measures both.
                    .quality = "wracc",
                    .search = SearchKind::beam,
                    .max_rule_length = 5,
                    .stop = Stopping::prior,
                    .combine = "lift-product",
                    .m_scale = 1.0,
                    .not_equal = true,
                    .evc_quality = true,
                    .correct_evc = true,
                    .stopping = true,
                    .option_groups = "rule gradient",
                    .correct = Correction::evc,
                    .stable_rules = true}},
      .params = gradient_rules_params,
      .option_groups = {{"gradient", "Gradient rule options (gradient-rules, rule-logistic --candidates gradient)"}}};
}

}  // namespace candor
