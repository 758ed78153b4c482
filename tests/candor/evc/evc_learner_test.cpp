#include <gtest/gtest.h>

#include <cmath>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
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

// Pooling across classes, worked by hand. Three classes, two permutations, one length.
// Class means 2, 4, 9; within-class variances ((1-2)^2 + (3-2)^2) / 1 = 2, 2, 2: pooled 2, the noise of one
// class's mean 2 / 2 = 1. Grand mean 5; between-class variance (9 + 1 + 16) / 2 = 13, so tau^2 = 12 and each
// class keeps 12 / 13 of its deviation: 5 - 3 * 12/13, 5 - 12/13, 5 + 4 * 12/13.
TEST(EvcCalibration, PoolingShrinksClassMeansByTheirNoise) {
  std::vector<std::vector<std::vector<double>>> maxima{{{1}, {3}}, {{3}, {5}}, {{8}, {10}}};
  pool_class_maxima(maxima);
  const double keep = 12.0 / 13.0;
  const std::vector<double> expected{5 - 3 * keep, 5 - keep, 5 + 4 * keep};
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_NEAR((maxima[c][0][0] + maxima[c][1][0]) / 2, expected[c], 1e-12);
    EXPECT_NEAR(maxima[c][1][0] - maxima[c][0][0], 2.0, 1e-12);  // the spread stays: only the mean moves
  }
  // Means that differ by less than their noise are pooled into one: between-class variance 0.5 < noise 1.
  std::vector<std::vector<std::vector<double>>> close{{{1}, {3}}, {{2}, {4}}};
  pool_class_maxima(close);
  EXPECT_NEAR(close[0][0][0] + close[0][1][0], 5.0, 1e-12);
  EXPECT_NEAR(close[1][0][0] + close[1][1][0], 5.0, 1e-12);
  // One class, or one permutation (no noise estimate), is left alone.
  std::vector<std::vector<std::vector<double>>> single{{{1}, {3}}}, once{{{1}}, {{7}}};
  pool_class_maxima(single);
  pool_class_maxima(once);
  EXPECT_EQ(single[0][1][0], 3.0);
  EXPECT_EQ(once[1][0][0], 7.0);
}

// On data whose classes are exchangeable under permutation (segment: seven classes of 330 rows), pooled
// laws from 10 permutations are closer to a 100-permutation calibration than unpooled ones from the same 10.
TEST(EvcCalibration, PooledLawsFromFewPermutationsApproachManyPermutations) {
  Dataset d = read_arff(test::shared("segment.arff"));
  SearchOptions o;
  o.max_rule_length = 2;
  o.beam_width = 3;
  const EvcCalibration reference = calibrate_evc(d, o, EvcSettings{100, GumbelFit::fixed_beta, 7}, {}, 2);
  EvcSettings few{10, GumbelFit::fixed_beta, 8};
  const EvcCalibration alone = calibrate_evc(d, o, few, {}, 2);
  few.pool = EvcPool::classes;
  const EvcCalibration pooled = calibrate_evc(d, o, few, {}, 2);
  double alone_error = 0, pooled_error = 0;
  for (std::size_t c = 0; c < d.num_classes(); ++c)
    for (int l = 1; l <= 2; ++l) {
      const double truth = reference.law(static_cast<int>(c), l).mu;
      alone_error += std::pow(alone.law(static_cast<int>(c), l).mu - truth, 2);
      pooled_error += std::pow(pooled.law(static_cast<int>(c), l).mu - truth, 2);
    }
  EXPECT_LT(pooled_error, alone_error / 2);
  // The setting is saved with the laws.
  const auto json = calibration_to_json(pooled, d.schema.class_attribute.values);
  EXPECT_EQ(json.at("pool"), "classes");
  EXPECT_EQ(calibration_from_json(json, d.schema.class_attribute.values), pooled);
}

