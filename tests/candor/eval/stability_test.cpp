#include <gtest/gtest.h>

#include <algorithm>

#include "candor/data/quantiles.hpp"
#include "candor/data/resampling.hpp"
#include "candor/eval/stability.hpp"
#include "candor/learn/fit.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

TEST(Stability, QuantileGridTakesTheValuesAtRanksCeilKNOverQ) {
  std::string rows;
  for (int i = 1; i <= 10; ++i) rows += std::to_string(i) + "," + (i % 2 ? "p" : "n") + "\n";
  rows += "?,p\n";  // missing values are left out
  const Dataset d = test::arff("grid.arff", "@relation r\n@attribute x numeric\n@attribute c {p,n}\n@data\n" + rows);
  // n = 10, q = 4: ranks ceil(10/4) = 3, ceil(20/4) = 5, ceil(30/4) = 8.
  EXPECT_EQ(quantile_grid(d, 4)[0], (std::vector<double>{3, 5, 8}));
  // q = 20: ranks ceil(k / 2) for k = 1 .. 19 repeat each of 1 .. 10; duplicates are dropped.
  EXPECT_EQ(quantile_grid(d, 20)[0], (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(Stability, RuleKeysSnapThresholdsAndMergeBounds) {
  const Dataset d = test::arff("keys.arff",
                               "@relation r\n@attribute x numeric\n@attribute k {a,b}\n@attribute c {p,n}\n@data\n"
                               "1,a,p\n2,b,n\n");
  RuleModel m;
  m.schema = d.schema;
  m.training_counts = {1, 1};
  auto rule = [](std::vector<Condition> conditions, int klass) {
    Rule r;
    r.conditions = std::move(conditions);
    r.klass = klass;
    return r;
  };
  m.rules = {rule({{0, Op::le, 0, 2.6}}, 0),                       // snaps to 3
             rule({{0, Op::le, 0, 2.9}}, 0),                       // the same rule after snapping
             rule({{0, Op::le, 0, 2.9}}, 1),                       // another class: another rule
             rule({{0, Op::gt, 0, 1.1}, {0, Op::gt, 0, 4.4}}, 0),  // the tighter bound: > 5
             rule({{0, Op::gt, 0, 5.2}, {1, Op::eq, 1, 0}}, 0),    // order of conditions does not matter
             rule({{1, Op::eq, 1, 0}, {0, Op::gt, 0, 4.9}}, 0)};
  const std::vector<std::vector<double>> grid{{1, 3, 5, 7}, {}};
  const auto keys = rule_keys(m, grid);
  ASSERT_EQ(keys.size(), 6u);
  EXPECT_EQ(keys[0], keys[1]);
  EXPECT_NE(keys[1], keys[2]);
  EXPECT_EQ(keys[3], "0>5;=>0");
  EXPECT_EQ(keys[4], keys[5]);
  EXPECT_EQ(keys[0], "0<=3;=>0");
}

TEST(Stability, OverlapIsTheDiceSorensenIndex) {
  EXPECT_DOUBLE_EQ(rule_set_overlap({"x", "y", "z"}, {"w", "y", "z"}), 2.0 * 2 / 6);
  EXPECT_DOUBLE_EQ(rule_set_overlap({"x"}, {"y"}), 0.0);
  EXPECT_DOUBLE_EQ(rule_set_overlap({}, {}), 1.0);
  EXPECT_DOUBLE_EQ(rule_set_overlap({"a", "b"}, {"a", "b"}), 1.0);
}

TEST(Stability, AStumpOnASeparatingAttributeIsStableAndTheSameOnAnyThreadCount) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "stump";
  StabilityOptions o;
  o.resamples = 8;
  o.threads = 1;
  const StabilityResult one = measure_stability(d, p, o);
  // Every bootstrap stump splits on A9, at the one boundary of a nominal attribute: the same three leaves.
  EXPECT_DOUBLE_EQ(one.rule_set_stability, 1.0);
  EXPECT_DOUBLE_EQ(one.prediction_agreement, 1.0);
  EXPECT_EQ(one.rule_frequency, (std::vector<double>{1, 1, 1}));
  EXPECT_GT(one.probability_spread, 0.0);

  p.learner = "cn2-unordered";
  o.threads = 1;
  const StabilityResult a = measure_stability(d, p, o);
  o.threads = 2;
  const StabilityResult b = measure_stability(d, p, o);
  EXPECT_EQ(a.rule_set_stability, b.rule_set_stability);
  EXPECT_EQ(a.prediction_agreement, b.prediction_agreement);
  EXPECT_EQ(a.probability_spread, b.probability_spread);
  EXPECT_EQ(a.rule_frequency, b.rule_frequency);
  // A covering learner's rule sets change from resample to resample (the reason to measure it).
  EXPECT_LT(a.rule_set_stability, 0.5);
  EXPECT_GT(a.prediction_agreement, 0.8);
  // A different seed draws different resamples.
  o.seed = 2;
  EXPECT_NE(measure_stability(d, p, o).probability_spread, a.probability_spread);
}

TEST(Stability, AModelKeepsItsRecordThroughItsFileAndItsRuleTable) {
  const Dataset d = read_arff(test::shared("labor.arff"));
  LearnerParams p;
  p.learner = "tree";
  auto m = fit_model(d, p);
  StabilityOptions o;
  o.resamples = 5;
  m->stability = measure_stability(d, p, o, m.get());
  // Given the fitted model, the figures are those of a fit inside.
  const StabilityResult again = measure_stability(d, p, o);
  EXPECT_EQ(m->stability->rule_frequency, again.rule_frequency);
  EXPECT_EQ(m->stability->rule_set_stability, again.rule_set_stability);
  const auto back = model_from_text(m->to_json().dump(), "m.json");
  ASSERT_TRUE(back->stability);
  EXPECT_EQ(back->stability->resampling, "bootstrap");
  EXPECT_EQ(back->stability->rule_frequency, m->stability->rule_frequency);
  EXPECT_EQ(back->to_json().dump(), m->to_json().dump());
  const auto table = rule_table_with_stability(*back);
  ASSERT_EQ(table.size(), m->stability->rule_frequency.size());
  for (std::size_t k = 0; k < table.size(); ++k) EXPECT_EQ(table[k]["frequency"], m->stability->rule_frequency[k]);
  // Without a record the file has no entry and the table no column.
  m->stability.reset();
  EXPECT_FALSE(m->to_json().contains("stability"));
  EXPECT_FALSE(rule_table_with_stability(*m)[0].contains("frequency"));
}

// --resampling folds, SIRUS's protocol: the learner on the B training sets of a stratified B-fold
// cross-validation. Checked by hand: each training set is all rows but one fold of stratified_folds, and the
// rule-set stability is the mean Dice-Sorensen index of those fits' rule sets. Training sets that share
// (B - 2) / (B - 1) of their rows disagree less than bootstrap resamples do.
TEST(Stability, FoldsAreTheTrainingSetsOfAStratifiedCrossValidation) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "cn2-unordered";
  StabilityOptions o;
  o.resamples = 5;
  o.resampling = StabilityResampling::folds;
  const StabilityResult folds = measure_stability(d, p, o);
  EXPECT_EQ(folds.resampling, "folds");
  const auto grid = quantile_grid(d, o.quantiles);
  std::vector<std::vector<std::string>> keys;
  for (const auto& fold : stratified_folds(d.y, o.resamples, o.seed)) {
    const auto training = rows_not_in(d.rows(), fold);
    EXPECT_NEAR(static_cast<double>(training.size()), 0.8 * static_cast<double>(d.rows()), 1.0);
    auto k = rule_keys(*fit_model(d.subset(training), p, 1), grid);
    std::sort(k.begin(), k.end());
    k.erase(std::unique(k.begin(), k.end()), k.end());
    keys.push_back(k);
  }
  double sum = 0;
  int pairs = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j, ++pairs) sum += rule_set_overlap(keys[i], keys[j]);
  EXPECT_DOUBLE_EQ(folds.rule_set_stability, sum / pairs);
  o.resampling = StabilityResampling::bootstrap;
  EXPECT_GT(folds.rule_set_stability, measure_stability(d, p, o).rule_set_stability);
  EXPECT_EQ(parse_stability_resampling("folds"), StabilityResampling::folds);
}

TEST(Stability, RefusesFewerThanTwoResamples) {
  const Dataset d = read_arff(test::shared("labor.arff"));
  StabilityOptions o;
  o.resamples = 1;
  EXPECT_THROW(measure_stability(d, LearnerParams{}, o), std::invalid_argument);
  EXPECT_THROW(parse_stability_resampling("jackknife"), std::invalid_argument);
}

}  // namespace
}  // namespace candor
