#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>

#include "candor/learn/qualities.hpp"
#include "candor/quality/quality.hpp"
#include "candor/quality/significance.hpp"
#include "test_util.hpp"

using namespace candor;

using test::quality_value;

// Hand-computed values for a rule covering 10 examples, 8 of class 0, in data of 30 (12 of class 0).
TEST(Quality, HandComputedValues) {
  std::vector<double> cov{8, 2}, tot{12, 18};
  EXPECT_DOUBLE_EQ(quality_value("precision", cov, tot, 0), 0.8);
  EXPECT_DOUBLE_EQ(quality_value("laplace", cov, tot, 0), 9.0 / 12.0);                  // (8+1)/(10+2)
  EXPECT_DOUBLE_EQ(quality_value("m-estimate", cov, tot, 0, 2), (8 + 2 * 0.4) / 12.0);  // prior 12/30
  EXPECT_DOUBLE_EQ(quality_value("m-estimate", cov, tot, 0, 0), 0.8);                   // m = 0 is precision
  EXPECT_DOUBLE_EQ(quality_value("wracc", cov, tot, 0), (10.0 / 30.0) * (0.8 - 0.4));
  // Quality is minus the entropy: higher is better.
  EXPECT_NEAR(quality_value("entropy", cov, tot, 0), 0.8 * std::log2(0.8) + 0.2 * std::log2(0.2), 1e-12);
  EXPECT_DOUBLE_EQ(quality_value("entropy", {5, 0}, tot, 0), 0.0);  // pure: the best entropy
  // Laplace with three classes: k = 3.
  EXPECT_DOUBLE_EQ(quality_value("laplace", {4, 1, 0}, {10, 10, 10}, 0), 5.0 / 8.0);
}

// Paper 000, section 4.1.1: 20 examples, prior 0.5, a rule covering 10 with 8 positives has LRS 7.7.
TEST(Quality, LikelihoodRatioStatisticPaperExample) {
  double lrs = likelihood_ratio_statistic(8, 10, 10, 20);
  EXPECT_NEAR(lrs, 2 * (16 * std::log(1.6) + 4 * std::log(0.4)), 1e-12);
  EXPECT_NEAR(lrs, 7.7, 0.05);
  EXPECT_DOUBLE_EQ(quality_value("lrs", {8, 2}, {10, 10}, 0), lrs);
  // Not above the prior: 0 (eq. 14 applies only when s > e_s).
  EXPECT_EQ(likelihood_ratio_statistic(5, 10, 10, 20), 0.0);
  EXPECT_EQ(likelihood_ratio_statistic(2, 10, 10, 20), 0.0);
  // A pure rule uses the 0 log 0 = 0 limit: 2 * [10 ln 2 + 10 ln(10/10 * 2)...] computed by hand.
  double pure = likelihood_ratio_statistic(10, 10, 10, 20);
  EXPECT_NEAR(pure, 2 * (10 * std::log(2.0) + 10 * std::log(2.0)), 1e-12);
  EXPECT_TRUE(std::isfinite(likelihood_ratio_statistic(1e6, 1e6, 1e6, 4e6)));
}

TEST(Quality, UnknownNameListsKnownOnes) {
  try {
    make_quality("gini");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("laplace"), std::string::npos);
  }
  EXPECT_THROW(make_quality("m-estimate", QualityParams{-1, nullptr}), std::invalid_argument);
}

TEST(Quality, ProbabilityIsTheMeasuresOwnEstimateOrRelativeFrequency) {
  std::vector<double> cov{8, 2}, tot{12, 18};
  auto stats = make_rule_stats(cov, tot, 0, 2);
  EXPECT_DOUBLE_EQ(make_quality("laplace")->probability(stats), 0.75);
  EXPECT_DOUBLE_EQ(make_quality("m-estimate", QualityParams{2, nullptr})->probability(stats), 8.8 / 12);
  EXPECT_DOUBLE_EQ(make_quality("entropy")->probability(stats), 0.8);
  EXPECT_DOUBLE_EQ(make_quality("wracc")->probability(stats), 0.8);
  EXPECT_DOUBLE_EQ(make_quality("lrs")->probability(stats), 0.8);
}