// Pooled towards a line in the log class size, worked by hand. Four classes of sizes e^0..e^3 (x = 0..3),
// two permutations, one length; class means 1, 2, 3, 6, each class's two maxima 1 apart from its mean.
// Least squares: slope 8 / 5 = 1.6 through (1.5, 3): fitted 0.6, 2.2, 3.8, 5.4; residual sum of squares
// 0.16 + 0.04 + 0.64 + 0.36 = 1.2 on 2 degrees of freedom: 0.6, below the noise of one class's mean (within
// variance 2, over 2 permutations: 1), so tau^2 = 0 and every class moves onto the line. Towards the common
// mean (no sizes) the same means keep (14/3 - 1) / (14/3) of their deviation. A class of size 0 stays out.
TEST(EvcCalibration, PoolingShrinksTowardsTheLineInLogClassSize) {
  const std::vector<double> means{1, 2, 3, 6};
  auto sample = [&] {
    std::vector<std::vector<std::vector<double>>> m;
    for (double x : means) m.push_back({{x - 1}, {x + 1}});
    return m;
  };
  auto mean_of = [](const std::vector<std::vector<double>>& rows) { return (rows[0][0] + rows[1][0]) / 2; };
  auto on_line = sample();
  pool_class_maxima(on_line, {1.0, std::exp(1.0), std::exp(2.0), std::exp(3.0)});
  const std::vector<double> fitted{0.6, 2.2, 3.8, 5.4};
  for (std::size_t c = 0; c < 4; ++c) {
    EXPECT_NEAR(mean_of(on_line[c]), fitted[c], 1e-12);
    EXPECT_NEAR(on_line[c][1][0] - on_line[c][0][0], 2.0, 1e-12);
  }
  auto common = sample();
  pool_class_maxima(common);
  const double keep = (14.0 / 3 - 1) / (14.0 / 3);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(mean_of(common[c]), 3 + keep * (means[c] - 3), 1e-12);
  // A fifth class without rows is neither pooled nor moved, and the others pool as before.
  auto with_empty = sample();
  with_empty.push_back({{0}, {0}});
  pool_class_maxima(with_empty, {1.0, std::exp(1.0), std::exp(2.0), std::exp(3.0), 0.0});
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(mean_of(with_empty[c]), fitted[c], 1e-12);
  EXPECT_EQ(with_empty[4][1][0], 0.0);
}

