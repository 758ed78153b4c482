#include "candor/coverage/condition.hpp"

#include <algorithm>
#include <charconv>

namespace candor {

const char* op_symbol(Op op) {
  switch (op) {
    case Op::eq: return "=";
    case Op::ne: return "!=";
    case Op::le: return "<=";
    case Op::gt: return ">";
  }
  return "?";
}

std::string format_number(double x) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, ptr);
}

std::optional<double> shortest_decimal_in(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || a > b) return std::nullopt;
  // Powers of ten up to 1e22 are exact doubles, so q * 10^k and q / 10^k (q an integer below 2^53) are the
  // correctly rounded values of the decimals they stand for.
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const double mid = a + (b - a) / 2;
  const double span = std::max(std::fabs(a), std::fabs(b));
  int k = span > 0 ? static_cast<int>(std::floor(std::log10(span))) + 1 : 0;
  k = std::min(k, 22);
  for (; k >= -22; --k) {
    // The multiple of 10^k nearest the middle: if any multiple lies in [a, b], that one does.
    const double scaled = k >= 0 ? mid / kPow10[k] : mid * kPow10[-k];
    if (std::fabs(scaled) >= 1e15) return std::nullopt;  // more digits than the double holds
    const double q = std::round(scaled);                 // a tie goes away from zero: 2.5 in [2.175, 2.725], not 2.4
    const double x = k >= 0 ? q * kPow10[k] : q / kPow10[-k];
    if (x >= a && x <= b) return x == 0 ? 0.0 : x;  // no "-0"
  }
  return std::nullopt;
}

std::string describe(const Condition& c, const Schema& schema) {
  const Attribute& a = schema.attributes[c.attribute];
  std::string rhs = a.is_nominal() ? a.values[c.value] : format_number(c.threshold);
  return a.name + " " + op_symbol(c.op) + " " + rhs;
}

std::string describe_conditions(const std::vector<Condition>& conditions, const Schema& schema) {
  if (conditions.empty()) return "TRUE";
  std::string out;
  std::vector<char> written(conditions.size(), 0);
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    if (written[i]) continue;
    const Condition& c = conditions[i];
    std::string text;
    if (c.op == Op::le || c.op == Op::gt) {
      // The other side of the interval on the same attribute, if the rule has one.
      for (std::size_t j = i + 1; j < conditions.size() && text.empty(); ++j) {
        const Condition& d = conditions[j];
        if (written[j] || d.attribute != c.attribute || (d.op != Op::le && d.op != Op::gt) || d.op == c.op) continue;
        const Condition& lo = c.op == Op::gt ? c : d;
        const Condition& hi = c.op == Op::le ? c : d;
        text = format_number(lo.threshold) + " < " + schema.attributes[c.attribute].name +
               " <= " + format_number(hi.threshold);
        written[j] = 1;
      }
    }
    if (text.empty()) text = describe(c, schema);
    out += (out.empty() ? "" : " AND ") + text;
  }
  return out;
}

}  // namespace candor
