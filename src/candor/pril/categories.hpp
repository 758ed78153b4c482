#pragma once
// PrIL's categorisation (paper 004): every numeric attribute is cut once, before induction, into --bins
// categories of about equal training weight (4: at the quartiles), and the cuts are kept for the whole
// induction so that a range means the same in every rule. Nominal attributes keep their values. A missing
// value has no category (-1): it satisfies no rule on that attribute, and takes its own branch ("?") when
// the attribute is a branching attribute.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/data.hpp"

namespace candor {

struct Categories {
  // Per attribute: ascending cut points (numeric; category c holds cuts[c-1] < x <= cuts[c]), empty for
  // nominal attributes.
  std::vector<std::vector<double>> cuts;
  // Per attribute: the number of categories.
  std::vector<int> count;

  // The category of a row's value, -1 when missing.
  int of(const Dataset& d, std::size_t attribute, std::size_t row) const;
  // "age <= 31", "31 < age <= 45", "age > 58", "colour = red".
  std::string describe(std::size_t attribute, int category, const Schema& schema) const;
  nlohmann::json to_json() const;
  // Throws std::invalid_argument for cuts that do not fit `schema` (wrong count, unsorted, not finite).
  static Categories from_json(const nlohmann::json& j, const Schema& schema);
};

// Cuts every numeric attribute at the b/bins weighted quantiles (b = 1 .. bins-1) of its known values among
// `rows` (weights one per row); a cut that would leave a category empty (ties) is dropped.
Categories categorise(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                      int bins);

}  // namespace candor
