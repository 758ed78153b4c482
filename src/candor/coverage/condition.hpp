#pragma once
// A single test on one attribute. A missing value satisfies no condition.
#include <cmath>
#include <string>
#include <vector>

#include "candor/data/dataset.hpp"

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

}  // namespace candor
