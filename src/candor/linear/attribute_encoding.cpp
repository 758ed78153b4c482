#include "candor/linear/attribute_encoding.hpp"

#include <cmath>
#include <stdexcept>

#include "candor/util/json_read.hpp"

namespace candor {

AttributeEncoding AttributeEncoding::fit(const Dataset& d, const std::vector<std::size_t>& given) {
  std::vector<std::size_t> rows = given;
  if (rows.empty())
    for (std::size_t r = 0; r < d.rows(); ++r) rows.push_back(r);
  AttributeEncoding e;
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    const int ai = static_cast<int>(a);
    bool any_missing = false;
    if (d.attribute(a).is_nominal()) {
      std::vector<double> seen(d.attribute(a).values.size(), 0.0);
      for (auto r : rows) {
        const int v = d.columns[a].codes[r];
        if (v == kMissing)
          any_missing = true;
        else
          seen[static_cast<std::size_t>(v)] += 1;
      }
      for (std::size_t v = 0; v < seen.size(); ++v)
        if (seen[v] > 0) e.columns.push_back({ai, EncodedColumn::Kind::value, static_cast<int>(v), 0, 1});
    } else {
      double w = 0, sum = 0;
      for (auto r : rows) {
        const double x = d.columns[a].values[r];
        if (std::isnan(x)) {
          any_missing = true;
          continue;
        }
        w += d.weights[r];
        sum += d.weights[r] * x;
      }
      if (w > 0) {
        const double mean = sum / w;
        double ss = 0;
        for (auto r : rows) {
          const double x = d.columns[a].values[r];
          if (!std::isnan(x)) ss += d.weights[r] * (x - mean) * (x - mean);
        }
        const double sd = std::sqrt(ss / w);
        if (sd > 0) e.columns.push_back({ai, EncodedColumn::Kind::numeric, 0, mean, sd});
      }
    }
    if (any_missing) e.columns.push_back({ai, EncodedColumn::Kind::missing, 0, 0, 1});
  }
  return e;
}

double AttributeEncoding::value(const Dataset& d, std::size_t row, std::size_t c) const {
  const EncodedColumn& col = columns[c];
  const auto a = static_cast<std::size_t>(col.attribute);
  switch (col.kind) {
    case EncodedColumn::Kind::numeric: {
      const double x = d.columns[a].values[row];
      return std::isnan(x) ? 0.0 : (x - col.mean) / col.scale;
    }
    case EncodedColumn::Kind::value: return d.columns[a].codes[row] == col.value ? 1.0 : 0.0;
    case EncodedColumn::Kind::missing: return d.is_missing(a, row) ? 1.0 : 0.0;
  }
  return 0.0;
}

std::string AttributeEncoding::name(std::size_t c, const Schema& schema) const {
  const EncodedColumn& col = columns[c];
  const Attribute& a = schema.attributes[static_cast<std::size_t>(col.attribute)];
  switch (col.kind) {
    case EncodedColumn::Kind::numeric: return a.name;
    case EncodedColumn::Kind::value: return a.name + " = " + a.values[static_cast<std::size_t>(col.value)];
    case EncodedColumn::Kind::missing: return a.name + " missing";
  }
  return a.name;
}

nlohmann::json AttributeEncoding::to_json(const Schema& schema) const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& col : columns) {
    const Attribute& a = schema.attributes[static_cast<std::size_t>(col.attribute)];
    nlohmann::json j{{"attribute", a.name}};
    if (col.kind == EncodedColumn::Kind::numeric) {
      j["kind"] = "standardised";
      j["mean"] = col.mean;
      j["sd"] = col.scale;
    } else if (col.kind == EncodedColumn::Kind::value) {
      j["kind"] = "value";
      j["value"] = a.values[static_cast<std::size_t>(col.value)];
    } else {
      j["kind"] = "missing";
    }
    out.push_back(j);
  }
  return out;
}

AttributeEncoding AttributeEncoding::from_json(const nlohmann::json& j, const Schema& schema) {
  AttributeEncoding e;
  for (const auto& cj : j) {
    EncodedColumn col;
    const std::string name = cj.at("attribute").get<std::string>();
    col.attribute = schema.attribute_index(name);
    if (col.attribute < 0) throw std::invalid_argument("attribute column of unknown attribute '" + name + "'");
    const Attribute& a = schema.attributes[static_cast<std::size_t>(col.attribute)];
    const std::string kind = cj.at("kind").get<std::string>();
    const bool standardised = kind == "standardised";
    check_known_entries(
        cj, {{"attribute"}, {"kind"}, {"mean", standardised}, {"sd", standardised}, {"value", kind == "value"}});
    if (kind == "standardised") {
      if (a.is_nominal()) throw std::invalid_argument("nominal attribute '" + name + "' cannot be standardised");
      col.kind = EncodedColumn::Kind::numeric;
      col.mean = cj.at("mean").get<double>();
      col.scale = cj.at("sd").get<double>();
      if (!(col.scale > 0) || !std::isfinite(col.mean))
        throw std::invalid_argument("attribute column '" + name + "' needs a finite mean and a positive sd");
    } else if (kind == "value") {
      if (!a.is_nominal()) throw std::invalid_argument("numeric attribute '" + name + "' has no values");
      col.kind = EncodedColumn::Kind::value;
      col.value = a.value_index(cj.at("value").get<std::string>());
      if (col.value < 0) throw std::invalid_argument("unknown value " + cj.at("value").dump() + " of '" + name + "'");
    } else if (kind == "missing") {
      col.kind = EncodedColumn::Kind::missing;
    } else {
      throw std::invalid_argument("unknown attribute column kind '" + kind + "'");
    }
    e.columns.push_back(col);
  }
  return e;
}

}  // namespace candor
