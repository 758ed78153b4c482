#include "candor/learn/base_learner.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/learn/fit.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/tree/c45.hpp"
#include "candor/tree/stump.hpp"

namespace candor {

std::vector<std::size_t> labelled_rows(const Dataset& d) {
  std::vector<std::size_t> rows;
  rows.reserve(d.rows());
  for (std::size_t r = 0; r < d.rows(); ++r)
    if (d.y[r] != kMissing) rows.push_back(r);
  return rows;
}

std::vector<double> weights_of(const Dataset& d, const std::vector<std::size_t>& rows) {
  std::vector<double> w(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) w[k] = d.weights[rows[k]];
  return w;
}

Tree rule_as_tree(const Rule* rule, const Schema& schema) {
  Tree t;
  const std::size_t classes = schema.class_attribute.values.size();
  auto leaf = [&](int cell) {
    TreeNode n;
    n.cell = cell;
    n.class_counts.assign(classes, 0.0);
    t.nodes.push_back(n);
  };
  if (!rule || rule->conditions.empty()) {
    leaf(0);
    t.cells = 1;
    return t;
  }
  // Node k tests condition k; its passing child is node k + 1 (or the covered leaf), the failing ones leaves
  // of cell 1. Children are numbered after their parent: [test k] [fail] [missing] [test k + 1] ...
  for (const auto& c : rule->conditions) {
    const int self = static_cast<int>(t.nodes.size());
    TreeNode n;
    n.attribute = c.attribute;
    n.class_counts.assign(classes, 0.0);
    const int fail = self + 1, missing = self + 2, pass = self + 3;
    switch (c.op) {
      case Op::le:
        n.split = SplitKind::numeric;
        n.threshold = c.threshold;
        n.children = {pass, fail, missing};
        break;
      case Op::gt:
        n.split = SplitKind::numeric;
        n.threshold = c.threshold;
        n.children = {fail, pass, missing};
        break;
      case Op::eq:
        n.split = SplitKind::nominal_binary;
        n.value = c.value;
        n.children = {pass, fail, missing};
        break;
      case Op::ne:
        n.split = SplitKind::nominal_binary;
        n.value = c.value;
        n.children = {fail, pass, missing};
        break;
    }
    n.missing_child = 2;
    n.branch_weights.assign(3, 0.0);
    t.nodes.push_back(n);
    leaf(1);
    leaf(1);
  }
  leaf(0);
  t.cells = 2;
  return t;
}

void recount(Tree& t, const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights) {
  const auto parents = t.parents();
  for (auto& n : t.nodes) std::fill(n.class_counts.begin(), n.class_counts.end(), 0.0);
  std::vector<std::pair<int, double>> leaves;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!(weights[k] > 0)) continue;
    t.route(d, rows[k], leaves);
    for (const auto& [leaf, fraction] : leaves)
      for (int n = leaf; n >= 0; n = parents[n]) t.nodes[n].class_counts[d.y[rows[k]]] += fraction * weights[k];
  }
}

std::vector<double> weighted_bootstrap(const std::vector<double>& weights, double share, Rng& rng) {
  std::vector<double> cumulative(weights.size());
  std::partial_sum(weights.begin(), weights.end(), cumulative.begin());
  std::vector<double> counts(weights.size(), 0.0);
  if (weights.empty() || !(cumulative.back() > 0)) return counts;
  const auto draws = static_cast<std::size_t>(std::llround(share * static_cast<double>(weights.size())));
  for (std::size_t i = 0; i < std::max<std::size_t>(draws, 1); ++i) {
    const double u = uniform01(rng) * cumulative.back();
    auto k = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    k = std::min(k, weights.size() - 1);
    while (!(weights[k] > 0)) --k;  // u landed on the end of a run of zero weights
    counts[k] += 1;
  }
  return counts;
}

Tree fit_base_tree(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                   const LearnerParams& params, BaseLearner base, int threads) {
  if (base == BaseLearner::stump) return grow_stump(d, rows, weights);
  if (base == BaseLearner::tree) {
    C45Options o;
    o.confidence = params.options<TreeOptions>().confidence;
    o.min_leaf = params.options<TreeOptions>().min_leaf;
    o.prune = !params.options<TreeOptions>().unpruned;
    return grow_c45(d, rows, weights, o);
  }
  std::vector<std::size_t> kept;
  std::vector<double> kept_weights;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (weights[k] > 0) {
      kept.push_back(rows[k]);
      kept_weights.push_back(weights[k]);
    }
  Dataset sample = d.subset(kept);
  sample.weights = kept_weights;
  const RuleModel rules = fit(sample, options_for(params, "rule"), threads);
  Tree t = rule_as_tree(rules.rules.empty() ? nullptr : &rules.rules.front(), d.schema);
  recount(t, d, rows, weights);
  return t;
}

}  // namespace candor
