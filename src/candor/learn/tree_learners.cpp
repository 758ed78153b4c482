#include "candor/learn/tree_learners.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/boost/base_learner.hpp"
#include "candor/boost/boost.hpp"
#include "candor/data/resampling.hpp"
#include "candor/evc/general.hpp"
#include "candor/learn/bootstrap_correction.hpp"
#include "candor/learn/covering.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/model/tree_model.hpp"
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
    const Tree t = fit_base_tree(data, rows, w, params, params.learner, 1);
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
  out.m = all.empty() ? params.prior_weight : fit_leaf_shrinkage_m(all, prior, 10 * std::max(1.0, total));
  return out;
}

// --calibrate temperature: the scale t of the ensemble's scores that maximises the likelihood of rows it
// did not see: 5 stratified folds of the labelled rows (seeded by --seed), each scored by the ensemble fitted
// on the other four. Scores are the logits predict_proba takes its softmax of.
double fit_temperature(const Dataset& data, const LearnerParams& params, int threads) {
  LearnerParams inner = params;
  inner.calibrate = "none";
  const auto labelled = labelled_rows(data);
  std::vector<int> y;
  for (std::size_t r : labelled) y.push_back(data.y[r]);
  // Five folds, or one per row on fewer than five rows (one row cannot be split: no scale to fit).
  const int k = static_cast<int>(std::min<std::size_t>(5, labelled.size()));
  if (k < 2) return 1.0;
  const auto folds = stratified_folds(y, k, static_cast<std::uint64_t>(params.seed));
  struct Scored {
    std::vector<double> score;
    int y;
  };
  std::vector<std::vector<Scored>> scored(folds.size());
  parallel_for(folds.size(), threads, [&](std::size_t f) {
    std::vector<char> held(labelled.size(), 0);
    for (std::size_t i : folds[f]) held[i] = 1;
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < labelled.size(); ++i)
      if (!held[i]) train.push_back(labelled[i]);
    if (train.empty()) return;
    const auto fitted = fit_boost(data.subset(train), inner, 1);
    const auto& m = dynamic_cast<const BoostModel&>(*fitted);
    if (m.method == BoostingMethod::adaboost_m1 && m.members.size() == 1) return;  // its leaves decide, unscaled
    for (std::size_t i : folds[f]) scored[f].push_back({m.scores(data, labelled[i]), data.y[labelled[i]]});
  });
  std::vector<Scored> all;
  for (auto& s : scored) all.insert(all.end(), s.begin(), s.end());
  if (all.empty()) return 1.0;
  auto loss = [&](double log_t) {
    const double t = std::exp(log_t);
    double sum = 0;
    for (const auto& r : all) {
      std::vector<double> s = r.score;
      for (double& v : s) v *= t;
      const auto p = BoostModel::probabilities(s);
      sum -= std::log(std::max(p[static_cast<std::size_t>(r.y)], 1e-15));
    }
    return sum;
  };
  // Scales from a thousandth to a hundredfold, searched on log t.
  const auto [log_t, value] = boost::math::tools::brent_find_minima(loss, std::log(1e-3), std::log(100.0), 30);
  (void)value;
  return std::exp(log_t);
}

