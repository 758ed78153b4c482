#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/fit.hpp"
#include "candor/stats/binomial_interval.hpp"
#include "candor/util/random.hpp"
#include "test_util.hpp"

using namespace candor;

TEST(Metrics, HandComputedBinary) {
  // Scores for class 1: positives 0.9, 0.4; negatives 0.6, 0.2 -> 3 of 4 pairs ordered: AUC 0.75.
  std::vector<int> y{1, 1, 0, 0};
  std::vector<std::vector<double>> p{{0.1, 0.9}, {0.6, 0.4}, {0.4, 0.6}, {0.8, 0.2}};
  Metrics m = compute_metrics(y, p);
  EXPECT_DOUBLE_EQ(m.accuracy, 0.5);
  EXPECT_DOUBLE_EQ(m.auc, 0.75);
  // Brier as scikit-learn's brier_score_loss: (p - y)^2 of class 1: 0.01, 0.36, 0.36, 0.04 -> mean 0.1925.
  EXPECT_NEAR(m.brier, (0.01 + 0.36 + 0.36 + 0.04) / 4, 1e-12);
  // ECE: top labels 1 (0.9, right), 0 (0.6, wrong), 1 (0.6, wrong), 0 (0.8, right): bins [0.9, 1) one
  // right, [0.6, 0.7) two with accuracy 0, [0.8, 0.9) one right -> (0.1 + 2 * 0.6 + 0.2) / 4.
  EXPECT_NEAR(m.ece, (0.1 + 2 * 0.6 + 0.2) / 4, 1e-12);
  EXPECT_NEAR(m.log_loss, -(std::log(0.9) + std::log(0.4) + std::log(0.4) + std::log(0.8)) / 4, 1e-12);
}

TEST(Metrics, TiesCountHalfAndLogLossIsClipped) {
  EXPECT_DOUBLE_EQ(roc_auc({0.5, 0.5}, {true, false}), 0.5);
  Metrics m = compute_metrics({0}, {{0.0, 1.0}});
  EXPECT_NEAR(m.log_loss, -std::log(1e-15), 1e-9);
}

TEST(Metrics, MulticlassBrierSumsOverClassesAndReliabilityBinsCount) {
  // Three classes: (0.7 - 1)^2 + 0.2^2 + 0.1^2 = 0.14; (0.5)^2 + (0.5 - 1)^2 + 0 = 0.5.
  std::vector<int> y{0, 1};
  std::vector<std::vector<double>> p{{0.7, 0.2, 0.1}, {0.5, 0.5, 0.0}};
  EXPECT_NEAR(compute_metrics(y, p).brier, (0.14 + 0.5) / 2, 1e-12);
  EXPECT_STREQ(brier_kind(3), "multiclass sum over classes");
  EXPECT_STREQ(brier_kind(2), "binary (p - y)^2");
  auto bins = reliability_bins(y, p, 10);
  ASSERT_EQ(bins.size(), 10u);
  EXPECT_EQ(bins[7].count, 1);  // 0.7: right
  EXPECT_EQ(bins[7].observed, 1);
  EXPECT_EQ(bins[5].count, 1);  // 0.5: the first of the tied classes is the top label (class 0), wrong
  EXPECT_EQ(bins[5].observed, 0);
}

TEST(Metrics, MulticlassAucIsFrequencyWeightedOneVsRest) {
  // Class 0 (2 rows) perfectly separated, class 1 (1 row) and class 2 (1 row) as hand-checked below.
  std::vector<int> y{0, 0, 1, 2};
  std::vector<std::vector<double>> p{{0.8, 0.1, 0.1}, {0.7, 0.2, 0.1}, {0.1, 0.3, 0.6}, {0.1, 0.5, 0.4}};
  // class 0: AUC 1. class 1: positive score 0.3 vs negatives 0.1, 0.2, 0.5 -> 2/3.
  // class 2: positive 0.4 vs 0.1, 0.1, 0.6 -> 2/3. Weighted: (2*1 + 2/3 + 2/3) / 4.
  EXPECT_NEAR(compute_metrics(y, p).auc, (2.0 + 2.0 / 3 + 2.0 / 3) / 4, 1e-12);
}