// CN2's significance statistic: 2 sum f ln(f/e), e from the reference distribution, df = k - 1.
TEST(Significance, HandComputedStatisticAndThreshold) {
  std::vector<double> cov{8, 2}, ref{10, 10};
  double g = cn2_significance_statistic(cov, ref);
  EXPECT_NEAR(g, 2 * (8 * std::log(8 / 5.0) + 2 * std::log(2 / 5.0)), 1e-12);  // 3.855
  // chi2(1) critical values: 3.841 at 0.05, 6.635 at 0.01.
  EXPECT_TRUE(cn2_significant(cov, ref, 0.05));
  EXPECT_FALSE(cn2_significant(cov, ref, 0.01));
  EXPECT_TRUE(cn2_significant(cov, ref, 1.0));
}

TEST(Quality, LrsQuickBoundIsATightUpperBound) {
  // The search skips a candidate whose bound loses: the bound must never be below the statistic, and it
  // must be close enough to skip nearly everything that loses.
  std::mt19937_64 rng(3);
  const auto lrs_measure = make_quality("lrs");
  for (double total : {20.0, 1000.0, 100000.0, 1000000.0}) {
    std::uniform_real_distribution<double> u(0, 1);
    for (int i = 0; i < 2000; ++i) {
      const double p_total = std::floor(u(rng) * (total - 1)) + 1;
      const double n = std::floor(u(rng) * (total - 1)) + 1;
      const double s = std::max(std::floor(u(rng) * std::min(n, p_total)), std::max(0.0, n - (total - p_total)));
      const double lrs = likelihood_ratio_statistic(s, n, p_total, total);
      const double bound = likelihood_ratio_bound(s, n, p_total, total);
      ASSERT_GE(bound, lrs) << s << " " << n << " " << p_total << " " << total;
      ASSERT_LE(bound - lrs, 1e-4) << s << " " << n << " " << p_total << " " << total;
      // may_reach: never false for a bar the statistic reaches; false for bars far above it.
      const std::vector<double> covered{s, n - s}, totals{p_total, total - p_total};
      const RuleStats stats = make_rule_stats(covered, totals, 0, 1);
      ASSERT_TRUE(lrs_measure->may_reach(stats, lrs));
      ASSERT_TRUE(lrs_measure->may_reach(stats, lrs * 0.5));
      ASSERT_FALSE(lrs_measure->may_reach(stats, 2 * lrs + 1e-3 * (1 + lrs)));
    }
  }
  EXPECT_EQ(likelihood_ratio_bound(2, 10, 10, 20), 0.0);             // below the prior
  EXPECT_TRUE(std::isinf(likelihood_ratio_bound(8.5, 10, 10, 20)));  // weighted counts: no bound
  auto lrs = make_quality("lrs");
  const std::vector<double> covered{8, 2}, totals{10, 10};
  const RuleStats stats = make_rule_stats(covered, totals, 0, 1);
  EXPECT_GE(lrs->quick_bound(stats), lrs->evaluate(stats));
  EXPECT_NEAR(lrs->quick_bound(stats), lrs->evaluate(stats), 1e-9);
}

// Measures of s and n score a whole sweep in one call; the batch must equal evaluate() bit for bit, and a
// measure that reads every class's count must decline.
TEST(Quality, BatchScoresEqualSingleEvaluationsBitForBit) {
  const std::vector<double> totals{40, 25, 35};
  std::mt19937 rng(7);
  std::vector<double> s, n;
  for (int i = 0; i < 200; ++i) {
    const int rows = static_cast<int>(rng() % 100);
    s.push_back(rows == 0 ? 0 : static_cast<double>(rng() % (std::min(rows, 40) + 1)));
    n.push_back(rows);
  }
  std::set<std::string> batched;
  for (const auto& info : quality_table()) {
    if (info.needs_calibration) continue;
    auto q = make_quality(info.name, QualityParams{3.5, nullptr});
    for (int target : {0, 2}) {
      const RuleStats base{totals, totals, target, 2, 0.0, 100.0};
      std::vector<double> out(s.size(), -42.0);
      if (!q->evaluate_batch(base, s, n, out)) {
        EXPECT_EQ(out, std::vector<double>(s.size(), -42.0)) << info.name << " wrote though it declined";
        continue;
      }
      batched.insert(info.name);
      for (std::size_t i = 0; i < s.size(); ++i) {
        // A distribution with these s and n: the rest split over the other two classes.
        std::vector<double> covered(3, 0.0);
        covered[target] = s[i];
        covered[(target + 1) % 3] = std::floor((n[i] - s[i]) / 2);
        covered[(target + 2) % 3] = n[i] - s[i] - covered[(target + 1) % 3];
        const double single = q->evaluate(make_rule_stats(covered, totals, target, 2));
        EXPECT_EQ(std::memcmp(&single, &out[i], sizeof(double)), 0) << info.name << " s " << s[i] << " n " << n[i];
      }
    }
  }
  EXPECT_EQ(batched, (std::set<std::string>{"precision", "laplace", "m-estimate", "wracc", "modified-precision",
                                            "modified-laplace", "modified-m-estimate"}));
}

