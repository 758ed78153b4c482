#include "candor/evc/rule_correction.hpp"
#include "candor/quality/measures.hpp"

namespace candor::measures {

double Evc::evaluate(const RuleStats& r) const {
  return evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
}

double MEvc::evaluate(const RuleStats& r) const {
  const double corrected = evc_correct(r.s(), r.n, r.p_total(), r.n_total, calibration->law(r.target, r.length)).probability;
  return r.n + m > 0 ? (corrected * r.n + m * r.p_total() / r.n_total) / (r.n + m) : 0.0;
}

}  // namespace candor::measures
