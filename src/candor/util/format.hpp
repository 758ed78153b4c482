#pragma once
// Numbers as text for people: a fixed number of digits after the point.
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

}  // namespace candor
