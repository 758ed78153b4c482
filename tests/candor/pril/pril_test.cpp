// PrIL (paper 004): the reliability function's shapes, the exact binomial test, S(A_i) with its Poisson
// approximation, one subset elimination on a hand-made table, categories, the model file, undecided cases.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learners/pril/pril.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/model/pril_model.hpp"
#include "candor/pril/categories.hpp"
#include "candor/pril/reliability.hpp"
#include "candor/pril/subset_elimination.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

TEST(Pril, ReliabilityFunctionShapes) {
  const auto linear = reliability_levels(0.6, "linear", 5);
  ASSERT_EQ(linear.size(), 5u);
  const double expected[] = {0.92, 0.84, 0.76, 0.68, 0.6};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(linear[i], expected[i], 1e-12);
  // Two steps at x = 1/2 and 1: convex 0.6 + 0.4 / 4 = 0.7 (a large first step), concave 1 - 0.4 / 4 = 0.9.
  EXPECT_NEAR(reliability_levels(0.6, "convex", 2)[0], 0.7, 1e-12);
  EXPECT_NEAR(reliability_levels(0.6, "concave", 2)[0], 0.9, 1e-12);
  EXPECT_DOUBLE_EQ(reliability_levels(0.6, "concave", 2)[1], 0.6);
  EXPECT_THROW(reliability_levels(0.6, "wavy", 3), std::invalid_argument);
  EXPECT_THROW(reliability_levels(1.0, "linear", 3), std::invalid_argument);
}

TEST(Pril, ExactBinomialTest) {
  // 15 of 15 at r = 0.92: P(X >= 15) = 0.92^15 = 0.2863 (not reliable at 0.05); at 0.76: 0.76^15 = 0.0163.
  EXPECT_NEAR(binomial_upper_tail(15, 15, 0.92), 0.28629740407020515, 1e-12);
  EXPECT_FALSE(holds_reliability(15, 15, 0.92, 0.05));
  EXPECT_TRUE(holds_reliability(15, 15, 0.76, 0.05));
  // 19 of 20 at 0.8: 20 0.8^19 0.2 + 0.8^20 = 0.069175 (SciPy's binom.sf(18, 20, 0.8)).
  EXPECT_NEAR(binomial_upper_tail(19, 20, 0.8), 0.06917529027641088, 1e-12);
  EXPECT_DOUBLE_EQ(binomial_upper_tail(0, 20, 0.8), 1.0);
}

TEST(Pril, RuleSetSignificance) {
  // One rule, 19 of 20 at r = 0.8: X^2 = (16 - 19)^2 / (16 x 0.2) = 2.8125, S = chi2_1 cdf = 0.906467.
  EXPECT_NEAR(rule_set_statistic({{20, 19, 0.8}}), 2.8125, 1e-12);
  EXPECT_NEAR(rule_set_significance({{20, 19, 0.8}}), 0.9064674873109071, 1e-12);
  // r >= 0.99: no error among 200 at 0.99 is P(Poisson(2) <= 0) = e^-2 = 0.135335, whose chi2_1 value is
  // 2.230212; with a second rule of X^2 = 5 (20 of 20 at 0.8): S = chi2_2 cdf(7.230212) = 0.973086.
  EXPECT_NEAR(rule_set_statistic({{200, 200, 0.99}}), 2.230211931863234, 1e-9);
  EXPECT_NEAR(rule_set_significance({{200, 200, 0.99}, {20, 20, 0.8}}), 0.973085926908712, 1e-9);
  EXPECT_NEAR(rule_set_tail({{20, 20, 0.8}}), 1 - 0.9746526813225317, 1e-12);
}

// Attribute a: value 0 has 20 cases all of class 0, value 1 has 10 and 10, value 2 four of class 1 (too few
// for n = 5). Attribute b alternates and tells nothing.
struct HandTable {
  std::vector<std::vector<int>> codes{{}, {}};
  std::vector<int> y;
  std::vector<double> w;
  std::vector<std::size_t> rows;
  HandTable() {
    auto add = [&](int a, int klass) {
      codes[0].push_back(a);
      codes[1].push_back(static_cast<int>(y.size() % 2));
      y.push_back(klass);
      w.push_back(1);
      rows.push_back(rows.size());
    };
    for (int i = 0; i < 20; ++i) add(0, 0);
    for (int i = 0; i < 20; ++i) add(1, i % 4 < 2 ? 0 : 1);
    for (int i = 0; i < 4; ++i) add(2, 1);
  }
};