// Six examples of three classes: actual 0,0,0,1,1,2 predicted 0,0,1,1,2,2 (a tie goes to the first class, as
// accuracy counts it); one unlabelled row is left out. By hand: precision 1, 1/2, 1/2; recall 2/3, 1/2, 1;
// F1 0.8, 0.5, 2/3; p_o = 4/6, p_e = (3 x 2 + 2 x 2 + 1 x 2) / 36 = 1/3, kappa = (2/3 - 1/3) / (2/3) = 0.5.
TEST(Metrics, ConfusionMatrixPerClassScoresAndKappaByHand) {
  const std::vector<int> y{0, 0, 0, 1, 1, 2, -1};
  const std::vector<std::vector<double>> p{{0.8, 0.1, 0.1}, {0.4, 0.4, 0.2}, {0.2, 0.7, 0.1}, {0.1, 0.8, 0.1},
                                           {0.1, 0.2, 0.7}, {0.3, 0.3, 0.4}, {1.0, 0.0, 0.0}};
  const auto counts = confusion_matrix(y, p, 3);
  const std::vector<std::vector<double>> expected{{2, 1, 0}, {0, 1, 1}, {0, 0, 1}};
  EXPECT_EQ(counts, expected);
  const ConfusionSummary s = summarise_confusion(counts);
  ASSERT_EQ(s.classes.size(), 3u);
  EXPECT_DOUBLE_EQ(s.classes[0].precision, 1.0);
  EXPECT_DOUBLE_EQ(s.classes[1].precision, 0.5);
  EXPECT_DOUBLE_EQ(s.classes[2].precision, 0.5);
  EXPECT_DOUBLE_EQ(s.classes[0].recall, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.classes[1].recall, 0.5);
  EXPECT_DOUBLE_EQ(s.classes[2].recall, 1.0);
  EXPECT_NEAR(s.classes[0].f1, 0.8, 1e-12);
  EXPECT_NEAR(s.classes[1].f1, 0.5, 1e-12);
  EXPECT_NEAR(s.classes[2].f1, 2.0 / 3, 1e-12);
  EXPECT_EQ(s.classes[0].support, 3.0);
  EXPECT_NEAR(s.macro_f1, (0.8 + 0.5 + 2.0 / 3) / 3, 1e-12);
  EXPECT_NEAR(s.kappa, 0.5, 1e-12);
  // A class never predicted has no precision (and no F1); one that never occurs has no recall.
  const ConfusionSummary none = summarise_confusion({{2, 0}, {1, 0}});
  EXPECT_TRUE(std::isnan(none.classes[1].precision));
  EXPECT_EQ(none.classes[1].recall, 0.0);
  EXPECT_TRUE(std::isnan(none.classes[1].f1));
  EXPECT_NEAR(none.macro_f1, 0.8, 1e-12);  // class 0 alone: precision 2/3, recall 1
  EXPECT_NEAR(none.kappa, 0.0, 1e-12);     // always the same class: no agreement beyond chance
}

