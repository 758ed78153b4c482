// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/laplace_covering/laplace_covering.hpp"

namespace candor {

LearnerRegistration register_laplace_covering() {
  return {.position = 20,
          .learners = {{.name = "laplace-covering",
                        .description =
                            "rules per class minimising the Laplace error, the matching rule of lowest error decides "
                            "(paper 002, section 4)",
                        .fit = fit_laplace_covering,
                        .quality = "laplace",
                        .search = SearchKind::layered,
                        .max_rule_length = kNoLengthLimit,
                        .stop = Stopping::none,
                        .only_quality = "laplace",
                        .layered_search = true,
                        .option_groups = "rule"}}};
}

}  // namespace candor
