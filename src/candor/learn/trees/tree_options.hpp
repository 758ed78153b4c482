#pragma once
// The options of the tree learners (learn/trees/tree_learners.cpp: `tree`, `stump`, and the trees and stumps
// of `boost` and PrIL): their types and defaults here, their checks and help in tree_params(), which the
// folder registers (learn/trees/register.cpp). Every other part of candor sees them as
// LearnerParams::options<TreeOptions>() and by their names (--confidence, ...).
#include <string>
#include <vector>

#include "candor/util/names.hpp"

namespace candor {

// --leaf-estimate as the option holds it. The model's LeafEstimate (tree/tree.hpp) has no bootstrap: a
// bootstrap leaf is a counts leaf with a fitted weight, which the model records beside it.
enum class LeafEstimateOption { laplace, counts, bootstrap };
inline constexpr Named<LeafEstimateOption> kLeafEstimateOptionNames[] = {{"laplace", LeafEstimateOption::laplace},
                                                                         {"counts", LeafEstimateOption::counts},
                                                                         {"bootstrap", LeafEstimateOption::bootstrap}};

struct TreeOptions {
  LeafEstimateOption leaf_estimate = LeafEstimateOption::laplace;  // group "leaf"
  double confidence = 0.25;                                        // C4.5's pruning confidence, in (0, 0.5]
  double min_leaf = 2;
  bool unpruned = false;
  bool operator==(const TreeOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the trees' options (groups "leaf" and "tree"), in the order of `candor params`.
const std::vector<ParamInfo>& tree_params();

}  // namespace candor
