#include "candor/search/refinements.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace candor {
namespace {

void evaluate_nominal(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds,
                      RefinementScratch& sc, const RefinementSink& sink) {
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
      sc.table[static_cast<std::size_t>(code) * k + d.y[r]] += d.weights[r];
      ++sc.row_counts[code];
    }
  }
  sc.total.assign(k, 0.0);
  std::size_t present_rows = 0;
  for (std::size_t v = 0; v < nv; ++v) {
    for (std::size_t c = 0; c < k; ++c) sc.total[c] += sc.table[v * k + c];
    present_rows += sc.row_counts[v];
  }
  sc.group.resize(k);
  for (std::size_t v = 0; v < nv; ++v) {
    if (kinds.equal && sc.row_counts[v] > 0)
      sink(Condition{a, Op::eq, static_cast<int>(v), 0.0}, &sc.table[v * k], sc.row_counts[v]);
    if (kinds.not_equal && sc.row_counts[v] > 0 && sc.row_counts[v] < present_rows) {
      for (std::size_t c = 0; c < k; ++c) sc.group[c] = sc.total[c] - sc.table[v * k + c];
      sink(Condition{a, Op::ne, static_cast<int>(v), 0.0}, sc.group.data(), present_rows - sc.row_counts[v]);
    }
  }
}

void evaluate_numeric(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds,
                      RefinementScratch& sc, const RefinementSink& sink) {
  if (!kinds.less_equal && !kinds.greater) return;
  const Dataset& d = index.data();
  const std::size_t k = index.num_classes();
  const auto& x = d.columns[a].values;
  const auto& sorted = index.sorted_rows(a);
  // The covered non-missing rows in value order: sort their global ranks when few, else filter the
  // global order by the coverage bitset.
  auto& order = sc.order;
  order.clear();
  const double n = static_cast<double>(rule.rows->size());
  if (n * (std::log2(n + 1) + 1) < static_cast<double>(sorted.size()) / 2) {
    const auto& rank = index.rank(a);
    for (std::uint32_t r : *rule.rows)
      if (rank[r] != UINT32_MAX) order.push_back(rank[r]);
    std::sort(order.begin(), order.end());
    for (auto& o : order) o = sorted[o];
  } else {
    for (std::uint32_t r : sorted)
      if (rule.covered->test(r)) order.push_back(r);
  }
  const std::size_t m = order.size();
  if (m < 2) return;
  sc.total.assign(k, 0.0);
  for (std::uint32_t r : order) sc.total[d.y[r]] += d.weights[r];
  sc.cum.assign(k, 0.0);
  sc.group.assign(k, 0.0);
  std::size_t cum_rows = 0;
  int prev_pure = -2;  // class of the previous group if it is pure, -1 if mixed, -2 before the first group
  double prev_value = 0;
  for (std::size_t i = 0; i < m;) {
    const double v = x[order[i]];
    int pure = d.y[order[i]];
    std::size_t j = i;
    for (; j < m && x[order[j]] == v; ++j)
      if (d.y[order[j]] != pure) pure = -1;
    if (prev_pure != -2 && !(prev_pure >= 0 && prev_pure == pure)) {
      double t = prev_value + (v - prev_value) / 2;
      if (!(t < v)) t = prev_value;  // adjacent doubles: the midpoint rounds up to v
      if (kinds.less_equal) sink(Condition{a, Op::le, 0, t}, sc.cum.data(), cum_rows);
      if (kinds.greater) {
        for (std::size_t c = 0; c < k; ++c) sc.group[c] = sc.total[c] - sc.cum[c];
        sink(Condition{a, Op::gt, 0, t}, sc.group.data(), m - cum_rows);
      }
    }
    for (std::size_t q = i; q < j; ++q) sc.cum[d.y[order[q]]] += d.weights[order[q]];
    cum_rows += j - i;
    prev_pure = pure;
    prev_value = v;
    i = j;
  }
}

}  // namespace

void evaluate_attribute(const CoverageIndex& index, const RuleCoverage& rule, int attribute, RefinementKinds kinds,
                        RefinementScratch& scratch, const RefinementSink& sink) {
  if (index.data().attribute(attribute).is_nominal())
    evaluate_nominal(index, rule, attribute, kinds, scratch, sink);
  else
    evaluate_numeric(index, rule, attribute, kinds, scratch, sink);
}

}  // namespace candor
