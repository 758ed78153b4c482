#include "candor/linear/row_patterns.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace candor {

RowPatterns row_patterns(const std::vector<int>& y, const std::vector<double>& w,
                         const std::vector<std::vector<std::uint32_t>>& covered) {
  const std::size_t n = y.size();
  if (w.size() != n) throw std::invalid_argument("row_patterns: a weight per row is needed");
  // Each row's group: first its class's, then split by each rule into the rows it covers and the others.
  std::vector<std::uint32_t> group(n);
  std::size_t groups = 0;
  std::vector<std::int64_t> to;
  for (std::size_t i = 0; i < n; ++i) {
    if (y[i] < 0) throw std::invalid_argument("row_patterns: a row without a class");
    const auto c = static_cast<std::size_t>(y[i]);
    if (c >= to.size()) to.resize(c + 1, -1);
    if (to[c] < 0) to[c] = static_cast<std::int64_t>(groups++);
    group[i] = static_cast<std::uint32_t>(to[c]);
  }
  for (const auto& rows : covered) {
    to.assign(groups, -1);
    for (std::uint32_t i : rows) {
      if (i >= n) throw std::invalid_argument("row_patterns: a rule's row out of range");
      auto& split = to[group[i]];
      if (split < 0) split = static_cast<std::int64_t>(groups++);
      group[i] = static_cast<std::uint32_t>(split);
    }
  }
  RowPatterns out;
  out.of_row.resize(n);
  to.assign(groups, -1);
  for (std::size_t i = 0; i < n; ++i) {
    auto& p = to[group[i]];
    if (p < 0) {
      p = static_cast<std::int64_t>(out.y.size());
      out.y.push_back(y[i]);
      out.w.push_back(0.0);
    }
    out.of_row[i] = static_cast<std::uint32_t>(p);
    out.w[static_cast<std::size_t>(p)] += w[i];
  }
  out.covered.resize(covered.size());
  std::vector<char> seen(out.y.size());
  for (std::size_t k = 0; k < covered.size(); ++k) {
    std::fill(seen.begin(), seen.end(), 0);
    for (std::uint32_t i : covered[k]) seen[out.of_row[i]] = 1;
    for (std::size_t p = 0; p < seen.size(); ++p)
      if (seen[p]) out.covered[k].push_back(static_cast<std::uint32_t>(p));
  }
  return out;
}

}  // namespace candor
