#include <cmath>

#include "candor/evc/rule_correction.hpp"
#include "candor/quality/measures.hpp"

namespace candor::measures {

namespace {
// Whether the rule's LRS is certainly below the median of its law, so that 2 P_a >= 1 and EVC corrects it to
// the prior (or leaves it at or below the prior): then neither evc nor m-evc scores it above P/N.
bool corrected_to_prior(const RuleStats& r, const EvcCalibration& calibration) {
  const double median = calibration.law(r.target, r.length).median();
  const double below = median - 1e-9 * (1.0 + std::abs(median));
  return likelihood_ratio_certainly_below(r.s(), r.n, r.p_total(), r.n_total, below);
}
// The prior with room for the rounding of e_s / n.
double prior_bound(const RuleStats& r) { return r.p_total() / r.n_total * (1.0 + 1e-12); }
}  // namespace

bool Evc::may_reach(const RuleStats& r, double bar) const {
  if (quick_bound(r) < bar) return false;
  return !(prior_bound(r) < bar && corrected_to_prior(r, *calibration));
}

bool MEvc::may_reach(const RuleStats& r, double bar) const {
  if (quick_bound(r) < bar) return false;
  return !(prior_bound(r) < bar && corrected_to_prior(r, *calibration));
}

double Evc::evaluate(const RuleStats& r) const {
  return evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
}

double MEvc::evaluate(const RuleStats& r) const {
  const double corrected = evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
  return r.n + m > 0 ? (corrected * r.n + m * r.p_total() / r.n_total) / (r.n + m) : 0.0;
}

}  // namespace candor::measures
