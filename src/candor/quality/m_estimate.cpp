#include "candor/quality/measures.hpp"

namespace candor::measures {

// Cestnik (1990): the prior P/N is that of the examples the search runs on.
double MEstimate::evaluate(const RuleStats& r) const {
  double prior = r.p_total() / r.n_total;
  double n = r.n;
  if (n + m == 0) return prior;
  return (r.s() + m * prior) / (n + m);
}

}  // namespace candor::measures