TEST(Pril, OneSubsetEliminationStepByHand) {
  const HandTable t;
  const std::vector<int> categories{3, 2};
  // a's rule set at r = 0.8: only "a = 0 -> class 0" (20 of 20: P = 0.8^20 = 0.0115 <= 0.05); a = 1 is 10 of
  // 20, a = 2 has too few cases. X^2 = (16 - 20)^2 / 3.2 = 5, S = 0.974653.
  const PrilRuleSet a = build_rule_set(t.codes, categories, t.y, t.w, t.rows, {0}, 2, {0.8, 0.8}, 5, 0.05);
  ASSERT_EQ(a.rules.size(), 1u);
  EXPECT_EQ(a.rules[0].values, std::vector<int>{0});
  EXPECT_EQ(a.rules[0].klass, 0);
  EXPECT_DOUBLE_EQ(a.rules[0].covered, 20);
  EXPECT_NEAR(a.significance, 0.9746526813225317, 1e-12);
  // b: each value holds 15 of 22 of class 0, short of 0.8.
  EXPECT_TRUE(build_rule_set(t.codes, categories, t.y, t.w, t.rows, {1}, 2, {0.8, 0.8}, 5, 0.05).rules.empty());
  // The elimination posts a's rule set, removes its 20 cases, finds nothing more (not even a pair) and, with
  // the n-option, still nothing for a = 2 (4 of 4 at 0.8: 0.8^4 = 0.41): 24 cases stay undecided.
  PrilSettings s;
  s.levels = {{0.8, 0.8}};
  s.max_attributes = 2;
  s.min_cases = 5;
  s.n_option = true;
  const auto posted = eliminate_subsets(t.codes, categories, t.y, t.w, t.rows, {0, 1}, 2, s);
  ASSERT_EQ(posted.size(), 1u);
  EXPECT_EQ(posted[0].attributes, std::vector<int>{0});
  // At 0.25, a = 1 qualifies for either class (10 of 20: P = 0.0139); the rule takes the larger count (a
  // tie: the first class). a's rule set (X^2 = 66.7 on 2 rules) beats b's (43.8), and with the n-option
  // a = 2 (4 of 4: 0.25^4 = 0.0039) gets its rule too: every case is decided.
  s.levels = {{0.25, 0.25}};
  const auto low = eliminate_subsets(t.codes, categories, t.y, t.w, t.rows, {0, 1}, 2, s);
  double covered = 0;
  for (const auto& set : low)
    for (const auto& r : set.rules) covered += r.covered;
  EXPECT_DOUBLE_EQ(covered, 44);
}

TEST(Pril, QuartileCategories) {
  const Dataset d = read_arff(test::shared("diabetes.arff"));
  const Categories c = categorise(d, test::all_rows(d), test::unit_weights(d), 4);
  // Each numeric attribute cut into at most four categories of about a quarter of the rows each.
  const std::size_t plas = static_cast<std::size_t>(d.schema.attribute_index("plas"));
  ASSERT_EQ(c.count[plas], 4);
  std::vector<int> n(4, 0);
  for (std::size_t r = 0; r < d.rows(); ++r) ++n[c.of(d, plas, r)];
  for (int k : n) EXPECT_NEAR(k, 192, 12);
}

TEST(Pril, ModelFileUndecidedCasesAndReliabilities) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "pril";
  const auto m = fit_model(d, p);
  const auto back = model_from_json(m->to_json(), "mem");
  EXPECT_EQ(back->to_json(), m->to_json());
  const auto j = m->to_json();
  const auto& rule = j["branches"][0]["sets"][0]["rules"][0];
  EXPECT_DOUBLE_EQ(rule["confidence"].get<double>(), 0.95);
  EXPECT_GT(rule["reliability"].get<double>(), 0.0);
  std::size_t undecided = 0;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    if (!m->decides(d, r)) {
      ++undecided;
      EXPECT_EQ(m->explain(d, r), std::vector<std::string>{"undecided"});
    }
    const auto q = m->predict_proba(d, r);
    EXPECT_NEAR(q[0] + q[1], 1.0, 1e-12);
  }
  EXPECT_GT(undecided, 0u);
  // The file states the training share left undecided under the evaluation's name; a file from before that
  // name ("training_undecided") reads to the same model.
  EXPECT_NEAR(j["training_undecided_rate"].get<double>(), static_cast<double>(undecided) / d.rows(), 1e-12);
  auto older = j;
  older["training_undecided"] = older["training_undecided_rate"];
  older.erase("training_undecided_rate");
  EXPECT_EQ(model_from_json(older, "older")->to_json(), j);
  // Every posted rule held its reliability on the training cases it covered when posted.
  for (const auto& b : dynamic_cast<const PrilModel&>(*m).branches)
    for (const auto& s : b.sets)
      for (const auto& r : s.rules) EXPECT_TRUE(holds_reliability(r.correct, r.covered, r.reliability, 0.05));
  // Evaluation: adjusted accuracy counts undecided cases as wrong.
  const auto ev = cross_validate(d, p, 5, 1, 1, 1);
  EXPECT_LE(ev.adjusted_accuracy, 1 - ev.undecided_rate + 1e-12);
  EXPECT_LT(ev.adjusted_accuracy, ev.mean.accuracy);
  EXPECT_GT(ev.undecided_rate, 0);
  ASSERT_FALSE(ev.training_statistics.empty());
  EXPECT_EQ(ev.training_statistics[0].first, "adjusted_average_reliability");
  // A rule whose value is out of range is refused.
  auto broken = m->to_json();
  broken["branches"][0]["sets"][0]["rules"][0]["values"][0] = 99;
  EXPECT_THROW(model_from_json(broken, "bad"), InputError);
}

