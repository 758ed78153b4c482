#include "candor/quality/measures.hpp"

namespace candor::measures {

// Lavrac et al. (1999): coverage times the gain in precision over the prior.
double WRAcc::evaluate(const RuleStats& r) const {
  double n = r.n, total = r.n_total;
  if (n <= 0 || total <= 0) return 0.0;
  return (n / total) * (r.s() / n - r.p_total() / total);
}

}  // namespace candor::measures
