#include "candor/quality/measures.hpp"

namespace candor::measures {

// Cestnik (1990): the prior P/N is that of the examples the search runs on.
double MEstimate::value(const RuleStats& r, double s, double n) const {
  double prior = r.p_total() / r.n_total;
  if (n + m == 0) return prior;
  return (s + m * prior) / (n + m);
}

}  // namespace candor::measures

template class candor::ScoredBySAndN<candor::measures::MEstimate>;
