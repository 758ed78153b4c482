#include "candor/coverage/condition.hpp"

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
