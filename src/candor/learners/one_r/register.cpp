// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/one_r/one_r.hpp"
#include "candor/learners/one_r/one_r_options.hpp"

namespace candor {

LearnerRegistration register_one_r() {
  return {.position = 90,
          .learners = {{.name = "one-r",
                        .description = "the rules of the one attribute that classifies the training data best, "
                                       "one per value or numeric interval (Holte 1993, Weka's OneR): the "
                                       "baseline every other learner should beat",
                        .fit_model = fit_one_r,
                        .option_groups = "one_r",
                        .weak = true,
                        .prediction = "(the rule of the row's value)",
                        .describe = describe_one_r}},
          .params = one_r_params,
          .option_groups = {{"one_r", "One-rule options (one-r)"}}};
}

}  // namespace candor
