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
  // Group "leaf": laplace, counts or bootstrap; empty: the learner's default (resolved_leaf_estimate).
  std::string leaf_estimate;
  double confidence = 0.25;  // C4.5's pruning confidence, in (0, 0.5]
  double min_leaf = 2;
  bool unpruned = false;
  bool operator==(const TreeOptions&) const = default;
};

struct LearnerParams;  // learn/params.hpp
// --leaf-estimate, or the learner's default (LearnerInfo::leaf_estimate): bootstrap for `tree`, whose leaves are
// the winners of its search (docs/boosting.md, "Honest leaves"); laplace for `stump`, whose few large leaves
// bootstrap does not move, and for the members of an ensemble, which its --calibrate corrects.
LeafEstimateOption resolved_leaf_estimate(const LearnerParams& p);

struct ParamInfo;  // learn/params.hpp
// The declarations of the trees' options (groups "leaf" and "tree"), in the order of `candor params`.
const std::vector<ParamInfo>& tree_params();

}  // namespace candor
