#include "candor/quality/significance.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

namespace candor {

double cn2_significance_statistic(std::span<const double> covered, std::span<const double> reference) {
  double n = 0, ref = 0;
  for (double c : covered) n += c;
  for (double c : reference) ref += c;
  if (n <= 0 || ref <= 0) return 0.0;
  double g = 0;
  for (std::size_t c = 0; c < covered.size(); ++c) {
    if (covered[c] <= 0) continue;
    double e = n * reference[c] / ref;
    if (e <= 0) return INFINITY;  // a class the reference never has: infinitely surprising
    g += covered[c] * std::log(covered[c] / e);
  }
  return 2.0 * g;
}

bool cn2_significant(std::span<const double> covered, std::span<const double> reference, double alpha) {
  if (alpha >= 1.0) return true;
  std::size_t k = 0;
  for (double c : reference)
    if (c > 0) ++k;
  if (k < 2) return false;
  boost::math::chi_squared dist(static_cast<double>(k - 1));
  double critical = boost::math::quantile(boost::math::complement(dist, alpha));
  return cn2_significance_statistic(covered, reference) > critical;
}

}  // namespace candor
