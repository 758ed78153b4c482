#include "candor/tree/stump.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "candor/tree/impurity.hpp"

namespace candor {

namespace {

// Class weights of one branch; impurity: weight times the class entropy (in nats).
struct ClassStats {
  std::vector<double> counts;
  double n = 0;
  explicit ClassStats(std::size_t classes = 0) : counts(classes, 0.0) {}
  void add(int klass, double w) {
    counts[klass] += w;
    n += w;
  }
  double impurity() const {
    double s = xlogx(n);
    for (double c : counts) s -= xlogx(c);
    return s;
  }
  ClassStats minus(const ClassStats& o) const {
    ClassStats r(counts.size());
    for (std::size_t c = 0; c < counts.size(); ++c) r.counts[c] = counts[c] - o.counts[c];
    r.n = n - o.n;
    return r;
  }
  double weight() const { return n; }
};

// Weighted sums of a response; impurity: the weighted squared error around the weighted mean.
struct ValueStats {
  double w = 0, s = 0, q = 0;
  void add(double z, double weight) {
    w += weight;
    s += weight * z;
    q += weight * z * z;
  }
  double impurity() const { return w > 0 ? std::max(0.0, q - s * s / w) : 0.0; }
  ValueStats minus(const ValueStats& o) const { return {w - o.w, s - o.s, q - o.q}; }
  double weight() const { return w; }
  double mean() const { return w > 0 ? s / w : 0.0; }
};

struct Best {
  double score = std::numeric_limits<double>::infinity();
  int attribute = -1;
  SplitKind split = SplitKind::leaf;
  double threshold = 0;
  int value = 0;
};

// Searches every attribute for the test of least impurity; `target(k)` is what entry k adds and `empty`
// an accumulator with nothing in it.
template <class Stats, class Target>
Best best_test(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
               Target target, const Stats& empty) {
  Best best;
  // Strictly better by a relative margin, so that sums taken in another order do not reorder exact ties.
  auto consider = [&](double score, int a, SplitKind split, double threshold, int value) {
    if (best.attribute < 0 || score < best.score - 1e-12 * std::max(1.0, std::abs(best.score)))
      best = {score, a, split, threshold, value};
  };
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    Stats missing = empty, known = empty;
    if (d.attribute(a).is_nominal()) {
      std::vector<Stats> per_value(d.attribute(a).values.size(), empty);
      for (std::size_t k = 0; k < rows.size(); ++k) {
        if (!(weights[k] > 0)) continue;
        const int code = d.columns[a].codes[rows[k]];
        (code == kMissing ? missing : per_value[code]).add(target(k), weights[k]);
        if (code != kMissing) known.add(target(k), weights[k]);
      }
      for (std::size_t v = 0; v < per_value.size(); ++v) {
        const Stats rest = known.minus(per_value[v]);
        if (!(per_value[v].weight() > 0) || !(rest.weight() > 1e-12 * known.weight())) continue;
        consider(per_value[v].impurity() + rest.impurity() + missing.impurity(), static_cast<int>(a),
                 SplitKind::nominal_binary, 0, static_cast<int>(v));
      }
      continue;
    }
    std::vector<std::pair<double, std::size_t>> order;
    order.reserve(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (!(weights[k] > 0)) continue;
      const double x = d.columns[a].values[rows[k]];
      if (std::isnan(x))
        missing.add(target(k), weights[k]);
      else {
        order.emplace_back(x, k);
        known.add(target(k), weights[k]);
      }
    }
    std::sort(order.begin(), order.end());
    Stats left = empty;
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
      left.add(target(order[i].second), weights[order[i].second]);
      if (order[i].first == order[i + 1].first) continue;
      double threshold = (order[i].first + order[i + 1].first) / 2;
      if (threshold == order[i + 1].first) threshold = order[i].first;
      consider(left.impurity() + known.minus(left).impurity() + missing.impurity(), static_cast<int>(a),
               SplitKind::numeric, threshold, 0);
    }
  }
  return best;
}

// The three-leaf tree of a test: children 0 and 1 for known values, 2 for missing ones.
Tree stump_shape(const Best& b) {
  Tree t;
  t.nodes.resize(b.attribute < 0 ? 1 : 4);
  if (b.attribute >= 0) {
    TreeNode& root = t.nodes[0];
    root.split = b.split;
    root.attribute = b.attribute;
    root.threshold = b.threshold;
    root.value = b.value;
    root.children = {1, 2, 3};
    root.missing_child = 2;
    root.branch_weights.assign(3, 0.0);
  }
  t.number_leaves_as_cells();
  return t;
}

// The leaf (node index) entry k's row reaches.
int leaf_of(const Tree& t, const Dataset& d, std::size_t row) {
  std::vector<std::pair<int, double>> route;
  t.route(d, row, route);
  return route.front().first;
}

}  // namespace

Tree grow_stump(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights) {
  const std::size_t classes = d.num_classes();
  const Best best = best_test(
      d, rows, weights, [&](std::size_t k) { return d.y[rows[k]]; }, ClassStats(classes));
  Tree t = stump_shape(best);
  for (auto& n : t.nodes) n.class_counts.assign(classes, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!(weights[k] > 0)) continue;
    const int leaf = leaf_of(t, d, rows[k]);
    t.nodes[leaf].class_counts[d.y[rows[k]]] += weights[k];
    if (leaf > 0) {
      t.nodes[0].class_counts[d.y[rows[k]]] += weights[k];
      t.nodes[0].branch_weights[leaf - 1] += weights[k];
    }
  }
  return t;
}

Tree grow_regression_stump(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                           const std::vector<double>& targets) {
  const Best best = best_test(
      d, rows, weights, [&](std::size_t k) { return targets[k]; }, ValueStats());
  Tree t = stump_shape(best);
  std::vector<ValueStats> stats(t.nodes.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!(weights[k] > 0)) continue;
    const int leaf = leaf_of(t, d, rows[k]);
    stats[leaf].add(targets[k], weights[k]);
    if (leaf > 0) {
      stats[0].add(targets[k], weights[k]);
      t.nodes[0].branch_weights[leaf - 1] += weights[k];
    }
  }
  for (std::size_t n = 0; n < t.nodes.size(); ++n) t.nodes[n].value_mean = stats[n].mean();
  // A missing branch without training weight predicts the mean of all (Weka's DecisionStump).
  if (t.nodes.size() == 4 && !(stats[3].w > 0)) t.nodes[3].value_mean = stats[0].mean();
  return t;
}

}  // namespace candor
