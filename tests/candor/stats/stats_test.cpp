#include <gtest/gtest.h>

#include <cmath>

#include "candor/stats/post_hoc.hpp"
#include "candor/stats/ranks.hpp"

using namespace candor;

TEST(Stats, AverageRanksWithTies) {
  EXPECT_EQ(average_ranks_of({10, 20, 20, 5}), (std::vector<double>{2, 3.5, 3.5, 1}));
}

// Hand computation: ranks x (1,2,3,4,5), y (2,1,4,3,5): d^2 = 1+1+1+1+0 = 4, rho = 1 - 6*4/(5*24) = 0.8.
TEST(Stats, SpearmanAndRmse) {
  EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {0.2, 0.1, 0.4, 0.3, 0.5}), 0.8, 1e-12);
  EXPECT_NEAR(spearman({1, 2, 3}, {3, 2, 1}), -1.0, 1e-12);
  EXPECT_TRUE(std::isnan(spearman({1, 1, 1}, {1, 2, 3})));
  EXPECT_NEAR(rmse({1, 2}, {1, 4}), std::sqrt(2.0), 1e-12);
}

// Demšar (2006), section 3.2.2: four learners on 14 data sets with average ranks 3.143, 2.000, 2.893,
// 1.964 give Friedman chi2 = 9.28 and Iman-Davenport F = 3.69; the Bonferroni-Dunn critical difference at
// alpha 0.05 uses q = 2.394: CD = 2.394 * sqrt(4 * 5 / (6 * 14)) = 1.168.
TEST(Stats, FriedmanAndCriticalDifferenceDemsar2006) {
  FriedmanResult f = friedman({3.143, 2.000, 2.893, 1.964}, 14);
  EXPECT_NEAR(f.chi2, 9.28, 0.01);
  EXPECT_NEAR(f.iman_davenport_f, 3.69, 0.01);
  EXPECT_NEAR(f.p, 0.0258, 0.001);  // chi2(3) upper tail at 9.28
  EXPECT_LT(f.p_f, 0.05);           // F(3, 39) critical value 2.85 < 3.69
  EXPECT_NEAR(bonferroni_dunn_cd(4, 14, 0.05), 2.394 * std::sqrt(20.0 / 84.0), 0.001);
  EXPECT_NEAR(bonferroni_dunn_cd(4, 14, 0.10), 2.128 * std::sqrt(20.0 / 84.0), 0.001);
}

TEST(Stats, MeanRanksOverDataSets) {
  // Learner 0 best on both, learners 1 and 2 tie on the second.
  std::vector<std::vector<double>> acc{{0.9, 0.8, 0.7}, {0.9, 0.5, 0.5}};
  EXPECT_EQ(mean_ranks(acc, true), (std::vector<double>{1.0, 2.25, 2.75}));
  EXPECT_EQ(mean_ranks(acc, false), (std::vector<double>{3.0, 1.75, 1.25}));
}

// Demšar (2006), Table 5: critical values of the two-tailed Nemenyi test, q_0.05 and q_0.10 for k = 2..10
// (the studentized range statistic divided by sqrt 2).
TEST(Stats, NemenyiQuantilesMatchDemsarTable5) {
  const double q05[] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
  const double q10[] = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920};
  for (std::size_t k = 2; k <= 10; ++k) {
    EXPECT_NEAR(studentized_range_quantile(k, 0.05) / std::sqrt(2.0), q05[k - 2], 0.0015) << "k=" << k;
    EXPECT_NEAR(studentized_range_quantile(k, 0.10) / std::sqrt(2.0), q10[k - 2], 0.0015) << "k=" << k;
  }
  // Demšar's example, section 3.2.2: CD = 2.569 * sqrt(4 * 5 / (6 * 14)) = 1.25 for four learners on 14 sets.
  EXPECT_NEAR(nemenyi_cd(4, 14, 0.05), 1.2536, 0.001);
  // SciPy 1.10: studentized_range.ppf(0.95, 4, 1e6) / sqrt(2) = 2.569032 (df 1e6 stands in for infinity).
  EXPECT_NEAR(studentized_range_quantile(4, 0.05) / std::sqrt(2.0), 2.569032, 2e-5);
}

