#include <algorithm>
#include <cmath>
#include <string>

#include "candor/data.hpp"
#include "candor/data/quantiles.hpp"

namespace candor {

int Attribute::value_index(std::string_view value) const {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] == value) return static_cast<int>(i);
  return -1;
}

int Schema::attribute_index(std::string_view name) const {
  for (std::size_t i = 0; i < attributes.size(); ++i)
    if (attributes[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string invalid_rows(const Dataset& d) {
  const std::size_t n = d.rows();
  if (d.columns.size() != d.num_attributes()) return "a column per attribute";
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    const Attribute& attr = d.attribute(a);
    const std::string column = "column '" + attr.name + "': ";
    if (attr.is_nominal()) {
      const auto& codes = d.columns[a].codes;
      if (codes.size() != n) return column + "one code per row";
      const int values = static_cast<int>(attr.values.size());
      if (std::any_of(codes.begin(), codes.end(), [&](int v) { return v < kMissing || v > values; }))
        return column + "a code outside its values";
    } else {
      const auto& values = d.columns[a].values;
      if (values.size() != n) return column + "one value per row";
      if (std::any_of(values.begin(), values.end(), [](double x) { return std::isinf(x); }))
        return column + "infinite value";
    }
  }
  const int classes = static_cast<int>(d.num_classes());
  if (std::any_of(d.y.begin(), d.y.end(), [&](int c) { return c < kMissing || c >= classes; }))
    return "a class code outside the classes";
  if (d.weights.size() != n) return "one weight per row";
  if (std::any_of(d.weights.begin(), d.weights.end(), [](double w) { return !(w >= 0) || !std::isfinite(w); }))
    return "sample weights must be finite and non-negative";
  return {};
}

bool Dataset::unit_weights() const {
  for (double w : weights)
    if (w != 1.0) return false;
  return true;
}

std::vector<double> Dataset::class_totals() const {
  std::vector<double> totals(num_classes(), 0.0);
  for (std::size_t r = 0; r < rows(); ++r)
    if (y[r] != kMissing) totals[y[r]] += weights[r];
  return totals;
}

Dataset Dataset::subset(const std::vector<std::size_t>& rows) const {
  Dataset out;
  out.source = source;
  out.schema = schema;
  out.columns.resize(columns.size());
  for (std::size_t a = 0; a < columns.size(); ++a) {
    if (attribute(a).is_nominal()) {
      out.columns[a].codes.reserve(rows.size());
      for (auto r : rows) out.columns[a].codes.push_back(columns[a].codes[r]);
    } else {
      out.columns[a].values.reserve(rows.size());
      for (auto r : rows) out.columns[a].values.push_back(columns[a].values[r]);
    }
  }
  out.y.reserve(rows.size());
  out.weights.reserve(rows.size());
  out.lines.reserve(rows.size());
  for (auto r : rows) {
    out.y.push_back(y[r]);
    out.weights.push_back(weights[r]);
    out.lines.push_back(lines.empty() ? 0 : lines[r]);
  }
  return out;
}

double snap_to_grid(double t, const std::vector<double>& grid) {
  if (grid.empty()) return t;
  const auto above = std::lower_bound(grid.begin(), grid.end(), t);
  if (above == grid.begin()) return grid.front();
  if (above == grid.end()) return grid.back();
  const double hi = *above, lo = *(above - 1);
  return hi - t < t - lo ? hi : lo;
}

std::vector<std::vector<double>> quantile_grid(const Dataset& data, int quantiles) {
  std::vector<std::vector<double>> grid(data.num_attributes());
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    if (data.attribute(a).is_nominal()) continue;
    std::vector<double> known;
    for (double x : data.columns[a].values)
      if (!std::isnan(x)) known.push_back(x);
    if (known.empty()) continue;
    std::sort(known.begin(), known.end());
    const auto n = known.size();
    for (int k = 1; k < quantiles; ++k) {
      // rank ceil(k n / q), 1-based
      const std::size_t rank = (static_cast<std::size_t>(k) * n + static_cast<std::size_t>(quantiles) - 1) /
                               static_cast<std::size_t>(quantiles);
      const double v = known[std::max<std::size_t>(rank, 1) - 1];
      if (grid[a].empty() || grid[a].back() != v) grid[a].push_back(v);
    }
  }
  return grid;
}

}  // namespace candor