// The floor of the ECE: for one bin of ten rows all given 0.7, the right top labels are Binomial(10, 0.7),
// so the floor is E|S - 7| / 10, the binomial's mean absolute deviation (de Moivre: 2 n C(n - 1, k - 1) p^k
// q^(n - k + 1) with k = np = 7) over 10: 2 C(9, 6) 0.7^7 0.3^4 = 0.1120677314 (SciPy's binom.pmf summed
// over |k - 7| gives the same).
TEST(Metrics, CalibratedEceIsTheBinomialMeanAbsoluteDeviationByHand) {
  const std::vector<std::vector<double>> same(10, {0.3, 0.7});
  const double by_hand = 2.0 * 84 * std::pow(0.7, 7) * std::pow(0.3, 4);
  EXPECT_NEAR(by_hand, 0.1120677314, 1e-9);
  EXPECT_NEAR(calibrated_ece(same), by_hand, 1e-12);
  // Certain predictions are exactly calibrated or not: no room for chance.
  EXPECT_EQ(calibrated_ece(std::vector<std::vector<double>>(5, {0.0, 1.0})), 0.0);
  // Two bins add their rows' shares: five rows at 0.7 and five at 0.95, against a direct sum.
  std::vector<std::vector<double>> two(5, {0.3, 0.7});
  two.insert(two.end(), 5, {0.95, 0.05});
  double expected = 0;
  for (double p : {0.7, 0.95}) {
    double deviation = 0;  // E|S - 5p| over Binomial(5, p), summed term by term
    const double choose[] = {1, 5, 10, 10, 5, 1};
    for (int k = 0; k <= 5; ++k) deviation += choose[k] * std::pow(p, k) * std::pow(1 - p, 5 - k) * std::abs(k - 5 * p);
    expected += deviation / 10;
  }
  EXPECT_NEAR(calibrated_ece(two), expected, 1e-12);
}

// It is what it says: the mean ECE of labels drawn from the predictions themselves (consistency resampling),
// here by drawing 20,000 times with compute_metrics, on predictions spread over every bin, on a bin of
// more than 4,096 rows (the normal form) and on three classes.
TEST(Metrics, CalibratedEceIsTheMeanEceOfLabelsDrawnFromThePredictions) {
  Rng rng(7);
  std::vector<std::vector<double>> proba;
  for (int i = 0; i < 60; ++i) {
    const double a = std::uniform_real_distribution<double>(0, 1)(rng),
                 b = std::uniform_real_distribution<double>(0, 1)(rng);
    const double c = std::uniform_real_distribution<double>(0, 1)(rng);
    proba.push_back({a / (a + b + c), b / (a + b + c), c / (a + b + c)});
  }
  proba.insert(proba.end(), 5000, {0.15, 0.85, 0.0});
  std::vector<std::discrete_distribution<int>> label;
  for (const auto& p : proba) label.emplace_back(p.begin(), p.end());
  const int draws = 4000;
  double sum = 0, squares = 0;
  std::vector<int> y(proba.size());
  for (int d = 0; d < draws; ++d) {
    for (std::size_t i = 0; i < proba.size(); ++i) y[i] = label[i](rng);
    const double ece = compute_metrics(y, proba).ece;
    sum += ece;
    squares += ece * ece;
  }
  const double mean = sum / draws, standard_error = std::sqrt((squares / draws - mean * mean) / draws);
  EXPECT_NEAR(calibrated_ece(proba), mean, 4 * standard_error) << "standard error " << standard_error;
  EXPECT_LT(standard_error, 0.01 * mean);  // the check is sharp: 4 standard errors are under 4% of the floor
  EXPECT_NEAR(compute_metrics(y, proba).ece_floor, calibrated_ece(proba), 0);
}

TEST(Folds, StratifiedPartitionIsCompleteBalancedAndSeeded) {
  std::vector<int> y;
  for (int i = 0; i < 103; ++i) y.push_back(i % 10 < 7 ? 0 : 1);
  auto folds = stratified_folds(y, 10, 42);
  std::set<std::size_t> all;
  for (const auto& f : folds) {
    int ones = 0;
    for (auto r : f) {
      EXPECT_TRUE(all.insert(r).second);
      ones += y[r];
    }
    EXPECT_GE(f.size(), 10u);
    EXPECT_LE(f.size(), 11u);
    EXPECT_GE(ones, 2);
    EXPECT_LE(ones, 4);
  }
  EXPECT_EQ(all.size(), y.size());
  EXPECT_EQ(stratified_folds(y, 10, 42), folds);
  EXPECT_NE(stratified_folds(y, 10, 43), folds);
  EXPECT_THROW(stratified_folds(y, 200, 1), std::invalid_argument);
}

