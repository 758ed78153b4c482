// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/decision_list/decision_list.hpp"

namespace candor {

LearnerRegistration register_decision_list() {
  return {
      .position = 30,
      .learners = {{.name = "decision-list",
                    .description = "top-down hill-climbing separate-and-conquer with separate refinement and selection "
                                   "heuristics (paper 003)",
                    .fit = fit_decision_list,
                    .quality = "laplace",
                    .search = SearchKind::greedy,
                    .max_rule_length = kNoLengthLimit,
                    .stop = Stopping::none,
                    .separate_heuristics = true,
                    .correct_evc = true,
                    .stopping = true,
                    .option_groups = "rule"}}};
}

}  // namespace candor
