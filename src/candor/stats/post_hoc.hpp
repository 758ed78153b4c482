#pragma once
// Post-hoc and pairwise comparisons of learners over data sets (Demšar 2006, JMLR 7:1-30, sections 3.1-3.2).
#include <cstddef>
#include <string>
#include <vector>

namespace candor {

// Upper-alpha quantile of the studentized range of k independent standard normals with infinite degrees of
// freedom: P(max - min > q) = alpha. Computed from its distribution function
// P(R <= q) = k * integral phi(z) (Phi(z) - Phi(z - q))^(k-1) dz (Gauss-Kronrod quadrature, TOMS 748 root).
double studentized_range_quantile(std::size_t k, double alpha);

// Nemenyi critical difference of average ranks for k learners on n data sets:
// q_alpha * sqrt(k (k + 1) / (6 n)) with q_alpha the studentized range quantile / sqrt(2).
double nemenyi_cd(std::size_t k, std::size_t n_datasets, double alpha = 0.05);

// Maximal sets of learners whose average ranks differ by less than `cd` (the bars of a CD diagram), each
// given as indices into `ranks`, best rank first; groups of one learner are left out.
std::vector<std::vector<std::size_t>> cd_groups(const std::vector<double>& ranks, double cd);

// Wilcoxon signed-rank test of paired scores a[i], b[i] (Demšar's version): differences d = a - b are
// ranked by |d| (ties averaged); the ranks of zero differences are split evenly between R+ and R- (with an
// odd number of zeros one is dropped first). T = min(R+, R-). The two-sided p value is exact (the sign
// flipping distribution of the observed ranks) for up to 200 pairs, the normal approximation beyond.
struct WilcoxonResult {
  std::size_t n = 0;  // pairs used
  double r_plus = 0;  // sum of ranks where a > b
  double r_minus = 0;
  double t = 0;  // min(R+, R-)
  double z = 0;  // (T - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24)
  double p = 1;  // two-sided
  bool exact = false;
};
WilcoxonResult wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b);

// Two-tailed sign test of wins against losses under Binomial(n, 1/2). Ties are split evenly between both
// sides, an odd one dropped (Demšar 2006, section 3.1.2).
struct SignTestResult {
  std::size_t wins = 0, losses = 0, ties = 0;
  double p = 1;
};
SignTestResult sign_test(std::size_t wins, std::size_t losses, std::size_t ties);
// Wins where a > b (or a < b when !higher_is_better); exact equality is a tie.
SignTestResult sign_test(const std::vector<double>& a, const std::vector<double>& b, bool higher_is_better);

}  // namespace candor
