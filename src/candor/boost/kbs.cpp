#include <algorithm>
#include <cmath>
#include <numeric>

#include "candor/boost/base_learner.hpp"
#include "candor/boost/boost.hpp"

namespace candor {

LiftTable kbs_lifts(const Tree& member, const Dataset& d, const std::vector<std::size_t>& rows,
                    const std::vector<double>& weights, double prior_weight) {
  const std::size_t classes = d.num_classes();
  std::vector<std::vector<double>> w(member.cells, std::vector<double>(classes, 0.0));
  std::vector<std::pair<int, double>> cells;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!(weights[k] > 0)) continue;
    member.cell_route(d, rows[k], cells);
    for (const auto& [cell, fraction] : cells) w[cell][d.y[rows[k]]] += fraction * weights[k];
  }
  std::vector<double> per_class(classes, 0.0), per_cell(member.cells, 0.0);
  for (int c = 0; c < member.cells; ++c)
    for (std::size_t y = 0; y < classes; ++y) {
      per_class[y] += w[c][y];
      per_cell[c] += w[c][y];
    }
  const double total = std::accumulate(per_class.begin(), per_class.end(), 0.0);
  LiftTable t;
  t.raw.assign(member.cells, std::vector<double>(classes, 1.0));
  t.smoothed = t.raw;
  for (int c = 0; c < member.cells; ++c)
    for (std::size_t y = 0; y < classes; ++y) {
      if (!(per_class[y] > 0)) continue;  // a class absent from the data: LIFT 1, it never matters
      const double prior = per_class[y] / total;
      if (per_cell[c] > 0) t.raw[c][y] = w[c][y] / per_cell[c] / prior;
      const double n = per_cell[c] + prior_weight;
      t.smoothed[c][y] = n > 0 ? std::max((w[c][y] + prior_weight * prior) / n / prior, 1e-9) : 1.0;
    }
  return t;
}

void kbs_reweight(const Tree& member, const LiftTable& lifts, const Dataset& d, const std::vector<std::size_t>& rows,
                  std::vector<double>& weights) {
  const double before = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::pair<int, double>> cells;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!(weights[k] > 0)) continue;
    member.cell_route(d, rows[k], cells);
    double lift = 0;
    for (const auto& [cell, fraction] : cells) lift += fraction * lifts.raw[cell][d.y[rows[k]]];
    weights[k] /= lift;  // > 0: the row's own weight is in each of its cells
  }
  // Theorem 1 keeps the total when every cell holds every class; a cell without some class cannot be made
  // independent of it, its other classes lose weight and the total shrinks: scale back to the start.
  // (Smoothed LIFTs here instead, or each class scaled back to its own total, measured no better on the
  // corpus: docs/boosting.md.)
  const double after = std::accumulate(weights.begin(), weights.end(), 0.0);
  if (after > 0)
    for (double& w : weights) w *= before / after;
}

void boost_kbs(BoostModel& m, const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& start,
               int threads) {
  const LearnerParams& p = m.params;
  const std::size_t classes = d.num_classes();
  std::vector<double> weights = start;
  Rng rng(static_cast<std::uint64_t>(p.seed));
  for (int round = 0; round < p.iterations; ++round) {
    std::vector<double> fit_weights = weights;
    if (p.stratify) {
      std::vector<double> per_class(classes, 0.0);
      for (std::size_t k = 0; k < rows.size(); ++k) per_class[d.y[rows[k]]] += weights[k];
      const double total = std::accumulate(per_class.begin(), per_class.end(), 0.0);
      std::size_t present = 0;
      for (double c : per_class) present += c > 0;
      for (std::size_t k = 0; k < rows.size(); ++k)
        if (fit_weights[k] > 0) fit_weights[k] *= total / static_cast<double>(present) / per_class[d.y[rows[k]]];
    }
    if (p.subsample > 0) fit_weights = weighted_bootstrap(fit_weights, p.subsample, rng);
    Tree member = fit_base_tree(d, rows, fit_weights, p, p.base, threads);
    LiftTable lifts = kbs_lifts(member, d, rows, weights, p.prior_weight);
    bool informative = false;
    for (const auto& row : lifts.raw)
      for (double l : row) informative |= std::abs(l - 1) > 1e-9;
    if (!informative && !m.members.empty()) break;
    if (informative) kbs_reweight(member, lifts, d, rows, weights);
    m.members.push_back(std::move(member));
    m.lifts.push_back(std::move(lifts.smoothed));
    if (!informative) break;
  }
}

}  // namespace candor