// The LRS of any specialisation (a sub-table: s' <= s positives, n' - s' <= n - s negatives) stays below the
// rule's refinement_bound, checked exhaustively on small tables; the batch of Pearson bounds bounds every
// statistic and equals the single bound.
TEST(Quality, LrsRefinementAndPearsonBoundsHold) {
  auto lrs = make_quality("lrs");
  std::mt19937 rng(11);
  std::size_t checked = 0;
  for (int t = 0; t < 400; ++t) {
    const int total = 2 + static_cast<int>(rng() % 60);
    const int p = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
    const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
    const int lo = std::max(0, n - (total - p)), hi = std::min(n, p);
    const int s = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
    const std::vector<double> totals{double(p), double(total - p)};
    const std::vector<double> cov{double(s), double(n - s)};
    const double bound = lrs->refinement_bound(make_rule_stats(cov, totals, 0, 1));
    std::vector<double> ss, nn;
    for (int s2 = 0; s2 <= s; ++s2)
      for (int neg = 0; neg <= n - s; ++neg) {
        if (s2 + neg == 0) continue;
        const double g = likelihood_ratio_statistic(s2, s2 + neg, p, total);
        EXPECT_LE(g, bound) << "N " << total << " P " << p << " n " << n << " s " << s << " sub " << s2 << "/"
                            << s2 + neg;
        ss.push_back(s2);
        nn.push_back(s2 + neg);
        ++checked;
      }
    std::vector<double> pearson(ss.size());
    ASSERT_TRUE(lrs->bound_batch(make_rule_stats(cov, totals, 0, 1), ss, nn, pearson));
    for (std::size_t i = 0; i < ss.size(); ++i) {
      EXPECT_GE(pearson[i], likelihood_ratio_statistic(ss[i], nn[i], p, total));
      EXPECT_EQ(pearson[i], likelihood_ratio_pearson_bound(ss[i], nn[i], p, total));
    }
  }
  EXPECT_GT(checked, 10000u);
}

// A box of rules (s <= s_most, n >= n_least, s <= n) that lrs's box_may_reach rules out scores below the
// bar in every rule of it, and boxes are ruled out often enough to matter. Every rule of each box is
// enumerated on small data.
TEST(Quality, BoxBoundsHoldForEveryRuleOfTheBox) {
  auto lrs = make_quality("lrs");
  std::mt19937 rng(5);
  std::size_t ruled_out = 0, open = 0, rules_checked = 0;
  for (int t = 0; t < 3000; ++t) {
    const int total = 4 + static_cast<int>(rng() % 80);
    const int p = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
    const std::vector<double> totals{double(p), double(total - p)}, zero{0.0, 0.0};
    const RuleStats base{zero, totals, 0, 1, 0.0, double(total)};
    const int n_least = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
    const int s_most = static_cast<int>(rng() % static_cast<unsigned>(p + 1));
    // The largest statistic in the box, by enumeration.
    double best = 0;
    bool any = false;
    for (int n = n_least; n < total; ++n)
      for (int s = std::max(0, n - (total - p)); s <= std::min({s_most, n, p}); ++s) {
        best = std::max(best, likelihood_ratio_statistic(s, n, p, total));
        any = true;
        ++rules_checked;
      }
    if (!any) continue;
    for (double bar : {best * 1.001 + 1e-9, best * 0.999, best * 0.5 + 0.5, best + 2.0}) {
      const bool may = lrs->box_may_reach(base, s_most, n_least, bar);
      if (!may) {
        EXPECT_LT(best, bar) << "N " << total << " P " << p << " s_most " << s_most << " n_least " << n_least;
        ++ruled_out;
      } else {
        ++open;
      }
    }
    // A bar the box's best rule reaches is never ruled out.
    EXPECT_TRUE(lrs->box_may_reach(base, s_most, n_least, best));
  }
  EXPECT_GT(rules_checked, 100000u);
  EXPECT_GT(ruled_out, 1000u);
  EXPECT_GT(open, 1000u);
  // Measures without a box bound never rule a box out.
  const std::vector<double> totals{10, 10}, zero{0, 0};
  EXPECT_TRUE(make_quality("entropy")->box_may_reach(RuleStats{zero, totals, 0, 1, 0.0, 20.0}, 1, 10, 1e9));
}
