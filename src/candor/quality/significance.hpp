#pragma once
// CN2's significance test (Clark and Niblett 1989): the likelihood-ratio statistic of the rule's covered
// class counts against an expected distribution, chi-squared with (classes - 1) degrees of freedom.
// Not to be confused with paper 000's eq. (14), which EVC corrects.
#include <span>
#include <vector>

namespace candor {

// 2 * sum_c f_c ln(f_c / e_c), e_c = n * reference_c / sum(reference).
double cn2_significance_statistic(std::span<const double> covered, std::span<const double> reference);

// The test against one reference distribution at level alpha. The chi-squared quantile is computed once
// here, not for every candidate rule. alpha >= 1 accepts every rule; a reference with fewer than two
// classes present accepts none.
class SignificanceTest {
 public:
  SignificanceTest(std::span<const double> reference, double alpha);
  // True when the statistic of `covered` exceeds the critical value.
  bool passes(std::span<const double> covered) const;

 private:
  std::vector<double> reference_;
  double critical_ = 0;
  bool accept_all_ = false;
  bool reject_all_ = false;
};

// One-off form of SignificanceTest(reference, alpha).passes(covered).
bool cn2_significant(std::span<const double> covered, std::span<const double> reference, double alpha);

}  // namespace candor
