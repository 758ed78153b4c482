#pragma once
// CN2's significance test (Clark and Niblett 1989): the likelihood-ratio statistic of the rule's covered
// class counts against an expected distribution, chi-squared with (classes - 1) degrees of freedom.
// Not to be confused with paper 000's eq. (14), which EVC corrects.
#include <span>

namespace candor {

// 2 * sum_c f_c ln(f_c / e_c), e_c = n * reference_c / sum(reference).
double cn2_significance_statistic(std::span<const double> covered, std::span<const double> reference);
// True when the statistic exceeds the chi-squared(k - 1) quantile at 1 - alpha. alpha >= 1 accepts all.
bool cn2_significant(std::span<const double> covered, std::span<const double> reference, double alpha);

}  // namespace candor
