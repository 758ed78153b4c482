// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/rule_logistic/rule_logistic.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"

namespace candor {

LearnerRegistration register_rule_logistic() {
  return {.position = 40,
          .learners = {{.name = "rule-logistic",
                        .description =
                            "L2 logistic regression over rules (0/1 features, found by gradient-rules or, with "
                            "--candidates covering, cn2-unordered, or with covering+additive both, with these rule "
                            "options) and the attributes, each rule's weight penalised by gamma = s - q n (paper "
                            "000, section 4.3.3)",
                        .fit_model = fit_rule_logistic,
                        .fit_model_on_rows = fit_rule_logistic,
                        .refuses_rows = rule_logistic_refuses_rows,
                        .searches_with = rule_candidates_learner,
                        .evc_quality = true,
                        .correct_evc = true,
                        .stopping = true,
                        .probabilistic_covering = true,
                        .option_groups = "rule linear gradient",
                        .correct = Correction::evc,
                        .stable_rules = true,
                        .prediction = "(logistic weights)",
                        .check = check_rule_logistic_options,
                        .describe = describe_rule_logistic,
                        .write_options = write_rule_logistic_options,
                        .paper_settings = rule_logistic_paper_settings}},
          .params = linear_params,
          .option_groups = {{"linear", "Logistic model options (rule-logistic)"}}};
}

}  // namespace candor
