#include "candor/pril/subset_elimination.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "candor/pril/reliability.hpp"

namespace candor {

namespace {

// The value combination of a row as one number; -1 when any value is missing.
std::int64_t combination(const std::vector<std::vector<int>>& codes, const std::vector<int>& categories,
                         const std::vector<int>& attributes, std::size_t row) {
  std::int64_t key = 0;
  for (int a : attributes) {
    const int c = codes[a][row];
    if (c < 0) return -1;
    key = key * categories[a] + c;
  }
  return key;
}

std::vector<int> values_of(std::int64_t key, const std::vector<int>& categories, const std::vector<int>& attributes) {
  std::vector<int> v(attributes.size());
  for (std::size_t i = attributes.size(); i-- > 0;) {
    v[i] = static_cast<int>(key % categories[attributes[i]]);
    key /= categories[attributes[i]];
  }
  return v;
}

std::vector<RuleCounts> counts_of(const PrilRuleSet& s) {
  std::vector<RuleCounts> out;
  for (const auto& r : s.rules) out.push_back({r.covered, r.correct, r.reliability});
  return out;
}

// Whether a rule set of tail (1 - S) a_tail and statistic a_x2 is more significant than one of b_tail, b_x2:
// smaller tail, then larger X^2.
bool more_significant(double a_tail, double a_x2, double b_tail, double b_x2) {
  if (a_tail != b_tail) return a_tail < b_tail;
  return a_x2 > b_x2;
}

}  // namespace

PrilRuleSet build_rule_set(const std::vector<std::vector<int>>& codes, const std::vector<int>& categories,
                           const std::vector<int>& y, const std::vector<double>& weights,
                           const std::vector<std::size_t>& rows, const std::vector<int>& attributes,
                           std::size_t classes, const std::vector<double>& levels, double min_cases, double alpha) {
  PrilRuleSet set;
  set.attributes = attributes;
  std::vector<std::int64_t> keys;
  std::vector<std::vector<double>> counts;
  std::int64_t combinations = 1;
  for (int a : attributes) combinations *= categories[a];
  if (combinations <= 4096) {
    // Few combinations (the common case: quartiles, short nominal lists): a dense table, no hashing.
    std::vector<double> table(static_cast<std::size_t>(combinations) * classes, 0.0);
    std::vector<char> seen(static_cast<std::size_t>(combinations), 0);
    for (std::size_t row : rows) {
      const std::int64_t key = combination(codes, categories, attributes, row);
      if (key < 0) continue;
      seen[key] = 1;
      table[static_cast<std::size_t>(key) * classes + y[row]] += weights[row];
    }
    for (std::int64_t key = 0; key < combinations; ++key)
      if (seen[key]) {
        keys.push_back(key);
        counts.emplace_back(table.begin() + key * static_cast<std::int64_t>(classes),
                            table.begin() + (key + 1) * static_cast<std::int64_t>(classes));
      }
  } else {
    std::unordered_map<std::int64_t, std::size_t> index;
    for (std::size_t row : rows) {
      const std::int64_t key = combination(codes, categories, attributes, row);
      if (key < 0) continue;
      auto [it, fresh] = index.emplace(key, keys.size());
      if (fresh) {
        keys.push_back(key);
        counts.emplace_back(classes, 0.0);
      }
      counts[it->second][y[row]] += weights[row];
    }
  }
  // Rules in the order of their value combinations, so that the model does not depend on the row order.
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  for (std::size_t i : order) {
    const auto& c = counts[i];
    double f = 0;
    for (double v : c) f += v;
    if (!(f > min_cases)) continue;
    int best = -1;
    for (std::size_t k = 0; k < classes; ++k) {
      // A share at or below r cannot be significantly above it at alpha < 1/2 (the binomial's median is
      // floor or ceil of r f): skip the exact test.
      if (!(c[k] > levels[k] * f) && alpha < 0.5) continue;
      if (c[k] > 0 && holds_reliability(c[k], f, levels[k], alpha) && (best < 0 || c[k] > c[best]))
        best = static_cast<int>(k);
    }
    if (best < 0) continue;
    set.rules.push_back({values_of(keys[i], categories, attributes), best, levels[best], f, c[best]});
  }
  set.significance = rule_set_significance(counts_of(set));
  return set;
}

std::vector<PrilRuleSet> eliminate_subsets(const std::vector<std::vector<int>>& codes,
                                           const std::vector<int>& categories, const std::vector<int>& y,
                                           const std::vector<double>& weights, const std::vector<std::size_t>& rows,
                                           const std::vector<int>& attributes, std::size_t classes,
                                           const PrilSettings& settings) {
  std::vector<PrilRuleSet> posted;
  std::vector<std::size_t> left;
  for (std::size_t r : rows)
    if (weights[r] > 0) left.push_back(r);
  const int steps = static_cast<int>(settings.levels.size());
  for (int step = 0; step <= steps && !left.empty(); ++step) {
    if (step == steps && !settings.n_option) break;
    const auto& levels = settings.levels[std::min(step, steps - 1)];
    const double min_cases = step == steps ? 0.0 : settings.min_cases;
    while (!left.empty()) {
      PrilRuleSet best;
      double best_tail = 2, best_x2 = 0;
      for (int m = 1; m <= settings.max_attributes && best.rules.empty(); ++m) {
        // Every combination of m attributes, in order.
        std::vector<int> pick(m);
        for (int i = 0; i < m; ++i) pick[i] = i;
        const int n = static_cast<int>(attributes.size());
        while (m <= n) {
          std::vector<int> attrs(m);
          for (int i = 0; i < m; ++i) attrs[i] = attributes[pick[i]];
          PrilRuleSet s =
              build_rule_set(codes, categories, y, weights, left, attrs, classes, levels, min_cases, settings.alpha);
          if (!s.rules.empty()) {
            const auto rc = counts_of(s);
            const double tail = rule_set_tail(rc), x2 = rule_set_statistic(rc);
            if (best.rules.empty() || more_significant(tail, x2, best_tail, best_x2)) {
              best = std::move(s);
              best_tail = tail;
              best_x2 = x2;
            }
          }
          int i = m - 1;
          while (i >= 0 && pick[i] == n - m + i) --i;
          if (i < 0) break;
          ++pick[i];
          for (int j = i + 1; j < m; ++j) pick[j] = pick[j - 1] + 1;
        }
      }
      if (best.rules.empty()) break;
      best.step = step;
      // Eliminate the cases its rules cover.
      std::unordered_map<std::int64_t, bool> covered;
      for (const auto& r : best.rules) {
        std::int64_t key = 0;
        for (std::size_t i = 0; i < r.values.size(); ++i) key = key * categories[best.attributes[i]] + r.values[i];
        covered[key] = true;
      }
      std::vector<std::size_t> rest;
      for (std::size_t r : left)
        if (!covered.count(combination(codes, categories, best.attributes, r))) rest.push_back(r);
      left = std::move(rest);
      posted.push_back(std::move(best));
    }
  }
  return posted;
}

}  // namespace candor
