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

SignificanceTest::SignificanceTest(std::span<const double> reference, double alpha)
    : reference_(reference.begin(), reference.end()) {
  if (alpha >= 1.0) {
    accept_all_ = true;
    return;
  }
  std::size_t k = 0;
  for (double c : reference)
    if (c > 0) ++k;
  if (k < 2) {
    reject_all_ = true;
    return;
  }
  boost::math::chi_squared dist(static_cast<double>(k - 1));
  critical_ = boost::math::quantile(boost::math::complement(dist, alpha));
}

bool SignificanceTest::passes(std::span<const double> covered) const {
  if (accept_all_) return true;
  if (reject_all_) return false;
  return cn2_significance_statistic(covered, reference_) > critical_;
}

bool cn2_significant(std::span<const double> covered, std::span<const double> reference, double alpha) {
  return SignificanceTest(reference, alpha).passes(covered);
}

}  // namespace candor
