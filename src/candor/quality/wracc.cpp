#include "candor/quality/measures.hpp"

namespace candor::measures {

// Lavrac et al. (1999): coverage times the gain in precision over the prior.
double WRAcc::value(const RuleStats& r, double s, double n) const {
  double total = r.n_total;
  if (n <= 0 || total <= 0) return 0.0;
  return (n / total) * (s / n - r.p_total() / total);
}

}  // namespace candor::measures

template class candor::ScoredBySAndN<candor::measures::WRAcc>;
