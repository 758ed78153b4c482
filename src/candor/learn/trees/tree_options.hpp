#pragma once
// The options of the tree learners (learn/trees/tree_learners.cpp: `tree`, `stump`, and the trees and stumps
// of `boost` and PrIL): their types and defaults here, their checks and help in tree_params(), which the
// folder registers (learn/trees/register.cpp). Every other part of candor sees them as
// LearnerParams::options<TreeOptions>() and by their names (--confidence, ...).
#include <string>
#include <vector>

namespace candor {

struct TreeOptions {
  std::string leaf_estimate = "laplace";  // tree/tree.hpp's kLeafEstimateNames (group "leaf")
  double confidence = 0.25;               // C4.5's pruning confidence, in (0, 0.5]
  double min_leaf = 2;
  bool unpruned = false;
  bool operator==(const TreeOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the trees' options (groups "leaf" and "tree"), in the order of `candor params`.
const std::vector<ParamInfo>& tree_params();

}  // namespace candor
