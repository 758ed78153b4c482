#include <gtest/gtest.h>

#include <cmath>

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
  EXPECT_NEAR(f.p, 0.0258, 0.001);   // chi2(3) upper tail at 9.28
  EXPECT_LT(f.p_f, 0.05);            // F(3, 39) critical value 2.85 < 3.69
  EXPECT_NEAR(bonferroni_dunn_cd(4, 14, 0.05), 2.394 * std::sqrt(20.0 / 84.0), 0.001);
  EXPECT_NEAR(bonferroni_dunn_cd(4, 14, 0.10), 2.128 * std::sqrt(20.0 / 84.0), 0.001);
}

TEST(Stats, MeanRanksOverDataSets) {
  // Learner 0 best on both, learners 1 and 2 tie on the second.
  std::vector<std::vector<double>> acc{{0.9, 0.8, 0.7}, {0.9, 0.5, 0.5}};
  EXPECT_EQ(mean_ranks(acc, true), (std::vector<double>{1.0, 2.25, 2.75}));
  EXPECT_EQ(mean_ranks(acc, false), (std::vector<double>{3.0, 1.75, 1.25}));
}