TEST(Pril, OptionsAndBranching) {
  const Dataset d = read_arff(test::shared("vote.arff"));
  LearnerParams p;
  p.learner = "pril";
  p.options<PrilOptions>().branching_attributes = "physician-fee-freeze";
  const auto m = fit_model(d, p);
  EXPECT_EQ(dynamic_cast<const PrilModel&>(*m).branching,
            std::vector<int>{d.schema.attribute_index("physician-fee-freeze")});
  p.options<PrilOptions>().branching_attributes = "no-such";
  EXPECT_THROW(fit_model(d, p), std::invalid_argument);
  p.options<PrilOptions>().branching_attributes = "";
  p.options<PrilOptions>().reliability = "0.9,0.7";  // per class
  EXPECT_NO_THROW(fit_model(d, p));
  p.options<PrilOptions>().reliability = "0.9,0.7,0.5";
  EXPECT_THROW(fit_model(d, p), std::invalid_argument);
  p.options<PrilOptions>().reliability = "1.2";
  EXPECT_THROW(validate(p), std::invalid_argument);
  // The attribute most dependent on the class in vote is physician-fee-freeze.
  p.options<PrilOptions>().reliability = "0.6";
  const auto rows = test::all_rows(d);
  const Categories c = categorise(d, rows, test::unit_weights(d), 4);
  const auto pv = attribute_class_p_values(d, c, rows, test::unit_weights(d));
  EXPECT_EQ(std::min_element(pv.begin(), pv.end()) - pv.begin(), d.schema.attribute_index("physician-fee-freeze"));
  // So it is in the logit model of all main effects.
  const auto logit = main_effect_p_values(d, c, rows, test::unit_weights(d));
  EXPECT_EQ(std::min_element(logit.begin(), logit.end()) - logit.begin(),
            d.schema.attribute_index("physician-fee-freeze"));
  p.options<PrilOptions>().branching = -1;
  EXPECT_THROW(params_from_json({{"learner", "pril"}, {"branching", -1}, {"branching_test", "chi"}}),
               std::invalid_argument);
}

// Paper 004 chooses branching attributes by main effects in one logit model: an attribute that is related
// to the class only through another (here `echo`, a noisy copy of `cause`) is significant on its own but not
// once `cause` is in the model. Three classes: the multinomial model and its contrasts.
TEST(Pril, LogitMainEffectsAdjustForTheOtherAttributes) {
  std::string text =
      "@relation confounded\n@attribute cause {a,b,c}\n@attribute echo {a,b,c}\n"
      "@attribute noise {x,y}\n@attribute class {p,q,r}\n@data\n";
  std::uint32_t state = 12345;
  const auto next = [&state](std::uint32_t n) {
    state = state * 1664525U + 1013904223U;
    return (state >> 8) % n;
  };
  const char* values[] = {"a", "b", "c"};
  const char* classes[] = {"p", "q", "r"};
  for (int i = 0; i < 600; ++i) {
    const std::uint32_t cause = next(3);
    const std::uint32_t echo = next(10) < 8 ? cause : next(3);
    const std::uint32_t klass = next(10) < 7 ? cause : next(3);
    text += std::string(values[cause]) + "," + values[echo] + "," + (next(2) ? "x" : "y") + "," + classes[klass] + "\n";
  }
  const Dataset d = test::arff("confounded.arff", text);
  const auto rows = test::all_rows(d);
  const auto w = test::unit_weights(d);
  const Categories c = categorise(d, rows, w, 4);
  const auto alone = attribute_class_p_values(d, c, rows, w);
  const auto joint = main_effect_p_values(d, c, rows, w);
  EXPECT_LT(alone[0], 1e-10);
  EXPECT_LT(alone[1], 1e-10);  // echo looks as strong as a cause on its own
  EXPECT_LT(joint[0], 1e-10);
  EXPECT_GT(joint[1], 0.01);  // but adds nothing beside cause
  EXPECT_GT(joint[2], 0.01);
  LearnerParams p;
  p.learner = "pril";
  p.options<PrilOptions>().branching = -1;
  EXPECT_EQ(dynamic_cast<const PrilModel&>(*fit_model(d, p)).branching, std::vector<int>{0});
  p.options<PrilOptions>().branching_test = BranchingTest::association;
  EXPECT_EQ(dynamic_cast<const PrilModel&>(*fit_model(d, p)).branching, (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace candor
