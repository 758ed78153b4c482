#include <cmath>

#include "candor/quality/measures.hpp"

namespace candor::measures {

// Clark and Niblett (1989): lower entropy of the covered class distribution is better, so the quality is
// its negation. It does not depend on the target; ordered CN2 predicts the majority class.
double Entropy::evaluate(const RuleStats& r) const {
  double n = r.n;
  if (n <= 0) return -std::log2(static_cast<double>(r.classes()));
  double h = 0;
  for (double c : r.covered)
    if (c > 0) h -= (c / n) * std::log2(c / n);
  return -h;
}

}  // namespace candor::measures
