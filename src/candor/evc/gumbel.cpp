#include "candor/evc/gumbel.hpp"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "candor/util/names.hpp"

namespace candor {
namespace {
constexpr double kFallbackBeta = 2.0;  // Gumbel scale of the maxima of chi2(1) variables
}

double GumbelLaw::log_upper_tail(double x) const {
  const double z = (x - mu) / beta;
  if (z < -30) return 0.0;  // exp(-exp(30)) underflows: the tail is 1 to double precision
  const double t = std::exp(-z);
  // 1 - exp(-t) = -expm1(-t); for z > 30, t < 1e-13 and -expm1(-t) = t (1 - t/2 + ...), so its log is
  // -z - t/2 to double precision, which stays finite where t itself underflows.
  if (z > 30) return -z - t / 2;
  return std::log(-std::expm1(-t));
}

double GumbelLaw::upper_tail(double x) const { return std::exp(log_upper_tail(x)); }

double GumbelLaw::median() const { return mu - beta * std::log(std::log(2.0)); }

GumbelLaw fit_gumbel(std::span<const double> maxima, GumbelFit method) {
  if (maxima.empty()) throw std::invalid_argument("fit_gumbel needs at least one maximum");
  const double n = static_cast<double>(maxima.size());
  double mean = 0;
  for (double x : maxima) mean += x;
  mean /= n;
  double var = 0;
  for (double x : maxima) var += (x - mean) * (x - mean);
  var = maxima.size() > 1 ? var / (n - 1) : 0.0;
  const double sd = std::sqrt(var);
  constexpr double euler = std::numbers::egamma_v<double>;

  const bool has_spread = sd > 1e-12 * std::max(1.0, std::abs(mean));
  double beta = kFallbackBeta;
  if (method != GumbelFit::fixed_beta && has_spread) beta = sd * std::sqrt(6.0) / std::numbers::pi;
  if (method != GumbelFit::maximum_likelihood || !has_spread) return GumbelLaw{mean - euler * beta, beta};

  // Maximum likelihood: beta solves beta = mean - sum x w / sum w with w = exp(-(x - max) / beta)
  // (shifted by the sample maximum so the weights cannot overflow); mu = -beta log(mean exp(-x / beta)).
  const double xmax = *std::max_element(maxima.begin(), maxima.end());
  auto score = [&](double b) {
    double sw = 0, sxw = 0;
    for (double x : maxima) {
      const double w = std::exp(-(x - xmax) / b);
      sw += w;
      sxw += x * w;
    }
    return b - mean + sxw / sw;
  };
  // The score is increasing in beta; bracket around the moments estimate.
  double lo = beta, hi = beta;
  for (int i = 0; i < 60 && score(lo) > 0; ++i) lo /= 2;
  for (int i = 0; i < 60 && score(hi) < 0; ++i) hi *= 2;
  if (score(lo) > 0 || score(hi) < 0) return GumbelLaw{mean - euler * beta, beta};  // keep moments
  boost::uintmax_t iterations = 200;
  auto root =
      boost::math::tools::toms748_solve(score, lo, hi, boost::math::tools::eps_tolerance<double>(48), iterations);
  beta = (root.first + root.second) / 2;
  double sw = 0;
  for (double x : maxima) sw += std::exp(-(x - xmax) / beta);
  const double mu = xmax - beta * std::log(sw / n);
  return GumbelLaw{mu, beta};
}

}  // namespace candor
