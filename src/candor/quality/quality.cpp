#include <limits>
#include <stdexcept>

#include "candor/quality/measures.hpp"

namespace candor {

RuleStats make_rule_stats(std::span<const double> covered, std::span<const double> totals, int target, int length) {
  RuleStats r{covered, totals, target, length, 0.0, 0.0};
  for (double c : covered) r.n += c;
  for (double c : totals) r.n_total += c;
  return r;
}

double QualityMeasure::probability(const RuleStats& r) const { return r.n > 0 ? r.s() / r.n : 0.0; }

double QualityMeasure::refinement_bound(const RuleStats&) const { return std::numeric_limits<double>::infinity(); }
double QualityMeasure::quick_bound(const RuleStats&) const { return std::numeric_limits<double>::infinity(); }
bool QualityMeasure::evaluate_batch(const RuleStats&, std::span<const double>, std::span<const double>,
                                    std::span<double>) const {
  return false;
}
bool QualityMeasure::bound_batch(const RuleStats&, std::span<const double>, std::span<const double>,
                                 std::span<double>) const {
  return false;
}
bool QualityMeasure::box_may_reach(const RuleStats&, double, double, double) const { return true; }

}  // namespace candor
