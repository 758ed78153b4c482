#include "candor/learners/trees/tree_learners.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/data/resampling.hpp"
#include "candor/evc/general.hpp"
#include "candor/learn/base_learner.hpp"
#include "candor/learn/bootstrap_correction.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/tree/tree.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/random.hpp"

namespace candor {

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

std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads) {
  auto model = std::make_unique<TreeModel>();
  model->learner = params_to_json(params);
  model->use({name_of(kLeafEstimateOptionNames, resolved_leaf_estimate(params)), params.prior_weight});
  record_training(*model, data);
  const auto rows = labelled_rows(data);
  const std::vector<double> weights = weights_of(data, rows);
  model->tree = fit_base_tree(data, rows, weights, params, parse_base_learner(params.learner), threads);
  if (model->fits_leaf_shrinkage)
    model->leaf_shrinkage =
        fit_leaf_shrinkage(data, rows, weights, params, laplace_prior(model->training_counts), threads);
  return model;
}

std::string describe_tree_learner(const LearnerParams& p) { return p.learner + " (" + describe_tree_options(p) + ")"; }

bool tree_also_reads(const LearnerParams& /*p*/, std::string_view name) { return name == "bootstrap_resamples"; }

void write_tree_options(const LearnerParams& p, nlohmann::json& j) {
  write_leaf_estimate(p, j);
  // --bootstrap-resamples is written where --leaf-estimate bootstrap reads it.
  if (resolved_leaf_estimate(p) == LeafEstimateOption::bootstrap) j["bootstrap_resamples"] = p.bootstrap_resamples;
}

}  // namespace candor
