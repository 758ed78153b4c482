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

}  // namespace candor
