#include "candor/learn/tree_options.hpp"

#include <string>

#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"

namespace candor {

const std::vector<ParamInfo>& tree_params() {
  static const std::vector<ParamInfo> table{
      {"leaf_estimate", named_option_field<kLeafEstimateOptionNames, &TreeOptions::leaf_estimate>(),
       "stump, tree: how a leaf's class weights become probabilities: laplace ((n_c + 1) / (n + classes), J48 -A), "
       "counts (n_c / n, mixed with --prior-weight pseudo-examples of the prior; --prior-weight 0 gives J48's "
       "raw shares) or bootstrap (counts mixed with m pseudo-examples of the prior, m fitted on the rows "
       "--bootstrap-resamples bootstrap resamples' trees left out; a single tree or stump only); a leaf with no "
       "training weight predicts from its parent's weights (default: bootstrap for tree, laplace for stump and "
       "for the trees and stumps of boost)",
       "leaf"},
      {"confidence", option_field<&TreeOptions::confidence>(),
       "tree: the confidence of C4.5's error-based pruning; smaller prunes more (J48 -C)", "tree",
       in_range(0, 0.5, true)},
      {"min_leaf", option_field<&TreeOptions::min_leaf>(),
       "tree: a split needs at least this (weighted) many examples in two of its branches (J48 -M)", "tree",
       at_least(0)},
      {"unpruned", option_field<&TreeOptions::unpruned>(), "tree: grow without error-based pruning (J48 -U)", "tree"},
  };
  return table;
}

LeafEstimateOption resolved_leaf_estimate(const LearnerParams& p) {
  return p.options<TreeOptions>().leaf_estimate.value_or(p.info().leaf_estimate);
}

void write_leaf_estimate(const LearnerParams& p, nlohmann::json& j) {
  if (reads_option_group(p, "leaf")) j["leaf_estimate"] = name_of(kLeafEstimateOptionNames, resolved_leaf_estimate(p));
}

std::string describe_tree_options(const LearnerParams& p) {
  const TreeOptions& o = p.options<TreeOptions>();
  std::string s;
  if (reads_option_group(p, "tree"))
    s += o.unpruned ? "unpruned, " : "confidence " + nlohmann::json(o.confidence).dump() + ", ";
  if (reads_option_group(p, "tree")) s += "min leaf " + nlohmann::json(o.min_leaf).dump() + ", ";
  if (reads_option_group(p, "leaf"))
    s += "leaf " + std::string(name_of(kLeafEstimateOptionNames, resolved_leaf_estimate(p)));
  return s;
}

}  // namespace candor
