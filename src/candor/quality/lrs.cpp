#include <cmath>

#include "candor/quality/measures.hpp"

namespace candor {

namespace {
// x * ln(x / e), with the limit 0 at x = 0.
double xlogx_over(double x, double e) { return x > 0 ? x * std::log(x / e) : 0.0; }
}  // namespace

double likelihood_ratio_statistic(double s, double n, double p_total, double n_total) {
  if (n <= 0 || n >= n_total || p_total <= 0 || p_total >= n_total) return 0.0;
  const double prior = p_total / n_total;
  const double e_s = n * prior;
  if (s <= e_s) return 0.0;
  const double nc = n_total - n;  // uncovered examples
  const double sc = p_total - s;  // uncovered positives
  const double g = xlogx_over(s, e_s) + xlogx_over(n - s, n - e_s) + xlogx_over(sc, nc * prior) +
                   xlogx_over(nc - sc, nc * (1 - prior));
  return g > 0 ? 2.0 * g : 0.0;
}

namespace measures {
double LikelihoodRatio::evaluate(const RuleStats& r) const {
  return likelihood_ratio_statistic(r.s(), r.n, r.p_total(), r.n_total);
}
}  // namespace measures

}  // namespace candor
