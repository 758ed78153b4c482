#pragma once
// A single test on one attribute. A missing value satisfies no condition.
#include <cmath>
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
