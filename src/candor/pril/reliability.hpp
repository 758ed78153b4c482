#pragma once
// PrIL's statistics (paper 004): the reliability function that steps each class's required reliability
// down from 1 to its minimum, the exact binomial test of one rule, and the significance S(A_i) of a rule set.
#include <string>
#include <vector>

#include "candor/util/names.hpp"

namespace candor {

// The required reliabilities of `steps` steps for a class of minimum reliability R: r(x) for x = t / steps,
// t = 1 .. steps, where r(0) = 1 and r(1) = R:
//   linear  r(x) = 1 - (1 - R) x
//   convex  r(x) = R + (1 - R) (1 - x)^2   (large first steps, then small ones)
//   concave r(x) = 1 - (1 - R) x^2         (small first steps, then large ones)
// Throws std::invalid_argument for an unknown shape, steps < 1 or R outside (0, 1).
enum class ReliabilityShape { linear, convex, concave };
inline constexpr Named<ReliabilityShape> kReliabilityShapeNames[] = {
    {"linear", ReliabilityShape::linear}, {"convex", ReliabilityShape::convex}, {"concave", ReliabilityShape::concave}};
std::vector<double> reliability_levels(double minimum, ReliabilityShape shape, int steps);
// The same by the shape's name.
std::vector<double> reliability_levels(double minimum, const std::string& shape, int steps);

// P(X >= correct) for X binomial with `covered` trials and success probability `reliability` (the regularized
// incomplete beta function, so weighted, fractional counts work too): the p-value of H0: P <= r against
// P > r. 1 when correct <= 0.
double binomial_upper_tail(double correct, double covered, double reliability);

// A rule "this value (combination) -> class" with `covered` cases of which `correct` are of the class holds
// reliability r at risk alpha when binomial_upper_tail(correct, covered, r) <= alpha: the class's share is
// above r with confidence 1 - alpha (equivalently, the one-sided Clopper-Pearson lower bound exceeds r).
bool holds_reliability(double correct, double covered, double reliability, double alpha);

// One rule of a rule set, for its significance.
struct RuleCounts {
  double covered = 0, correct = 0, reliability = 0;
};
// The rule set's chi-squared statistic X^2 = sum over its rules of (r f - f*)^2 / (r f (1 - r)) (f covered,
// f* correct); a rule with r >= 0.99 contributes instead the chi-squared(1) value of the same tail
// probability as its errors under a Poisson law of mean (1 - r) f (the paper's Poisson approximation).
double rule_set_statistic(const std::vector<RuleCounts>& rules);
// S(A_i): the chi-squared cdf of that statistic with one degree of freedom per rule.
double rule_set_significance(const std::vector<RuleCounts>& rules);
// 1 - S(A_i), computed without cancellation (how rule sets are compared when S rounds to 1).
double rule_set_tail(const std::vector<RuleCounts>& rules);

}  // namespace candor
