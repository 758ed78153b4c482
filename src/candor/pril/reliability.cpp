#include "candor/pril/reliability.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <stdexcept>

#include "candor/util/names.hpp"

namespace candor {

std::vector<double> reliability_levels(double minimum, const std::string& shape, int steps) {
  return reliability_levels(minimum, parse_named(kReliabilityShapeNames, "reliability shape", shape), steps);
}

std::vector<double> reliability_levels(double minimum, ReliabilityShape form, int steps) {
  if (!(minimum > 0 && minimum < 1)) throw std::invalid_argument("a minimum reliability must lie in (0, 1)");
  if (steps < 1) throw std::invalid_argument("reliability steps must be at least 1");
  std::vector<double> r;
  for (int t = 1; t <= steps; ++t) {
    const double x = static_cast<double>(t) / steps;
    switch (form) {
      case ReliabilityShape::linear: r.push_back(1 - (1 - minimum) * x); break;
      case ReliabilityShape::convex: r.push_back(minimum + (1 - minimum) * (1 - x) * (1 - x)); break;
      case ReliabilityShape::concave: r.push_back(1 - (1 - minimum) * x * x); break;
    }
  }
  r.back() = minimum;  // exactly, whatever the rounding
  return r;
}

double binomial_upper_tail(double correct, double covered, double reliability) {
  if (correct <= 0) return 1;
  if (correct > covered) correct = covered;
  // P(X >= k) = I_p(k, n - k + 1) for a binomial(n, p).
  return boost::math::ibeta(correct, covered - correct + 1, reliability);
}

bool holds_reliability(double correct, double covered, double reliability, double alpha) {
  return binomial_upper_tail(correct, covered, reliability) <= alpha;
}

namespace {
// One rule's chi-squared(1) contribution.
double contribution(const RuleCounts& r) {
  if (r.reliability >= 0.99) {
    // Errors e = f - f* against a Poisson law of mean (1 - r) f: P(E <= e) is the chance of so few errors.
    const double errors = std::max(0.0, r.covered - r.correct);
    const double mean = (1 - r.reliability) * r.covered;
    const double p = std::max(boost::math::gamma_q(errors + 1, mean), 1e-300);
    if (p >= 1) return 0;
    return boost::math::quantile(boost::math::complement(boost::math::chi_squared(1), p));
  }
  const double expected = r.reliability * r.covered;
  return (expected - r.correct) * (expected - r.correct) / (expected * (1 - r.reliability));
}
}  // namespace

double rule_set_statistic(const std::vector<RuleCounts>& rules) {
  double x2 = 0;
  for (const auto& r : rules) x2 += contribution(r);
  return x2;
}

double rule_set_significance(const std::vector<RuleCounts>& rules) {
  if (rules.empty()) return 0;
  return boost::math::cdf(boost::math::chi_squared(static_cast<double>(rules.size())), rule_set_statistic(rules));
}

double rule_set_tail(const std::vector<RuleCounts>& rules) {
  if (rules.empty()) return 1;
  return boost::math::cdf(
      boost::math::complement(boost::math::chi_squared(static_cast<double>(rules.size())), rule_set_statistic(rules)));
}

}  // namespace candor