TEST(CrossValidation, SameNumbersOnAnyThreadCount) {
  Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  auto one = cross_validate(d, p, 5, 2, 7, 1);
  auto two = cross_validate(d, p, 5, 2, 7, 2);
  ASSERT_EQ(one.folds.size(), 10u);
  for (std::size_t i = 0; i < one.folds.size(); ++i) {
    EXPECT_EQ(one.folds[i].metrics.accuracy, two.folds[i].metrics.accuracy);
    EXPECT_EQ(one.folds[i].metrics.log_loss, two.folds[i].metrics.log_loss);
    EXPECT_EQ(one.folds[i].rules, two.folds[i].rules);
  }
  // A real learner on a real problem: far above the majority rate (0.555).
  EXPECT_GT(one.mean.accuracy, 0.80);
  EXPECT_GT(one.mean.auc, 0.80);
}

// Each row's out-of-fold prediction is the prediction of the model its fold's training rows give, and the
// figures are those of all the rows as one test set.
TEST(CrossValidation, OutOfFoldPredictionsAreEachFoldModelsOnItsRows) {
  Dataset d = read_arff(test::shared("iris.arff"));
  LearnerParams p;
  p.learner = "cn2-unordered";
  const FoldResult pooled = out_of_fold_predictions(d, p, 5, 3, 2);
  ASSERT_EQ(pooled.proba.size(), d.rows());
  const auto split = stratified_folds(d.y, 5, 3);
  std::vector<std::vector<double>> by_hand(d.rows());
  for (const auto& fold : split) {
    std::vector<std::size_t> train;
    for (std::size_t r = 0; r < d.rows(); ++r)
      if (std::find(fold.begin(), fold.end(), r) == fold.end()) train.push_back(r);
    const auto model = fit_model(d.subset(train), p);
    for (std::size_t r : fold) by_hand[r] = model->predict_proba(d, r);
  }
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(pooled.proba[r], by_hand[r]) << "row " << r;
  const Metrics want = compute_metrics(d.y, by_hand);
  EXPECT_EQ(pooled.metrics.accuracy, want.accuracy);
  EXPECT_EQ(pooled.metrics.log_loss, want.log_loss);
  EXPECT_EQ(pooled.y, d.y);
  for (const auto& point : pooled.rule_points) EXPECT_EQ(point.rule, 0);
  EXPECT_FALSE(pooled.rule_points.empty());
  // Equal to cross_validate's folds: its mean accuracy, fold by fold, is the pooled one on equal folds.
  EXPECT_NEAR(cross_validate(d, p, 5, 1, 3, 1).mean.accuracy, pooled.metrics.accuracy, 1e-12);
}

