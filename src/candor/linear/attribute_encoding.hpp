#pragma once
// Original attributes as the columns of a linear model.
//
// Policy, fitted on the training rows and their weights:
// - numeric: standardised, (x - mean) / sd with the weighted mean and standard deviation; a column that is
//   constant in training is left out;
// - nominal: one 0/1 column per declared value seen in training (no reference level: the L2 penalty makes
//   the weights unique); a value never seen in training has no column, so it contributes nothing;
// - missing: a missing numeric value counts as the training mean (0 after standardisation), a missing
//   nominal value as no value (all its columns 0); an attribute with missing values in training also gets
//   a 0/1 "missing" indicator column, so the model can learn what missingness itself says. A value missing
//   at prediction time where training had none is imputed the same way, without an indicator.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/data.hpp"

namespace candor {

struct EncodedColumn {
  enum class Kind { numeric, value, missing };
  int attribute = 0;
  Kind kind = Kind::numeric;
  int value = 0;     // Kind::value: the nominal value index
  double mean = 0;   // Kind::numeric
  double scale = 1;  // Kind::numeric: the standard deviation
};

struct AttributeEncoding {
  std::vector<EncodedColumn> columns;

  // Fits the policy above on `rows` of `d` (all rows when empty).
  static AttributeEncoding fit(const Dataset& d, const std::vector<std::size_t>& rows = {});
  std::size_t size() const { return columns.size(); }
  // The encoded value of column `c` for one row of data read against the training schema.
  double value(const Dataset& d, std::size_t row, std::size_t c) const;
  // A readable name: "age", "sex = male", "age missing".
  std::string name(std::size_t c, const Schema& schema) const;
  nlohmann::json to_json(const Schema& schema) const;
  // Throws std::invalid_argument naming what is wrong.
  static AttributeEncoding from_json(const nlohmann::json& j, const Schema& schema);
};

}  // namespace candor
