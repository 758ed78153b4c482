#include "candor/data/dataset.hpp"

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

}  // namespace candor