// Pooled, more than two classes share the permutations: max(10, ceil(2P / classes)), never more than P.
TEST(EvcCalibration, PooledClassesSharePermutations) {
  auto run = [](int p, EvcPool pool, std::size_t classes) {
    return permutations_run(EvcSettings{p, GumbelFit::fixed_beta, 1, pool}, classes);
  };
  EXPECT_EQ(run(20, EvcPool::none, 7), 20);
  EXPECT_EQ(run(20, EvcPool::classes, 1), 20);
  EXPECT_EQ(run(20, EvcPool::classes, 2), 20);  // binary: unchanged
  EXPECT_EQ(run(20, EvcPool::classes, 3), 14);  // ceil(40 / 3)
  EXPECT_EQ(run(20, EvcPool::classes, 7), 10);  // each class keeps ten
  EXPECT_EQ(run(20, EvcPool::classes, 24), 10);
  EXPECT_EQ(run(3, EvcPool::classes, 24), 3);     // never more than asked for
  EXPECT_EQ(run(100, EvcPool::classes, 19), 11);  // ceil(200 / 19)

  // On segment's seven classes (of one size: pooled towards their common mean) a pooled calibration of 20
  // runs the first 10 permutations: pooling moves each class's mean maximum but keeps their average over the
  // classes, which is therefore that of an unpooled calibration of 10 permutations with the same seed (and
  // not that of 20).
  Dataset d = read_arff(test::shared("segment.arff"));
  SearchOptions o;
  o.max_rule_length = 2;
  o.beam_width = 3;
  const EvcCalibration pooled = calibrate_evc(d, o, EvcSettings{20, GumbelFit::fixed_beta, 5, EvcPool::classes}, {}, 2);
  const EvcCalibration ten = calibrate_evc(d, o, EvcSettings{10, GumbelFit::fixed_beta, 5, EvcPool::none}, {}, 2);
  const EvcCalibration twenty = calibrate_evc(d, o, EvcSettings{20, GumbelFit::fixed_beta, 5, EvcPool::none}, {}, 2);
  auto average = [&](const EvcCalibration& c, std::size_t l) {
    double sum = 0;
    for (const auto& m : c.mean_maxima) sum += m[l];
    return sum / static_cast<double>(c.mean_maxima.size());
  };
  for (std::size_t l = 0; l < 2; ++l) {
    EXPECT_NEAR(average(pooled, l), average(ten, l), 1e-9);
    EXPECT_GT(std::abs(average(pooled, l) - average(twenty, l)), 1e-6);
  }
  // The file says how many ran where it differs from the setting.
  const auto json = calibration_to_json(pooled, d.schema.class_attribute.values);
  EXPECT_EQ(json.at("permutations"), 20);
  EXPECT_EQ(json.at("permutations_run"), 10);
  EXPECT_EQ(calibration_from_json(json, d.schema.class_attribute.values), pooled);
  EXPECT_FALSE(calibration_to_json(twenty, d.schema.class_attribute.values).contains("permutations_run"));

  // Only classes with rows count: heart-h declares five classes and has rows of two, so it runs all 20.
  Dataset h = read_arff(test::shared("heart-h.arff"));
  ASSERT_EQ(h.num_classes(), 5u);
  const EvcCalibration binary = calibrate_evc(h, o, EvcSettings{20, GumbelFit::fixed_beta, 5, EvcPool::classes}, {}, 2);
  EXPECT_EQ(binary.permutations_run, 20);
  EXPECT_EQ(pooled.permutations_run, 10);
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

// calibration_maxima gives what calibrate_evc's laws are fitted to: unpooled, each class's mean maxima are
// the means over its permutations, each permutation's maxima non-decreasing in the length; asked for some
// classes, it searches those, in the order asked.
TEST(EvcCalibration, MaximaAreWhatTheLawsAreFittedTo) {
  Dataset d = vote();
  SearchOptions o;
  o.max_rule_length = 3;
  const EvcSettings settings{7, GumbelFit::fixed_beta, 2, EvcPool::none};
  const CalibrationMaxima found = calibration_maxima(d, o, settings, {}, 2);
  const EvcCalibration cal = calibrate_evc(d, o, settings, {}, 1);
  ASSERT_EQ(found.classes, (std::vector<int>{0, 1}));
  EXPECT_EQ(found.permutations_run, 7);
  for (std::size_t ci = 0; ci < 2; ++ci) {
    ASSERT_EQ(found.maxima[ci].size(), 7u);
    for (std::size_t l = 0; l < 3; ++l) {
      double mean = 0;
      for (const auto& row : found.maxima[ci]) {
        ASSERT_EQ(row.size(), 3u);
        if (l > 0) {
          EXPECT_GE(row[l], row[l - 1]);
        }
        mean += row[l];
      }
      EXPECT_DOUBLE_EQ(cal.mean_maxima[ci][l], mean / 7);
    }
  }
  // The first permutation's maxima differ between the classes: each class had a search of its own.
  EXPECT_NE(found.maxima[0][0], found.maxima[1][0]);
  const CalibrationMaxima second = calibration_maxima(d, o, settings, {1}, 1);
  ASSERT_EQ(second.classes, (std::vector<int>{1}));
  EXPECT_EQ(second.maxima[0], found.maxima[1]);
}

// With quality evc, each rule's probability is the corrected relative frequency of its counts on the
// training set, with the law of its class and length; saved and loaded, the calibration is the same.
TEST(EvcLearner, RuleProbabilitiesAreCorrectedAndTheCalibrationIsSaved) {
  Dataset d = credit();
  LearnerParams p;
  p.learner = "cn2-unordered";
  p.heuristics.quality = "evc";
  p.evc.permutations = 20;
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
  EXPECT_NE(model_text(back).find("EVC calibration: 20 class permutations"), std::string::npos);
}

// EVC prefers short rules: the same data with a deeper search never gets more optimistic probabilities.
TEST(EvcLearner, OrderedListToo) {
  Dataset d = vote();
  LearnerParams p;
  p.learner = "cn2-ordered";
  p.heuristics.quality = "evc";
  p.evc.permutations = 20;
  RuleModel m = fit(d, p, 2);
  ASSERT_FALSE(m.rules.empty());
  EXPECT_EQ(m.kind, ModelKind::decision_list);
  for (const auto& r : m.rules) {
    const double n = r.class_counts[0] + r.class_counts[1];
    EXPECT_LE(r.probability, r.class_counts[r.klass] / n + 1e-12);
    EXPECT_GT(r.probability, 0.0);
  }
}
