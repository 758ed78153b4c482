#pragma once
// The x ln x term of entropies, shared by the trees' split criteria (C4.5's gain ratio, the stumps' entropy).
#include <cmath>

namespace candor {

// x ln x, with 0 ln 0 = 0.
inline double xlogx(double x) { return x > 0 ? x * std::log(x) : 0.0; }

}  // namespace candor
