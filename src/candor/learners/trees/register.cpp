// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/learners/trees/tree_learners.hpp"

namespace candor {

LearnerRegistration register_trees() {
  return {
      .position = 60,
      .learners = {{.name = "stump",
                    .description =
                        "a one-level decision tree as Weka's DecisionStump: one binary test by weighted entropy, a "
                        "third branch for missing values",
                    .fit_model = fit_tree,
                    .option_groups = "leaf",
                    .weak = true,
                    .also_reads = tree_also_reads,
                    .prediction = "(leaf distribution)",
                    .describe = describe_tree_learner,
                    .write_options = write_tree_options},
                   {.name = "tree",
                    .description =
                        "a C4.5 decision tree with Weka J48's defaults (gain ratio, error-based pruning with subtree "
                        "raising, fractional instances for missing values)",
                    .fit_model = fit_tree,
                    .option_groups = "leaf tree",
                    .leaf_estimate = LeafEstimateOption::bootstrap,
                    .also_reads = tree_also_reads,
                    .prediction = "(leaf distribution, shrunk out of bag)",
                    .describe = describe_tree_learner,
                    .write_options = write_tree_options}},
      .params = tree_params,
      .option_groups = {{"leaf", "Tree and stump options"}, {"tree", "Tree and stump options"}}};
}

}  // namespace candor
