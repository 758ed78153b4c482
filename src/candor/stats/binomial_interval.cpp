#include "candor/stats/binomial_interval.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <stdexcept>

namespace candor {

std::pair<double, double> clopper_pearson(double s, double n, double confidence) {
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence must lie in (0, 1)");
  if (!(n > 0)) return {0.0, 1.0};
  s = std::clamp(s, 0.0, n);
  using boost::math::binomial_distribution;
  const double alpha = (1 - confidence) / 2;  // each tail
  const double lo = binomial_distribution<>::find_lower_bound_on_p(n, s, alpha);
  const double hi = binomial_distribution<>::find_upper_bound_on_p(n, s, alpha);
  return {lo, hi};
}

}  // namespace candor
