// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/best_rule/best_rule.hpp"

namespace candor {

LearnerRegistration register_best_rule() {
  return {
      .position = 50,
      .learners = {{.name = "rule",
                    .description =
                        "the single best rule of CN2's search (any quality; WRAcc by default, the subgroup-discovery "
                        "setting KBS came from), then a default rule for the examples it does not cover: the base "
                        "learner `boost --base rule`",
                    .fit = fit_best_rule,
                    .quality = "wracc",
                    .search = SearchKind::beam,
                    .max_rule_length = 5,
                    .stop = Stopping::none,
                    .evc_quality = true,
                    .correct_evc = true,
                    .option_groups = "rule",
                    .weak = true}}};
}

}  // namespace candor
