#include "candor/pril/categories.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/coverage/condition.hpp"

namespace candor {

int Categories::of(const Dataset& d, std::size_t a, std::size_t row) const {
  if (d.attribute(a).is_nominal()) return d.columns[a].codes[row];
  const double x = d.columns[a].values[row];
  if (std::isnan(x)) return -1;
  return static_cast<int>(std::lower_bound(cuts[a].begin(), cuts[a].end(), x) - cuts[a].begin());
}

std::string Categories::describe(std::size_t a, int c, const Schema& schema) const {
  const Attribute& attr = schema.attributes[a];
  if (attr.is_nominal()) return attr.name + " = " + attr.values[c];
  const auto& v = cuts[a];
  if (v.empty()) return attr.name + " is known";
  if (c == 0) return attr.name + " <= " + format_number(v[0]);
  if (c == static_cast<int>(v.size())) return attr.name + " > " + format_number(v.back());
  return format_number(v[c - 1]) + " < " + attr.name + " <= " + format_number(v[c]);
}

nlohmann::json Categories::to_json() const { return cuts; }

Categories Categories::from_json(const nlohmann::json& j, const Schema& schema) {
  Categories c;
  c.cuts = j.get<std::vector<std::vector<double>>>();
  if (c.cuts.size() != schema.attributes.size()) throw std::invalid_argument("cuts need one entry per attribute");
  for (std::size_t a = 0; a < c.cuts.size(); ++a) {
    const auto& v = c.cuts[a];
    if (schema.attributes[a].is_nominal() && !v.empty()) throw std::invalid_argument("a nominal attribute has no cuts");
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i]) || (i > 0 && !(v[i] > v[i - 1])))
        throw std::invalid_argument("cuts must be finite and ascending");
    c.count.push_back(schema.attributes[a].is_nominal() ? static_cast<int>(schema.attributes[a].values.size())
                                                        : static_cast<int>(v.size()) + 1);
  }
  return c;
}

Categories categorise(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                      int bins) {
  Categories c;
  c.cuts.resize(d.num_attributes());
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    if (d.attribute(a).is_nominal()) {
      c.count.push_back(static_cast<int>(d.attribute(a).values.size()));
      continue;
    }
    std::vector<std::pair<double, double>> known;  // value, weight
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double x = d.columns[a].values[rows[k]];
      if (!std::isnan(x) && weights[k] > 0) known.emplace_back(x, weights[k]);
    }
    std::sort(known.begin(), known.end());
    const double total =
        std::accumulate(known.begin(), known.end(), 0.0, [](double s, const auto& p) { return s + p.second; });
    auto& cuts = c.cuts[a];
    double cumulative = 0;
    std::size_t i = 0;
    for (int b = 1; b < bins && !known.empty(); ++b) {
      const double target = total * b / bins;
      while (i < known.size() && cumulative + known[i].second < target - 1e-12 * total) cumulative += known[i++].second;
      if (i >= known.size()) break;
      const double cut = known[i].first;  // the b-th quantile: the first value reaching b/bins of the weight
      if (cut < known.back().first && (cuts.empty() || cut > cuts.back())) cuts.push_back(cut);
    }
    c.count.push_back(static_cast<int>(cuts.size()) + 1);
  }
  return c;
}

}  // namespace candor
