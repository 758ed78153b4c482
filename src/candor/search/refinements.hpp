#pragma once
// Evaluates every condition on one attribute over the examples a rule covers, without building a bitset
// per condition: nominal attributes by popcounts of (rule AND value AND class) or by one pass over the
// covered rows, whichever is cheaper; numeric attributes by one sweep over the covered rows in value
// order, cutting at boundary points: midpoints between adjacent distinct values, skipped where the
// examples on both sides all have one and the same label. With a target class the labels are "target"
// and "other" (a cut between two groups of other classes cannot improve a rule for the target); without
// one they are the classes.
//
// The sink is a template parameter so that the per-threshold call inlines: this is the innermost loop of
// every search.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "candor/coverage/coverage_index.hpp"

namespace candor {

struct RuleCoverage {
  const Bitset* covered;                   // rows the rule covers
  const std::vector<std::uint32_t>* rows;  // the same rows as an ascending list
};

struct RefinementKinds {
  bool equal = true;       // A = v
  bool not_equal = false;  // A != v
  bool less_equal = true;  // A <= t
  bool greater = true;     // A > t
};

// Scratch memory reused across calls by one thread.
struct RefinementScratch {
  std::vector<double> table;
  std::vector<std::size_t> row_counts;
  std::vector<std::uint32_t> positions;
  std::vector<double> values, weights;
  std::vector<int> classes;
  std::vector<double> cum, total, other;
};

namespace detail {

template <class Sink>
void evaluate_nominal(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds,
                      RefinementScratch& sc, Sink&& sink) {
  const Dataset& d = index.data();
  const std::size_t k = index.num_classes();
  const std::size_t nv = d.attribute(a).values.size();
  sc.table.assign(nv * k, 0.0);
  sc.row_counts.assign(nv, 0);
  const std::size_t covered_rows = rule.rows->size();
  const std::size_t words = rule.covered->num_words();
  // Popcounts cost about words * values * classes word operations; the row pass about 4 per row.
  if (index.unit_weights() && words * nv * k < 4 * covered_rows) {
    const std::uint64_t* cov = rule.covered->data();
    for (std::size_t v = 0; v < nv; ++v) {
      const std::uint64_t* vr = index.value_rows(a, static_cast<int>(v)).data();
      for (std::size_t c = 0; c < k; ++c) {
        const std::uint64_t* cr = index.class_rows(static_cast<int>(c)).data();
        std::size_t cnt = 0;
        for (std::size_t w = 0; w < words; ++w) cnt += static_cast<std::size_t>(std::popcount(cov[w] & vr[w] & cr[w]));
        sc.table[v * k + c] = static_cast<double>(cnt);
        sc.row_counts[v] += cnt;
      }
    }
  } else {
    const auto& codes = d.columns[a].codes;
    for (std::uint32_t r : *rule.rows) {
      int code = codes[r];
      if (code == kMissing) continue;
      sc.table[static_cast<std::size_t>(code) * k + static_cast<std::size_t>(d.y[r])] += d.weights[r];
      ++sc.row_counts[static_cast<std::size_t>(code)];
    }
  }
  sc.total.assign(k, 0.0);
  std::size_t present_rows = 0;
  for (std::size_t v = 0; v < nv; ++v) {
    for (std::size_t c = 0; c < k; ++c) sc.total[c] += sc.table[v * k + c];
    present_rows += sc.row_counts[v];
  }
  sc.other.resize(k);
  for (std::size_t v = 0; v < nv; ++v) {
    if (kinds.equal && sc.row_counts[v] > 0)
      sink(Condition{a, Op::eq, static_cast<int>(v), 0.0}, &sc.table[v * k], sc.row_counts[v]);
    if (kinds.not_equal && sc.row_counts[v] > 0 && sc.row_counts[v] < present_rows) {
      for (std::size_t c = 0; c < k; ++c) sc.other[c] = sc.total[c] - sc.table[v * k + c];
      sink(Condition{a, Op::ne, static_cast<int>(v), 0.0}, sc.other.data(), present_rows - sc.row_counts[v]);
    }
  }
}

template <class Sink>
void evaluate_numeric(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds, int target,
                      RefinementScratch& sc, Sink&& sink) {
  if (!kinds.less_equal && !kinds.greater) return;
  const std::size_t k = index.num_classes();
  const auto& values = index.sorted_values(a);
  const auto& classes = index.sorted_classes(a);
  const auto& weights = index.sorted_weights(a);
  const auto& sorted = index.sorted_rows(a);
  // The covered non-missing rows in value order, gathered into contiguous (value, class, weight) arrays:
  // by sorting their ranks when they are few, else by filtering the whole order with the coverage bitset.
  const bool unit = index.unit_weights();
  auto& vals = sc.values;
  auto& cls = sc.classes;
  auto& wts = sc.weights;
  std::size_t m = 0;
  const double n = static_cast<double>(rule.rows->size());
  if (n * (std::log2(n + 1) + 1) < static_cast<double>(sorted.size()) / 2) {
    auto& pos = sc.positions;
    pos.clear();
    const auto& rank = index.rank(a);
    for (std::uint32_t r : *rule.rows)
      if (rank[r] != UINT32_MAX) pos.push_back(rank[r]);
    std::sort(pos.begin(), pos.end());
    m = pos.size();
    vals.resize(m);
    cls.resize(m);
    if (!unit) wts.resize(m);
    for (std::size_t j = 0; j < m; ++j) {
      vals[j] = values[pos[j]];
      cls[j] = classes[pos[j]];
      if (!unit) wts[j] = weights[pos[j]];
    }
  } else {
    // Branch-free: coverage near one half would make a branch here mispredict constantly.
    const std::uint64_t* cov = rule.covered->data();
    const std::size_t total_rows = sorted.size();
    vals.resize(total_rows);
    cls.resize(total_rows);
    if (!unit) wts.resize(total_rows);
    for (std::size_t i = 0; i < total_rows; ++i) {
      const std::uint32_t r = sorted[i];
      vals[m] = values[i];
      cls[m] = classes[i];
      if (!unit) wts[m] = weights[i];
      m += (cov[r >> 6] >> (r & 63)) & 1U;
    }
  }
  if (m < 2) return;
  auto weight = [&](std::size_t j) { return unit ? 1.0 : wts[j]; };
  sc.total.assign(k, 0.0);
  for (std::size_t j = 0; j < m; ++j) sc.total[cls[j]] += weight(j);
  sc.cum.assign(k, 0.0);
  sc.other.assign(k, 0.0);
  // Label of a row for the boundary test: its class, or with a target whether it is the target.
  auto label = [&](std::size_t j) { return target < 0 ? cls[j] : static_cast<int>(cls[j] == target); };
  int prev_pure = -2;  // label of the previous group if pure, -1 if mixed, -2 before the first group
  double prev_value = 0;
  for (std::size_t i = 0; i < m;) {
    const double v = vals[i];
    const int first = label(i);
    int pure = first;
    std::size_t j = i;
    for (; j < m && vals[j] == v; ++j) {
      if (label(j) != first) pure = -1;
    }
    if (prev_pure != -2 && !(prev_pure >= 0 && prev_pure == pure)) {
      double t = prev_value + (v - prev_value) / 2;
      if (!(t < v)) t = prev_value;  // adjacent doubles: the midpoint rounds up to v
      if (kinds.less_equal) sink(Condition{a, Op::le, 0, t}, sc.cum.data(), i);
      if (kinds.greater) {
        for (std::size_t c = 0; c < k; ++c) sc.other[c] = sc.total[c] - sc.cum[c];
        sink(Condition{a, Op::gt, 0, t}, sc.other.data(), m - i);
      }
    }
    for (std::size_t q = i; q < j; ++q) sc.cum[cls[q]] += weight(q);
    prev_pure = pure;
    prev_value = v;
    i = j;
  }
}

}  // namespace detail

// Calls sink(condition, class_counts, rows) for every admissible condition on `attribute` over the rule's
// covered rows. `target` < 0: boundaries between classes; otherwise between target and other classes.
template <class Sink>
void evaluate_attribute(const CoverageIndex& index, const RuleCoverage& rule, int attribute, RefinementKinds kinds,
                        int target, RefinementScratch& scratch, Sink&& sink) {
  if (index.data().attribute(attribute).is_nominal())
    detail::evaluate_nominal(index, rule, attribute, kinds, scratch, sink);
  else
    detail::evaluate_numeric(index, rule, attribute, kinds, target, scratch, sink);
}

}  // namespace candor
