#pragma once
// Rows that a logistic model over rules alone cannot tell apart: of one class and covered by the same rules.
// Such rows enter its loss alike, so each pattern of them can stand for its rows with their summed weight:
// the objective is the same sum with its terms grouped, and a solver's passes cost the patterns instead of
// the rows. Patterns are sums that merge, which a fit over rows held in parts needs.
#include <cstdint>
#include <vector>

namespace candor {

struct RowPatterns {
  std::vector<int> y;                               // per pattern: its class
  std::vector<double> w;                            // per pattern: the summed weight of its rows
  std::vector<std::vector<std::uint32_t>> covered;  // per rule: the patterns it covers, ascending
  std::vector<std::uint32_t> of_row;                // per row: its pattern
};

// The patterns of rows with classes `y` (each >= 0) and weights `w`, `covered` holding each rule's rows
// (ascending); patterns are numbered by their first row, and each one's weight is summed in row order. Found
// by refining a partition of the rows, by class and then by each rule's rows in turn: exact, with no hashing.
RowPatterns row_patterns(const std::vector<int>& y, const std::vector<double>& w,
                         const std::vector<std::vector<std::uint32_t>>& covered);

}  // namespace candor