// --calibrate smoothing (KBS): the --prior-weight of the prediction LIFTs that maximises the likelihood of
// rows the ensemble did not see, on the folds of fit_temperature. The members and their reweighting (exact
// LIFTs, Theorem 1) are untouched; only how far each cell's LIFT is pulled towards 1 is fitted, so a cell
// fitted on few (weighted) rows counts for less. Each fold's members are fitted once; a smoothing's LIFTs
// follow from their (cell, class) weights.
double fit_lift_smoothing(const Dataset& data, const LearnerParams& params, int threads) {
  LearnerParams inner = params;
  inner.calibrate = "none";
  const auto labelled = labelled_rows(data);
  std::vector<int> y;
  for (std::size_t r : labelled) y.push_back(data.y[r]);
  const int k = static_cast<int>(std::min<std::size_t>(5, labelled.size()));
  if (k < 2) return params.prior_weight;
  const auto folds = stratified_folds(y, k, static_cast<std::uint64_t>(params.seed));
  struct Fold {
    Dataset train;
    BoostModel model;  // fitted on train, its LIFTs refilled for each smoothing tried
    KbsMembers members;
    std::vector<std::size_t> held;  // rows of `data`
  };
  std::vector<Fold> fitted(folds.size());
  parallel_for(folds.size(), threads, [&](std::size_t f) {
    std::vector<char> is_held(labelled.size(), 0);
    for (std::size_t i : folds[f]) is_held[i] = 1;
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < labelled.size(); ++i)
      if (!is_held[i]) train.push_back(labelled[i]);
    if (train.empty()) return;
    Fold& fold = fitted[f];
    fold.train = data.subset(train);
    fold.model.learner = params_to_json(inner);
    record_training(fold.model, fold.train);
    fold.model.resolve();
    const auto rows = labelled_rows(fold.train);
    fold.members = kbs_members(inner, fold.train, rows, weights_of(fold.train, rows), 1);
    for (std::size_t i : folds[f]) fold.held.push_back(labelled[i]);
  });
  auto loss = [&](double log_w) {
    double sum = 0;
    for (auto& fold : fitted) {
      if (fold.held.empty()) continue;
      kbs_fill(fold.model, fold.members, std::exp(log_w));
      for (std::size_t r : fold.held)
        sum -= std::log(std::max(fold.model.predict_proba(data, r)[static_cast<std::size_t>(data.y[r])], 1e-15));
    }
    return sum;
  };
  // From a hundredth of a pseudo-example to ten thousand, searched on the log.
  const auto [log_w, value] = boost::math::tools::brent_find_minima(loss, std::log(1e-2), std::log(1e4), 30);
  (void)value;
  return std::exp(log_w);
}

}  // namespace

std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads) {
  auto model = std::make_unique<TreeModel>();
  model->learner = params_to_json(params);
  record_training(*model, data);
  model->resolve();
  const auto rows = labelled_rows(data);
  const std::vector<double> weights = weights_of(data, rows);
  model->tree = fit_base_tree(data, rows, weights, params, params.learner, threads);
  if (params.leaf_estimate == "bootstrap")
    model->leaf_shrinkage =
        fit_leaf_shrinkage(data, rows, weights, params, laplace_prior(model->training_counts), threads);
  return model;
}

RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality, int threads,
                        const QualityMeasure* estimate) {
  LearnerParams one = params;
  one.max_rules = 1;
  RuleModel model = fit_cn2_ordered(data, one, quality, threads, estimate);
  model.learner = params_to_json(params);
  model.resolve();
  return model;
}

std::unique_ptr<Model> fit_boost(const Dataset& data, const LearnerParams& params, int threads) {
  LearnerParams used = params;
  if (used.boosting == "kbs") used.multiclass = params.resolved_multiclass();  // recorded
  auto model = std::make_unique<BoostModel>();
  model->learner = params_to_json(used);
  record_training(*model, data);
  model->resolve();
  if (model->method == BoostingMethod::logitboost && data.num_classes() < 2)
    throw std::invalid_argument("logitboost needs a class with at least two values");
  const auto rows = labelled_rows(data);
  if (rows.empty()) throw std::invalid_argument("boost needs labelled training examples");
  const std::vector<double> weights = weights_of(data, rows);
  switch (model->method) {
    case BoostingMethod::kbs:
      if (model->calibration == BoostCalibration::smoothing) {
        // The members first, then their LIFTs with the smoothing fitted on internal folds (recorded).
        const KbsMembers members = kbs_members(used, data, rows, weights, threads);
        model->lift_prior_weight = fit_lift_smoothing(data, used, threads);
        kbs_fill(*model, members, model->lift_prior_weight);
      } else {
        boost_kbs(*model, used, data, rows, weights, threads);
      }
      break;
    case BoostingMethod::adaboost_m1: boost_adaboost_m1(*model, used, data, rows, weights, threads); break;
    case BoostingMethod::logitboost: boost_logitboost(*model, used, data, rows, weights, threads); break;
  }
  if (model->calibration == BoostCalibration::temperature) model->temperature = fit_temperature(data, params, threads);
  return model;
}

}  // namespace candor
