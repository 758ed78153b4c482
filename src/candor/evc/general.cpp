#include "candor/evc/general.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "candor/util/parallel.hpp"

namespace candor {

double chi2_upper_quantile_log(double log_p, double df) {
  if (!(df > 0)) throw std::invalid_argument("chi-squared degrees of freedom must be positive");
  if (log_p >= 0) return 0.0;
  if (log_p > std::log(DBL_MIN)) {
    boost::math::chi_squared_distribution<double> chi2(df);
    return boost::math::quantile(boost::math::complement(chi2, std::exp(log_p)));
  }
  // P(chi2(df) > x) = Q(a, y) with a = df/2, y = x/2; for y far beyond a,
  // Q(a, y) = y^(a-1) e^(-y) / Gamma(a) * (1 + (a-1)/y + (a-1)(a-2)/y^2 + ...). Here log_p < -708, so
  // y > 700 and three terms are exact to double precision for small df.
  const double a = df / 2;
  const double lg = boost::math::lgamma(a);
  auto log_tail = [&](double y) {
    const double series = 1 + (a - 1) / y + (a - 1) * (a - 2) / (y * y);
    return (a - 1) * std::log(y) - y - lg + std::log(series) - log_p;
  };
  double lo = -log_p / 2, hi = -log_p * 2 + 10 * a + 10;
  while (log_tail(lo) < 0) lo /= 2;
  while (log_tail(hi) > 0) hi *= 2;
  boost::uintmax_t iterations = 200;
  auto root =
      boost::math::tools::toms748_solve(log_tail, lo, hi, boost::math::tools::eps_tolerance<double>(50), iterations);
  return root.first + root.second;  // x = 2y, with y the bracket's midpoint
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (i + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<double> permutation_maxima(const BestOnPermuted& best_on_permuted, int permutations, std::uint64_t seed,
                                       int threads) {
  if (permutations < 1) throw std::invalid_argument("at least one permutation is needed");
  std::vector<double> maxima(static_cast<std::size_t>(permutations));
  parallel_for(maxima.size(), threads, [&](std::size_t i) {
    Rng rng(stream_seed(seed, i));
    maxima[i] = best_on_permuted(rng);
  });
  return maxima;
}

double evc_correct_chi2(double q_max, const GumbelLaw& law, double df) {
  return chi2_upper_quantile_log(law.log_upper_tail(q_max), df);
}

double pearson_chi2_2x2(const std::array<double, 4>& t) {
  const double n = t[0] + t[1] + t[2] + t[3];
  const double r0 = t[0] + t[1], r1 = t[2] + t[3], c0 = t[0] + t[2], c1 = t[1] + t[3];
  if (n <= 0 || r0 <= 0 || r1 <= 0 || c0 <= 0 || c1 <= 0) return 0.0;
  const double e[4] = {r0 * c0 / n, r0 * c1 / n, r1 * c0 / n, r1 * c1 / n};
  double chi2 = 0;
  for (int i = 0; i < 4; ++i) chi2 += (t[i] - e[i]) * (t[i] - e[i]) / e[i];
  return chi2;
}

PessimisticCorrection pessimistic_chi2_correction(const std::array<double, 4>& table, double permuted_mean) {
  for (double v : table)
    if (!(v >= 0)) throw std::invalid_argument("contingency counts must be non-negative");
  if (!(permuted_mean >= 0)) throw std::invalid_argument("the permuted mean must be non-negative");
  const double n1 = table[0] + table[2], n2 = table[1] + table[3];
  if (n1 <= 0 || n2 <= 0) throw std::invalid_argument("both classes need examples");
  PessimisticCorrection out;
  boost::math::chi_squared_distribution<double> chi2(1.0);
  out.tail = boost::math::cdf(boost::math::complement(chi2, permuted_mean));
  // Work with the table oriented so that x = 0 leans to C1 (p_hat >= 1/2); mirror p0 back at the end.
  const bool mirrored = table[0] / n1 < table[1] / n2;
  const std::array<double, 4> t = mirrored ? std::array<double, 4>{table[2], table[3], table[0], table[1]} : table;
  auto expected = [&](double p0) { return std::array<double, 4>{n1 * p0, n2 * (1 - p0), n1 * (1 - p0), n2 * p0}; };
  auto fit_minus_mean = [&](double p0) {
    const auto e = expected(p0);
    double c = 0;
    for (int i = 0; i < 4; ++i) c += (t[i] - e[i]) * (t[i] - e[i]) / e[i];
    return c - permuted_mean;
  };
  // At p0 = 1/2 the fit is the observed chi2 (with balanced classes) and shrinks as p0 approaches the
  // observed strength; the table is pure at p0 = 1, so stop just short of it.
  const double hi_limit = 1 - 1e-9;
  double p_hat = std::min(hi_limit, (t[0] / n1 + t[3] / n2) / 2);
  double p0 = 0.5;
  if (fit_minus_mean(0.5) > 0) {
    if (fit_minus_mean(p_hat) > 0) {
      p0 = p_hat;
    } else {
      boost::uintmax_t iterations = 200;
      auto root = boost::math::tools::toms748_solve(fit_minus_mean, 0.5, p_hat,
                                                    boost::math::tools::eps_tolerance<double>(48), iterations);
      p0 = (root.first + root.second) / 2;
    }
  }
  out.p0 = mirrored ? 1 - p0 : p0;
  out.corrected = pearson_chi2_2x2(expected(p0));
  return out;
}

}  // namespace candor
