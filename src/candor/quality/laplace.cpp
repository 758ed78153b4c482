#include "candor/quality/measures.hpp"

namespace candor::measures {

// Clark and Boswell (1991): k is the number of classes, so an empty rule estimates 1/k.
double Laplace::value(const RuleStats& r, double s, double n) const {
  return (s + 1.0) / (n + static_cast<double>(r.classes()));
}

double Laplace::refinement_bound(const RuleStats& r) const {
  return (r.s() + 1.0) / (r.s() + static_cast<double>(r.classes()));
}

}  // namespace candor::measures

template class candor::ScoredBySAndN<candor::measures::Laplace>;
