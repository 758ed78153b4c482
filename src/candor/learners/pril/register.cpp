// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/pril/pril.hpp"
#include "candor/learners/pril/pril_options.hpp"

namespace candor {

LearnerRegistration register_pril() {
  return {
      .position = 80,
      .learners = {{.name = "pril",
                    .description =
                        "probabilistic inductive learning (paper 004): rules that classify correctly at least their "
                        "stated reliability of the time with confidence 1 - risk, and undecided cases where no rule "
                        "is reliable enough",
                    .fit_model = fit_pril,
                    .option_groups = "pril",
                    .prediction = "(the first reliable rule; else undecided)",
                    .check = check_pril_options,
                    .describe = describe_pril,
                    .write_options = write_pril_options}},
      .params = pril_params,
      .option_groups = {{"pril", "PrIL options"}}};
}

}  // namespace candor