// --evc-calibration shared: a fold's fit calibrates the whole data (the very calibration a fit of all the
// rows computes), only for the training set it was scoped to, and the numbers stay the same on any thread count.
TEST(CrossValidation, SharedCalibrationIsTheWholeDatasForItsFoldOnly) {
  const Dataset d = read_arff(test::repo("data/corpus/labor.arff"));
  LearnerParams p;
  p.learner = "cn2-unordered";
  p.correct = Correction::evc;
  const Dataset train = d.subset(rows_not_in(d.rows(), stratified_folds(d.y, 5, 3)[0]));
  const Dataset copy = train;
  const auto mu = [](const RuleModel& m) {
    std::vector<double> out;
    for (const auto& by_length : m.evc->laws)
      for (const auto& law : by_length) out.push_back(law.mu);
    return out;
  };
  const auto whole = mu(fit(d, p, 1));
  const auto own = mu(fit(train, p, 1));
  ASSERT_NE(whole, own);  // 57 against 45 rows: the laws differ
  FoldCalibrationScope::Clock clock;
  {
    FoldCalibrationScope scope(train, d, true, 2, clock);
    EXPECT_EQ(mu(fit(train, p, 1)), whole);
    EXPECT_TRUE(scope.calibrated());
    EXPECT_EQ(mu(fit(copy, p, 1)), own);  // another data set on the thread calibrates itself
  }
  {
    FoldCalibrationScope scope(train, d, false, 2, clock);
    EXPECT_EQ(mu(fit(train, p, 1)), own);
    EXPECT_TRUE(scope.calibrated());
    EXPECT_EQ(scope.seconds_sharing(), 0.0);
  }
  EXPECT_EQ(mu(fit(train, p, 1)), own);  // the scope ended
  // A fold of the fold (a fit's own cross-validation) shares what the fold shares, and alone its fold's.
  const Dataset inner = train.subset(rows_not_in(train.rows(), stratified_folds(train.y, 3, 3)[0]));
  const auto inner_own = mu(fit(inner, p, 1));
  ASSERT_NE(inner_own, own);
  {
    FoldCalibrationScope scope(train, d, true, 2, clock);
    FoldCalibrationScope nested(inner, train, true, 1, clock);
    EXPECT_EQ(mu(fit(inner, p, 1)), whole);
  }
  {
    FoldCalibrationScope scope(train, d, false, 2, clock);
    FoldCalibrationScope nested(inner, train, true, 1, clock);
    EXPECT_EQ(mu(fit(inner, p, 1)), own);
  }

  const auto one = cross_validate(d, p, 5, 1, 7, 1, false, FoldCalibration::shared);
  const auto two = cross_validate(d, p, 5, 1, 7, 2, false, FoldCalibration::shared);
  const auto per_fold = cross_validate(d, p, 5, 1, 7, 2, false, FoldCalibration::per_fold);
  ASSERT_EQ(one.folds.size(), 5u);
  for (std::size_t i = 0; i < one.folds.size(); ++i) {
    EXPECT_EQ(one.folds[i].metrics.log_loss, two.folds[i].metrics.log_loss);
    EXPECT_EQ(one.folds[i].rule_rmse, two.folds[i].rule_rmse);
    EXPECT_GT(one.folds[i].fit_seconds, 0.0);
  }
  EXPECT_EQ(one.evc_calibration, FoldCalibration::shared);
  EXPECT_EQ(per_fold.evc_calibration, FoldCalibration::per_fold);
  // Other laws, other probabilities: the folds' log loss moves.
  EXPECT_NE(one.mean.log_loss, per_fold.mean.log_loss);
  p.correct = Correction::none;
  EXPECT_FALSE(cross_validate(d, p, 5, 1, 7, 2, false, FoldCalibration::shared).evc_calibration.has_value());
}

TEST(TrainTest, UsesTheGivenSplit) {
  Dataset train = read_arff(test::shared("monks-1.train.arff"));
  LoadOptions o;
  o.schema = &train.schema;
  Dataset test = read_arff(test::shared("monks-1.test.arff"), o);
  LearnerParams p;
  auto r = train_test(train, test, p, 1);
  ASSERT_EQ(r.folds.size(), 1u);
  EXPECT_EQ(r.folds[0].test_rows, 432u);
  EXPECT_GT(r.mean.accuracy, 0.9);  // monks-1 is a DNF CN2 learns nearly exactly
}

TEST(BinomialInterval, ClopperPearsonHandValues) {
  // s = 0 of 10: [0, 1 - 0.025^(1/10)]; s = 10 of 10: [0.025^(1/10), 1].
  auto zero = clopper_pearson(0, 10);
  EXPECT_EQ(zero.first, 0.0);
  EXPECT_NEAR(zero.second, 1 - std::pow(0.025, 0.1), 1e-9);
  auto all = clopper_pearson(10, 10);
  EXPECT_NEAR(all.first, std::pow(0.025, 0.1), 1e-9);
  EXPECT_EQ(all.second, 1.0);
  // 5 of 10 (R's binom.test): 0.1870860 .. 0.8129140.
  auto half = clopper_pearson(5, 10);
  EXPECT_NEAR(half.first, 0.1870860, 1e-6);
  EXPECT_NEAR(half.second, 0.8129140, 1e-6);
  EXPECT_EQ(clopper_pearson(0, 0), std::make_pair(0.0, 1.0));
}
