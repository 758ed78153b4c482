#include "candor/quality/measures.hpp"

namespace candor::measures {

double Precision::evaluate(const RuleStats& r) const {
  double n = r.n;
  return n > 0 ? r.s() / n : 0.0;
}

}  // namespace candor::measures
