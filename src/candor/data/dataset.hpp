#pragma once
// The columnar data model every learner reads.
//
// Missing values: a nominal cell holds kMissing, a numeric cell holds NaN. A missing value satisfies no
// condition (neither A = v nor A != v, neither A <= t nor A > t), so a rule never fires on the strength of
// a value nobody observed. Example weights are non-negative and finite; unit weights are the default.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace candor {

inline constexpr int kMissing = -1;

enum class AttributeType { nominal, numeric };

struct Attribute {
  std::string name;
  AttributeType type = AttributeType::numeric;
  std::vector<std::string> values;  // declared nominal values, in declaration order

  bool is_nominal() const { return type == AttributeType::nominal; }
  // Index of a nominal value, or -1 when it is not declared.
  int value_index(std::string_view value) const;
};

// One input column. Exactly one of the two vectors is filled, by the attribute's type.
struct Column {
  std::vector<int> codes;      // nominal: value index or kMissing
  std::vector<double> values;  // numeric: value or NaN
};

// What a model needs to know about the data it was fitted on: input attributes and the class.
struct Schema {
  std::vector<Attribute> attributes;
  Attribute class_attribute;
  int attribute_index(std::string_view name) const;  // -1 when absent
};

struct Dataset {
  std::string source;  // file the data came from (for messages)
  Schema schema;
  std::vector<Column> columns;     // one per schema.attributes entry
  std::vector<int> y;              // class index per row; kMissing for unlabeled rows (prediction data)
  std::vector<double> weights;     // one per row
  std::vector<std::size_t> lines;  // source line of each row (for messages)
  // The text of each LoadOptions::key_columns column per row ("" where missing; numbers as the shortest
  // text that reads back the same): carried through prediction, never learned from.
  std::vector<std::vector<std::string>> keys;

  std::size_t rows() const { return y.size(); }
  std::size_t num_attributes() const { return schema.attributes.size(); }
  std::size_t num_classes() const { return schema.class_attribute.values.size(); }
  const Attribute& attribute(std::size_t a) const { return schema.attributes[a]; }
  bool is_missing(std::size_t a, std::size_t row) const {
    return attribute(a).is_nominal() ? columns[a].codes[row] == kMissing : std::isnan(columns[a].values[row]);
  }
  bool unit_weights() const;
  // Weighted count of each class over the rows.
  std::vector<double> class_totals() const;
  // The rows at the given indices, in that order.
  Dataset subset(const std::vector<std::size_t>& rows) const;
};

// The q-quantile grid of each numeric attribute of `data`: the values at ranks ceil(k n / q) of its sorted
// known values, k = 1 .. q-1, duplicates dropped (empty for nominal attributes and for numeric ones without
// a known value). SIRUS's grid (stability of rules, and thresholds of --stable-resamples).
std::vector<std::vector<double>> quantile_grid(const Dataset& data, int quantiles);
// The value of an attribute's grid nearest to threshold t (the lower one on a tie); t itself where the grid
// is empty. Rules are compared with their thresholds snapped so (stability, stable rules).
double snap_to_grid(double t, const std::vector<double>& grid);

}  // namespace candor
