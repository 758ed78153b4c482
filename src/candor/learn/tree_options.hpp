#pragma once
// The options of the trees (`tree`, `stump`, and the trees and stumps of `boost` and PrIL), a component the
// tree learners (learners/trees/) and the ensembles (learners/boost/) compose: their types and defaults here, their
// checks and help in tree_params(), which learners/trees/ registers. Every other part of candor sees them as
// LearnerParams::options<TreeOptions>() and by their names (--confidence, ...).
#include <nlohmann/json.hpp>
#include <optional>
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
  // Group "leaf"; unset: the learner's default (resolved_leaf_estimate).
  std::optional<LeafEstimateOption> leaf_estimate;
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
// Writes the resolved --leaf-estimate where `p` reads it: a model file names the estimate its leaves use,
// whatever the default was when it was fitted.
void write_leaf_estimate(const LearnerParams& p, nlohmann::json& j);
// The trees' settings as the line heading a model's text shows them (pruning, least leaf, leaf estimate), for
// the tree learners and the ensembles over trees alike.
std::string describe_tree_options(const LearnerParams& p);

struct ParamInfo;  // learn/params.hpp
// The declarations of the trees' options (groups "leaf" and "tree"), in the order of `candor params`.
const std::vector<ParamInfo>& tree_params();

}  // namespace candor
