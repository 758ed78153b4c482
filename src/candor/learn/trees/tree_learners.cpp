#include "candor/learn/trees/tree_learners.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/data/resampling.hpp"
#include "candor/evc/general.hpp"
#include "candor/learn/boost/base_learner.hpp"
#include "candor/learn/bootstrap_correction.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/trees/tree_options.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/tree/tree.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/random.hpp"

namespace candor {

const std::vector<ParamInfo>& tree_params() {
  static const std::vector<ParamInfo> table{
      {"leaf_estimate", option_field<&TreeOptions::leaf_estimate>(),
       "stump, tree: how a leaf's class weights become probabilities: laplace ((n_c + 1) / (n + classes), J48 -A), "
       "counts (n_c / n, mixed with --prior-weight pseudo-examples of the prior; --prior-weight 0 gives J48's "
       "raw shares) or bootstrap (counts mixed with m pseudo-examples of the prior, m fitted on the rows "
       "--bootstrap-resamples bootstrap resamples' trees left out; a single tree or stump only); a leaf with no "
       "training weight predicts from its parent's weights (default: bootstrap for tree, laplace for stump and "
       "for the trees and stumps of boost)",
       "leaf", one_of([] { return names_of(kLeafEstimateOptionNames); }, true)},
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

namespace {

// --leaf-estimate bootstrap: the learner's tree on params.bootstrap_resamples bootstrap resamples (a row's
// weight times the times it was drawn), each routed the original rows: the distinct drawn ones give a leaf's
// counts, the others its left-out counts; m is fitted on those (learn/bootstrap_correction.hpp). Distinct
// rows, as for --correct bootstrap: the full tree's counts hold every row once.
LeafShrinkage fit_leaf_shrinkage(const Dataset& data, const std::vector<std::size_t>& rows,
                                 const std::vector<double>& weights, const LearnerParams& params,
                                 const std::vector<double>& prior, int threads) {
  const std::size_t b_count = static_cast<std::size_t>(params.bootstrap_resamples), n = rows.size();
  Rng rng(stream_seed(static_cast<std::uint64_t>(params.seed), 0x1EAFULL));
  std::vector<std::vector<std::uint32_t>> drawn(b_count, std::vector<std::uint32_t>(n, 0));
  for (auto& times : drawn)
    for (std::size_t i : bootstrap_rows(n, rng)) ++times[i];
  std::vector<std::vector<OutOfBagLeaf>> scored(b_count);
  parallel_for(b_count, threads, [&](std::size_t b) {
    std::vector<double> w(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = weights[i] * drawn[b][i];
    const Tree t = fit_base_tree(data, rows, w, params, parse_base_learner(params.learner), 1);
    std::vector<OutOfBagLeaf> leaves(t.nodes.size(),
                                     {std::vector<double>(prior.size(), 0.0), std::vector<double>(prior.size(), 0.0)});
    std::vector<std::pair<int, double>> route;
    for (std::size_t i = 0; i < n; ++i) {
      t.route(data, rows[i], route);
      const auto y = static_cast<std::size_t>(data.y[rows[i]]);
      for (const auto& [leaf, fraction] : route)
        (drawn[b][i] > 0 ? leaves[leaf].in : leaves[leaf].oob)[y] += fraction * weights[i];
    }
    for (auto& leaf : leaves)
      if (std::accumulate(leaf.oob.begin(), leaf.oob.end(), 0.0) > 0) scored[b].push_back(std::move(leaf));
  });
  std::vector<OutOfBagLeaf> all;
  for (auto& s : scored) all.insert(all.end(), std::make_move_iterator(s.begin()), std::make_move_iterator(s.end()));
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  LeafShrinkage out;
  out.resamples = params.bootstrap_resamples;
  out.leaves = all.size();
  out.m = all.empty() ? params.prior_weight : fit_leaf_shrinkage_m(all, prior, LeafShrinkage::largest_m(total));
  return out;
}

}  // namespace

LeafEstimateOption resolved_leaf_estimate(const LearnerParams& p) {
  const std::string& name = p.options<TreeOptions>().leaf_estimate;
  return parse_named(kLeafEstimateOptionNames, "--leaf-estimate value",
                     name.empty() ? find_learner(p.learner).leaf_estimate : name);
}

void write_leaf_estimate(const LearnerParams& p, nlohmann::json& j) {
  if (reads_option_group(p, "leaf")) j["leaf_estimate"] = name_of(kLeafEstimateOptionNames, resolved_leaf_estimate(p));
}

std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads) {
  auto model = std::make_unique<TreeModel>();
  model->learner = params_to_json(params);
  record_training(*model, data);
  model->resolve();
  const auto rows = labelled_rows(data);
  const std::vector<double> weights = weights_of(data, rows);
  model->tree = fit_base_tree(data, rows, weights, params, parse_base_learner(params.learner), threads);
  if (model->fits_leaf_shrinkage)
    model->leaf_shrinkage =
        fit_leaf_shrinkage(data, rows, weights, params, laplace_prior(model->training_counts), threads);
  return model;
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

std::string describe_tree_learner(const LearnerParams& p) { return p.learner + " (" + describe_tree_options(p) + ")"; }

bool tree_also_reads(const LearnerParams& /*p*/, std::string_view name) { return name == "bootstrap_resamples"; }

void write_tree_options(const LearnerParams& p, nlohmann::json& j) {
  write_leaf_estimate(p, j);
  // --bootstrap-resamples is written where --leaf-estimate bootstrap reads it.
  if (resolved_leaf_estimate(p) == LeafEstimateOption::bootstrap) j["bootstrap_resamples"] = p.bootstrap_resamples;
}

}  // namespace candor
