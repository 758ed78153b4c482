#include "candor/evc/rule_correction.hpp"

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "candor/evc/general.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

EvcEstimate evc_correct(double s, double n, double p_total, double n_total, const GumbelLaw& law) {
  if (!(n > 0)) throw std::invalid_argument("evc_correct needs a rule that covers examples");
  EvcEstimate out;
  out.s = s;
  out.probability = s / n;
  const double e_s = n * p_total / n_total;
  out.lrs = likelihood_ratio_statistic(s, n, p_total, n_total);
  if (s <= e_s) return out;  // at or below the prior: not corrected

  out.log_p_a = law.log_upper_tail(out.lrs);
  out.p_a_s = std::min(1.0, std::exp(out.log_p_a + std::numbers::ln2));
  out.corrected_lrs = evc_corrected_statistic(out.lrs, law);

  if (out.corrected_lrs <= 0) {
    // Corrected to the prior itself. The probability is written as the prior, not as e_s / n, which can
    // round a unit in the last place above it and let a rule no better than the prior pass --stop prior.
    out.s = e_s;
    out.probability = p_total / n_total;
    return out;
  }
  if (out.corrected_lrs < out.lrs) {
    // LRS(x) rises from 0 at x = e_s to lrs at x = s.
    auto f = [&](double x) { return likelihood_ratio_statistic(x, n, p_total, n_total) - out.corrected_lrs; };
    boost::uintmax_t iterations = 100;
    auto root = boost::math::tools::toms748_solve(f, e_s, s, -out.corrected_lrs, out.lrs - out.corrected_lrs,
                                                  boost::math::tools::eps_tolerance<double>(44), iterations);
    out.s = (root.first + root.second) / 2;
  }
  // corrected_lrs >= lrs: the law says this length finds nothing this strong by chance; keep s.
  out.probability = out.s / n;
  return out;
}

double evc_corrected_statistic(double statistic, const GumbelLaw& law) {
  return chi2_upper_quantile_log(law.log_upper_tail(statistic) + std::numbers::ln2, 1.0);
}

}  // namespace candor
