#include "candor/evc/measures.hpp"

#include <cmath>
#include <numbers>

#include "candor/evc/rule_correction.hpp"

namespace candor::measures {

namespace {
// Whether the rule's LRS is certainly below the median of its law, so that 2 P_a >= 1 and EVC corrects it to
// the prior (or leaves it at or below the prior): then neither evc nor m-evc scores it above P/N.
bool corrected_to_prior(const RuleStats& r, const EvcCalibration& calibration) {
  const double median = calibration.law(r.target, r.length).median();
  const double below = median - 1e-9 * (1.0 + std::abs(median));
  return likelihood_ratio_certainly_below(r.s(), r.n, r.p_total(), r.n_total, below);
}
// Whether the corrected count s' is certainly below s_star for a rule above its law's median: the corrected
// LRS is at most -2 ln(2 P_a), since P(chi2(1) > q) <= exp(-q / 2), and LRS rises with the count above e_s,
// so s' < s_star once LRS(s_star) exceeds that bound. A few logarithms instead of a chi-squared quantile and
// a root.
bool corrected_below(const RuleStats& r, const EvcCalibration& calibration, double s_star) {
  const double s = r.s(), n = r.n, p = r.p_total(), total = r.n_total;
  const double e_s = n * p / total;
  if (!(s_star > e_s * (1.0 + 1e-12)) || !(s_star < s)) return false;
  double lrs = likelihood_ratio_bound(s, n, p, total);  // P_a falls with LRS: an upper bound is safe
  if (std::isinf(lrs)) lrs = likelihood_ratio_statistic(s, n, p, total) * (1.0 + 1e-12) + 1e-12;
  const double log_p = calibration.law(r.target, r.length).log_upper_tail(lrs) + std::numbers::ln2;
  if (log_p >= 0) return true;  // corrected to e_s < s_star
  return likelihood_ratio_statistic(s_star, n, p, total) > -2.0 * log_p * (1.0 + 1e-9) + 1e-9;
}
// The prior with room for the rounding of e_s / n.
double prior_bound(const RuleStats& r) { return r.p_total() / r.n_total * (1.0 + 1e-12); }

// Shared by evc and m-evc: `bound` is the measure's quick bound, `s_star` the corrected count below which
// it scores under the bar.
bool may_reach_corrected(const RuleStats& r, const EvcCalibration& calibration, double bound, double bar,
                         double s_star) {
  if (bound < bar) return false;
  if (!(prior_bound(r) < bar)) return true;
  return !corrected_to_prior(r, calibration) && !corrected_below(r, calibration, s_star);
}
}  // namespace

bool Evc::may_reach(const RuleStats& r, double bar) const {
  // s' / n < bar when s' < bar n (less a margin for the root's tolerance).
  return may_reach_corrected(r, *calibration, quick_bound(r), bar, bar * r.n * (1.0 - 1e-9));
}

bool MEvc::may_reach(const RuleStats& r, double bar) const {
  // (s' + m P/N) / (n + m) < bar when s' < bar (n + m) - m P/N (less a margin).
  const double s_star = bar * (r.n + m) * (1.0 - 1e-9) - m * r.p_total() / r.n_total;
  return may_reach_corrected(r, *calibration, quick_bound(r), bar, s_star);
}

double Evc::evaluate(const RuleStats& r) const {
  return evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
}

double MEvc::evaluate(const RuleStats& r) const {
  const double corrected =
      evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
  if (!(r.n + m > 0)) return 0.0;
  // The prior plus the shrunk excess, rather than (s' + m P / N) / (n + m): that rounds a rule corrected to
  // the prior (s' = n P / N) a unit in the last place above it, and --stop prior would keep it.
  const double prior = r.p_total() / r.n_total;
  return prior + (corrected - prior) * (r.n / (r.n + m));
}

}  // namespace candor::measures
