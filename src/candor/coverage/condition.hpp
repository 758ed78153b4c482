#pragma once
// A single test on one attribute. A missing value satisfies no condition.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "candor/data.hpp"

namespace candor {

enum class Op : unsigned char { eq, ne, le, gt };

struct Condition {
  int attribute = 0;
  Op op = Op::eq;
  int value = 0;         // nominal value index (eq, ne)
  double threshold = 0;  // numeric threshold (le, gt)

  bool covers(const Dataset& d, std::size_t row) const {
    if (op == Op::eq || op == Op::ne) {
      int code = d.columns[attribute].codes[row];
      if (code == kMissing) return false;
      return op == Op::eq ? code == value : code != value;
    }
    double x = d.columns[attribute].values[row];
    if (std::isnan(x)) return false;
    return op == Op::le ? x <= threshold : x > threshold;
  }
  bool operator==(const Condition&) const = default;
};

// Which of the positions i in [base, end), at most 64, hold a row row(i) that satisfies c, a bit each from bit 0
// (as Condition::covers: a missing value satisfies nothing), with no branch on the data, so that the loop
// vectorises: a rule's rows found a word at a time (CoverageIndex::covered, covered_rows).
template <class Row>
std::uint64_t condition_bits(const Condition& c, const Dataset& d, std::size_t base, std::size_t end, Row&& row) {
  std::uint64_t bits = 0;
  const Column& column = d.columns[static_cast<std::size_t>(c.attribute)];
  switch (c.op) {
    case Op::eq:
      for (std::size_t i = base; i < end; ++i)
        bits |= static_cast<std::uint64_t>(column.codes[row(i)] == c.value) << (i - base);
      break;
    case Op::ne:
      for (std::size_t i = base; i < end; ++i) {
        const int code = column.codes[row(i)];
        bits |= static_cast<std::uint64_t>((code != kMissing) & (code != c.value)) << (i - base);
      }
      break;
    case Op::le:  // NaN fails both comparisons
      for (std::size_t i = base; i < end; ++i)
        bits |= static_cast<std::uint64_t>(column.values[row(i)] <= c.threshold) << (i - base);
      break;
    case Op::gt:
      for (std::size_t i = base; i < end; ++i)
        bits |= static_cast<std::uint64_t>(column.values[row(i)] > c.threshold) << (i - base);
      break;
  }
  return bits;
}

const char* op_symbol(Op op);
// "age <= 37.5", "outlook = sunny"
std::string describe(const Condition& c, const Schema& schema);
// A rule's conditions joined by " AND ", in their order, with a numeric attribute's A > lo and A <= hi
// written once as "lo < A <= hi" where the first of the two stands ("TRUE" for none). The text of rules in
// `candor rules`, the rule tables (Python's rules_) and the logistic model's rules.
std::string describe_conditions(const std::vector<Condition>& conditions, const Schema& schema);
// Shortest decimal text that reads back as exactly the same double.
std::string format_number(double x);
// The number of fewest significant digits in [a, b] (of several, the one nearest the middle; of two as
// near, the one further from zero), as the double nearest to it, so that format_number writes it in those
// digits: 2.5 in [2.175, 2.725], 300 in [270, 377], 0 in [-0.2, 0.3]. Nothing when a or b is not finite,
// a > b, or no decimal of at most 15 significant digits with an exponent in [-22, 22] lies in between
// (there the caller keeps its own number).
std::optional<double> shortest_decimal_in(double a, double b);

}  // namespace candor
