#pragma once
// Numbers as text for people: a fixed number of digits after the point.
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

namespace candor {

inline std::string fixed_digits(double x, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << x;
  return s.str();
}

// A count, or a sum of example weights: whole numbers without decimals ("12"), others with two ("2.50").
inline std::string count_text(double x) { return fixed_digits(x, x == std::floor(x) ? 0 : 2); }

// "1 rule", "0 rules", "12 rules": a whole count with its noun, plural by adding "s".
inline std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace candor
