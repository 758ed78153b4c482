#include <gtest/gtest.h>

#include <cmath>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/readers.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/evc/general.hpp"
#include "candor/evc/rule_correction.hpp"
#include "candor/learn/fit.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {
Dataset credit() { return read_arff(test::shared("credit-a.arff")); }
Dataset vote() { return read_arff(test::shared("vote.arff")); }
}  // namespace

TEST(EvcCalibration, FitsPerLengthLawsFromMonotoneMaxima) {
  // Three permutations, lengths 1..3.
  std::vector<std::vector<double>> maxima{{2, 5, 6}, {4, 6, 9}, {3, 7, 9}};
  std::vector<double> means;
  auto laws = fit_length_laws(maxima, GumbelFit::fixed_beta, &means);
  ASSERT_EQ(laws.size(), 3u);
  EXPECT_EQ(means, (std::vector<double>{3, 6, 8}));
  for (std::size_t l = 0; l < 3; ++l) {
    EXPECT_DOUBLE_EQ(laws[l].beta, 2.0);
    EXPECT_NEAR(laws[l].mu, means[l] - 0.5772156649015329 * 2, 1e-12);
  }
  // Location is made non-decreasing even when a fit of a longer length comes out lower.
  auto ml = fit_length_laws({{5, 5}, {9, 5.5}, {7, 6}}, GumbelFit::moments);
  EXPECT_GE(ml[1].mu, ml[0].mu);
}

// One permutation, beam wide enough to see every single condition: the length-1 law's location is the
// best LRS of any one-condition rule on the permuted data (recomputed here by brute force) minus
// 0.5772 * 2.
TEST(EvcCalibration, LengthOneMaximumIsTheBestSingleConditionOnPermutedData) {
  Dataset d = vote();
  SearchOptions o;
  o.beam_width = 100;
  o.max_rule_length = 2;
  EvcSettings settings{1, GumbelFit::fixed_beta, 42};
  EvcCalibration cal = calibrate_evc(d, o, settings, {0}, 1);
  ASSERT_EQ(cal.laws[0].size(), 2u);
  EXPECT_TRUE(cal.laws[1].empty());  // class 1 not asked for
  EXPECT_THROW(cal.law(1, 1), std::out_of_range);

  // Reproduce the permutation.
  Dataset permuted = d;
  Rng rng(stream_seed(42, 0));
  std::vector<int> labels = d.y;  // vote has no unlabelled rows
  shuffle(labels, rng);
  permuted.y = labels;
  CoverageIndex index(permuted);
  Bitset all(d.rows(), true);
  auto totals = index.class_counts(all);
  double best = 0;
  for (std::size_t a = 0; a < d.num_attributes(); ++a)
    for (int v = 0; v < static_cast<int>(d.attribute(a).values.size()); ++v) {
      auto counts = index.class_counts(index.value_rows(static_cast<int>(a), v));
      double n = counts[0] + counts[1];
      if (n == 0 || n == d.rows()) continue;
      best = std::max(best, likelihood_ratio_statistic(counts[0], n, totals[0], totals[0] + totals[1]));
    }
  EXPECT_GT(best, 0);
  EXPECT_NEAR(cal.mean_maxima[0][0], best, 1e-9);
  EXPECT_NEAR(cal.law(0, 1).mu, best - 0.5772156649015329 * 2, 1e-9);
  EXPECT_GE(cal.mean_maxima[0][1], best);  // monotone in length
  // Lengths beyond the calibrated ones use the longest law.
  EXPECT_EQ(cal.law(0, 7), cal.law(0, 2));
}

TEST(EvcCalibration, SameLawsOnAnyThreadCountAndGrowingWithLength) {
  Dataset d = credit();
  SearchOptions o;
  EvcSettings settings{12, GumbelFit::maximum_likelihood, 3};
  EvcCalibration one = calibrate_evc(d, o, settings, {}, 1);
  EvcCalibration two = calibrate_evc(d, o, settings, {}, 2);
  EXPECT_EQ(one, two);
  for (const auto& laws : one.laws) {
    ASSERT_EQ(laws.size(), 5u);
    for (std::size_t l = 1; l < laws.size(); ++l) EXPECT_GE(laws[l].mu, laws[l - 1].mu);
    // Longer rules are searched among many more candidates: their maxima are clearly larger.
    EXPECT_GT(laws[4].mu, laws[0].mu + 3);
  }
  settings.seed = 4;
  EXPECT_NE(calibrate_evc(d, o, settings, {}, 1), one);
}

// With quality evc, each rule's probability is the corrected relative frequency of its counts on the
// training set, with the law of its class and length; saved and loaded, the calibration is the same.
TEST(EvcLearner, RuleProbabilitiesAreCorrectedAndTheCalibrationIsSaved) {
  Dataset d = credit();
  LearnerParams p;
  p.quality = "evc";
  p.evc_permutations = 20;
  RuleModel m = fit(d, p, 2);
  ASSERT_TRUE(m.evc.has_value());
  ASSERT_FALSE(m.rules.empty());
  const double n_total = m.training_counts[0] + m.training_counts[1];
  bool some_corrected = false;
  for (const auto& r : m.rules) {
    const double n = r.training_counts[0] + r.training_counts[1];
    auto e = evc_correct(r.training_counts[r.klass], n, m.training_counts[r.klass], n_total,
                         m.evc->law(r.klass, static_cast<int>(r.conditions.size())));
    EXPECT_DOUBLE_EQ(r.probability, e.probability);
    EXPECT_LE(r.probability, r.training_counts[r.klass] / n + 1e-12);
    some_corrected |= r.probability < r.training_counts[r.klass] / n - 0.01;
  }
  EXPECT_TRUE(some_corrected);
  EXPECT_EQ(fit(d, p, 1).rules.size(), m.rules.size());  // thread count never changes the model

  const std::string path = test::write_temp("evc-model.json", "");
  save_model(m, path);
  RuleModel back = load_rule_model(path);
  ASSERT_TRUE(back.evc.has_value());
  EXPECT_EQ(*back.evc, *m.evc);
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(back.predict_proba(d, r), m.predict_proba(d, r));
  EXPECT_NE(format_rules(back).find("EVC calibration: 20 class permutations"), std::string::npos);
}

// EVC prefers short rules: the same data with a deeper search never gets more optimistic probabilities.
TEST(EvcLearner, OrderedListToo) {
  Dataset d = vote();
  LearnerParams p;
  p.learner = "cn2-ordered";
  p.quality = "evc";
  p.evc_permutations = 20;
  RuleModel m = fit(d, p, 2);
  ASSERT_FALSE(m.rules.empty());
  EXPECT_EQ(m.kind, ModelKind::decision_list);
  for (const auto& r : m.rules) {
    const double n = r.class_counts[0] + r.class_counts[1];
    EXPECT_LE(r.probability, r.class_counts[r.klass] / n + 1e-12);
    EXPECT_GT(r.probability, 0.0);
  }
}