// Demšar's example: average ranks C4.5 3.143, C4.5+m 2.000, C4.5+cf 2.893, C4.5+m+cf 1.964. With the
// Nemenyi CD 1.25 the largest spread (3.143 - 1.964 = 1.179) is below it: one group of all four, best first.
// With CD 1.0: from C4.5+m+cf the run reaches C4.5+cf (0.929 < 1) but not C4.5 (1.179); from C4.5+m it
// stops before C4.5 (1.143); from C4.5+cf it reaches C4.5 (0.25). Groups {3, 1, 2} and {2, 0}.
TEST(Stats, CdGroupsAreMaximalRuns) {
  const std::vector<double> ranks{3.143, 2.000, 2.893, 1.964};
  EXPECT_EQ(cd_groups(ranks, 1.25), (std::vector<std::vector<std::size_t>>{{3, 1, 2, 0}}));
  EXPECT_EQ(cd_groups(ranks, 1.0), (std::vector<std::vector<std::size_t>>{{3, 1, 2}, {2, 0}}));
  // Far apart: no group of two or more.
  EXPECT_TRUE(cd_groups({1.0, 2.0, 3.0}, 0.5).empty());
}

// Demšar (2006), Table 2: AUC of C4.5 with m = 0 and with m tuned on 14 data sets. Differences (C4.5+m
// minus C4.5) ranked by magnitude give R+ = 93, R- = 12 (the two zero differences split their ranks 1.5
// and 1.5), T = 12, z = (12 - 52.5) / sqrt(253.75) = -2.542, normal p = 0.0110. The exact p of the 2^12
// sign flips of the nonzero ranks (zeros fixed at half) was counted by brute force in Python: 0.0078125.
TEST(Stats, WilcoxonDemsarTable2) {
  const std::vector<double> c45{0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
                                0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957};
  const std::vector<double> c45m{0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
                                 0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978};
  WilcoxonResult w = wilcoxon_signed_rank(c45m, c45);
  EXPECT_EQ(w.n, 14u);
  EXPECT_DOUBLE_EQ(w.r_plus, 93);
  EXPECT_DOUBLE_EQ(w.r_minus, 12);
  EXPECT_DOUBLE_EQ(w.t, 12);
  EXPECT_NEAR(w.z, -2.5424, 1e-4);
  EXPECT_TRUE(w.exact);
  EXPECT_NEAR(w.p, 0.0078125, 1e-12);
  // Sign test on the same table: 10 wins, 2 losses, 2 ties -> 11 against 3 of 14;
  // p = 2 * (C(14,11) + C(14,12) + C(14,13) + C(14,14)) / 2^14 = 2 * 470 / 16384.
  SignTestResult s = sign_test(c45m, c45, true);
  EXPECT_EQ(s.wins, 10u);
  EXPECT_EQ(s.losses, 2u);
  EXPECT_EQ(s.ties, 2u);
  EXPECT_NEAR(s.p, 940.0 / 16384.0, 1e-12);
  EXPECT_EQ(sign_test(c45m, c45, false).wins, 2u);
}

// Against SciPy 1.10 (scipy.stats.wilcoxon(d, method="exact")), distinct magnitudes: 10 pairs give T = 15,
// p = 0.232421875; 30 pairs give T = 52, p = 7.0568e-05. One zero among an odd count is dropped.
TEST(Stats, WilcoxonExactMatchesScipy) {
  const std::vector<double> d{1.5, -0.5, 3.0, 4.5, -2.0, 6.0, 7.5, 0.25, -9.0, 10.0};
  const std::vector<double> zero(d.size(), 0.0);
  WilcoxonResult w = wilcoxon_signed_rank(d, zero);
  EXPECT_DOUBLE_EQ(w.t, 15);
  EXPECT_NEAR(w.p, 0.232421875, 1e-12);
  std::vector<double> d2 = d;
  for (double x : {11, 12, 13, -14, 15, 16, 17, 18, 19, 20, 21, 22, -23, 24, 25, 26, 27, 28, 29, 30}) d2.push_back(x);
  WilcoxonResult w2 = wilcoxon_signed_rank(d2, std::vector<double>(d2.size(), 0.0));
  EXPECT_DOUBLE_EQ(w2.t, 52);
  EXPECT_NEAR(w2.p, 7.056817412376404e-05, 1e-10);
  std::vector<double> with_zero = d;
  with_zero.push_back(0.0);
  EXPECT_EQ(wilcoxon_signed_rank(with_zero, std::vector<double>(with_zero.size(), 0.0)).n, 10u);
}

TEST(Stats, SignTestEdgeCases) {
  EXPECT_DOUBLE_EQ(sign_test(0, 0, 0).p, 1.0);
  EXPECT_DOUBLE_EQ(sign_test(3, 3, 1).p, 1.0);
  // 5 wins of 5: p = 2 / 32.
  EXPECT_NEAR(sign_test(5, 0, 0).p, 0.0625, 1e-12);
  // 9 wins, 1 loss: 2 * (C(10,9) + 1) / 1024 = 22 / 1024.
  EXPECT_NEAR(sign_test(1, 9, 0).p, 22.0 / 1024.0, 1e-12);
}
