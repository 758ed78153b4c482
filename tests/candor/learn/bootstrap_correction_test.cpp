// --correct bootstrap (learn/bootstrap_correction.cpp): the shrinkage, its fit, and what a fit records.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/learn/bootstrap_correction.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/random.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {
LearnerParams bootstrap_params(const std::string& learner = "cn2-unordered") {
  LearnerParams p;
  p.learner = learner;
  p.correct = Correction::bootstrap;
  p.bootstrap_resamples = 10;
  return p;
}
}  // namespace

TEST(BootstrapCorrection, ShrinkageByHand) {
  // (s + m prior) / (n + m): 10 of 10 with m = 10 towards 0.5 is 15 / 20.
  EXPECT_DOUBLE_EQ(shrunk_probability(10, 10, 0.5, 10), 0.75);
  EXPECT_DOUBLE_EQ(shrunk_probability(3, 4, 0.2, 0), 0.75);
  EXPECT_DOUBLE_EQ(shrunk_probability(0, 0, 0.3, 0), 0.3);
}

TEST(BootstrapCorrection, FittedMMatchesTheLeftOutShareByHand) {
  // One rule, 10 of 10 in the bag, 3 of 4 out of it, prior 0.5: the likelihood peaks where the shrunk
  // probability is 3/4, (10 + 0.5 m) / (10 + m) = 0.75, m = 10.
  std::vector<OutOfBagRule> one{{10, 10, 0.5, 2, 3, 4}};
  EXPECT_NEAR(fit_shrinkage_m(one, 1000), 10.0, 1e-3);
  // Two rules: 8 of 10 (prior 0.4) scoring 6 of 10 out of bag and 20 of 20 (prior 0.5) scoring 9 of 10.
  // The likelihood's derivative in m, by hand: zero where sum (S - N p) dp/dm / (p (1 - p)) = 0 with
  // dp/dm = (prior n - s) / (n + m)^2; checked by bisection on that derivative.
  std::vector<OutOfBagRule> two{{8, 10, 0.4, 1, 6, 10}, {20, 20, 0.5, 1, 9, 10}};
  auto derivative = [&](double m) {
    double d = 0;
    for (const auto& r : two) {
      const double p = shrunk_probability(r.s, r.n, r.prior, m);
      const double dp = (r.prior * r.n - r.s) / ((r.n + m) * (r.n + m));
      d += (r.oob_s - r.oob_n * p) / (p * (1 - p)) * dp;
    }
    return d;
  };
  double lo = 0, hi = 1000;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (derivative(mid) > 0 ? lo : hi) = mid;
  }
  EXPECT_NEAR(fit_shrinkage_m(two, 1000), lo, 1e-3 * std::max(1.0, lo));
  // Rules that hold out of bag as well as in it need no shrinkage at all.
  std::vector<OutOfBagRule> honest{{10, 10, 0.5, 1, 5, 5}, {20, 20, 0.3, 2, 7, 7}};
  EXPECT_EQ(fit_shrinkage_m(honest, 1000), 0.0);
  // Rules without left-out rows say nothing: the fit is the same without them.
  auto with_empty = two;
  with_empty.push_back({5, 5, 0.5, 1, 0, 0});
  EXPECT_DOUBLE_EQ(fit_shrinkage_m(with_empty, 1000), fit_shrinkage_m(two, 1000));
}

TEST(BootstrapCorrection, NoiseRulesAreShrunkToThePriorAndRealOnesKept) {
  // Class independent of every attribute: whatever the search finds is noise, and the out-of-bag rows say so.
  Dataset d;
  d.source = "noise";
  Rng rng(7);
  for (int a = 0; a < 4; ++a)
    d.schema.attributes.push_back(Attribute{"x" + std::to_string(a), AttributeType::numeric, {}});
  d.schema.class_attribute = Attribute{"class", AttributeType::nominal, {"a", "b"}};
  d.columns.resize(4);
  for (int r = 0; r < 300; ++r) {
    for (int a = 0; a < 4; ++a) d.columns[a].values.push_back(uniform01(rng));
    d.y.push_back(uniform01(rng) < 0.5 ? 1 : 0);
    d.weights.push_back(1.0);
    d.lines.push_back(0);
  }
  LearnerParams p = bootstrap_params();
  p.rule_covering.stop = Stopping::none;
  const RuleModel noise = fit(d, p, 2);
  ASSERT_TRUE(noise.bootstrap);
  ASSERT_FALSE(noise.rules.empty());
  const auto prior = noise.prior();
  for (const auto& r : noise.rules) {
    const auto& c = noise.estimated_on(r);
    const double f = c[r.klass] / (c[0] + c[1]);
    // Every rule moves most of the way from its frequency to its prior.
    EXPECT_LT(std::abs(r.probability - prior[r.klass]), 0.5 * std::abs(f - prior[r.klass]) + 1e-12);
  }
  // With --stop prior a noise rule that falls to the prior is dropped; iris's setosa rule stays near 1.
  const RuleModel iris = fit(read_arff(test::shared("iris.arff")), bootstrap_params(), 2);
  ASSERT_FALSE(iris.rules.empty());
  EXPECT_GT(iris.rules.front().probability, 0.95);
  for (const auto& r : iris.rules) {
    EXPECT_GT(r.probability, iris.prior()[r.klass]);
    EXPECT_LE(r.interval.first, r.probability);
    EXPECT_GE(r.interval.second, r.probability);
  }
}

TEST(BootstrapCorrection, SameModelOnAnyThreadCountAndThroughTheModelFile) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const RuleModel one = fit(d, bootstrap_params(), 1);
  const RuleModel two = fit(d, bootstrap_params(), 2);
  EXPECT_EQ(one.to_json().dump(), two.to_json().dump());
  const auto j = one.to_json();
  EXPECT_EQ(j.at("learner").at("correct"), "bootstrap");
  EXPECT_EQ(j.at("learner").at("bootstrap_resamples"), 10);
  EXPECT_EQ(j.at("bootstrap").at("resamples"), 10);
  const RuleModel back = RuleModel::from_json(j);
  EXPECT_EQ(back.to_json().dump(), j.dump());
  // A model whose file lost its shrinkage, or holds a bad one, is refused naming it.
  auto lost = j;
  lost.erase("bootstrap");
  EXPECT_THROW(RuleModel::from_json(lost), std::invalid_argument);
  auto bad = j;
  bad["bootstrap"]["pooled_m"] = -1;
  try {
    RuleModel::from_json(bad);
    FAIL() << "a negative m was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(json_error_text(bad, e), "/bootstrap/pooled_m: pooled_m must be finite and non-negative");
  }
  // Other models' files do not name the option they do not read.
  LearnerParams evc = bootstrap_params();
  evc.correct = Correction::evc;
  EXPECT_FALSE(fit(d, evc, 2).to_json().at("learner").contains("bootstrap_resamples"));
}

TEST(BootstrapCorrection, ParametersChecked) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  LearnerParams few = bootstrap_params();
  few.bootstrap_resamples = 1;
  EXPECT_THROW(fit(d, few), std::invalid_argument);
  EXPECT_THROW(fit_model(d, bootstrap_params("tree")), std::invalid_argument);
  // rule-logistic's rules take the bootstrap's probabilities (its gamma penalty reads them).
  const auto rl = fit_model(d, bootstrap_params("rule-logistic"), 2);
  EXPECT_EQ(rl->to_json().at("rule_model").at("bootstrap").at("resamples"), 10);
}

TEST(BootstrapCorrection, LeafShrinkageMatchesTheLeftOutSharesByHand) {
  // One leaf, 8 and 2 in the bag, 1 and 1 out of it, prior (0.5, 0.5): the multinomial likelihood peaks
  // where (8 + 0.5 m) / (10 + m) = 0.5, which no finite m reaches; with 3 and 1 out of it, where it is 0.75:
  // 8 + 0.5 m = 7.5 + 0.75 m, m = 2.
  std::vector<OutOfBagLeaf> leaf{{{8, 2}, {3, 1}}};
  EXPECT_NEAR(fit_leaf_shrinkage_m(leaf, {0.5, 0.5}, 1000), 2.0, 1e-3);
  // A leaf whose left-out shares equal its drawn ones needs none.
  std::vector<OutOfBagLeaf> honest{{{6, 2, 0}, {3, 1, 0}}};
  EXPECT_EQ(fit_leaf_shrinkage_m(honest, {0.4, 0.4, 0.2}, 1000), 0.0);
}

TEST(BootstrapCorrection, TreeLeavesShrunkOutOfBag) {
  const Dataset d = read_arff(test::shared("soybean.arff"));
  LearnerParams p;
  p.learner = "tree";
  p.options<TreeOptions>().leaf_estimate = LeafEstimateOption::bootstrap;
  p.bootstrap_resamples = 10;
  const auto model = fit_model(d, p, 2);
  const auto j = model->to_json();
  ASSERT_TRUE(j.contains("leaf_shrinkage"));
  const double m = j.at("leaf_shrinkage").at("m").get<double>();
  EXPECT_GT(m, 0.0);
  // On held-out folds it beats J48's Laplace leaves, which add one example to each of soybean's 19 classes.
  LearnerParams laplace = p;
  laplace.options<TreeOptions>().leaf_estimate = LeafEstimateOption::laplace;
  const double shrunk = cross_validate(d, p, 3, 1, 1, 2).mean.log_loss;
  const double plain = cross_validate(d, laplace, 3, 1, 1, 2).mean.log_loss;
  EXPECT_LT(shrunk, 0.7 * plain) << shrunk << " against " << plain;
  EXPECT_EQ(j.at("learner").at("bootstrap_resamples"), 10);
  // Soybean's leaves are borne out; weather's 14 rows bear out none of J48's leaves: m reaches its bound,
  // every leaf predicts close to the prior, and the text says so.
  const std::string bound_note = "That m is the largest the fit allows";
  EXPECT_EQ(model_text(*model).find(bound_note), std::string::npos);
  LearnerParams toy_params;
  toy_params.learner = "tree";
  const Dataset weather = read_arff(test::shared("weather.nominal.arff"));
  const auto toy = fit_model(weather, toy_params);
  const auto& toy_tree = dynamic_cast<const TreeModel&>(*toy);
  ASSERT_TRUE(toy_tree.leaf_shrinkage);
  EXPECT_DOUBLE_EQ(toy_tree.leaf_shrinkage->m, LeafShrinkage::largest_m(14));
  EXPECT_NE(model_text(*toy).find(bound_note), std::string::npos) << model_text(*toy);
  // Each leaf's counts mixed with m pseudo-examples of the training prior with one example added to every
  // class: checked by hand on the rows that reach one leaf.
  const auto& tree = dynamic_cast<const TreeModel&>(*model);
  const auto& totals = tree.training_counts;
  const double total = std::accumulate(totals.begin(), totals.end(), 0.0), k = static_cast<double>(totals.size());
  std::vector<std::pair<int, double>> route;
  int checked = 0;
  for (std::size_t r = 0; r < d.rows(); r += 7) {
    tree.tree.route(d, r, route);
    if (route.size() != 1) continue;
    const auto& counts = tree.tree.nodes[route[0].first].class_counts;
    const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
    if (!(n > 0)) continue;
    const auto p_row = model->predict_proba(d, r);
    for (std::size_t c = 0; c < counts.size(); ++c)
      EXPECT_NEAR(p_row[c], (counts[c] + m * (totals[c] + 1) / (total + k)) / (n + m), 1e-12) << r << " " << c;
    ++checked;
  }
  EXPECT_GT(checked, 50);
  // Threads never change it; the model file keeps it; a file that lost it is refused.
  EXPECT_EQ(fit_model(d, p, 1)->to_json().dump(), j.dump());
  EXPECT_EQ(TreeModel::from_json(j).to_json().dump(), j.dump());
  auto lost = j;
  lost.erase("leaf_shrinkage");
  EXPECT_THROW(TreeModel::from_json(lost), std::invalid_argument);
  // Fewer than two resamples are refused for a tree as for a rule learner.
  LearnerParams one = p;
  one.bootstrap_resamples = 1;
  EXPECT_THROW(fit_model(d, one), std::invalid_argument);
  // Ensembles do not take it.
  LearnerParams boost = p;
  boost.learner = "boost";
  boost.options<BoostOptions>().base = BaseLearner::tree;
  EXPECT_THROW(fit_model(d, boost), std::invalid_argument);
}

TEST(TemperatureCalibration, ScoresScaledByTheFittedTemperatureAndNoClassMoves) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the plain ensemble
  p.options<BoostOptions>().boosting = BoostingMethod::adaboost_m1;
  p.options<BoostOptions>().base = BaseLearner::tree;
  p.options<BoostOptions>().iterations = 5;
  LearnerParams calibrated = p;
  calibrated.options<BoostOptions>().calibrate = BoostCalibration::temperature;
  const auto plain = fit_model(d, p, 2);
  const auto fitted = fit_model(d, calibrated, 2);
  const auto& m = dynamic_cast<const BoostModel&>(*fitted);
  ASSERT_GT(m.temperature, 0);
  ASSERT_NE(m.temperature, 1);
  // The same members (the internal folds only fit the scale); each probability the softmax of the scaled
  // scores, by hand; the most probable class never changes.
  EXPECT_EQ(dynamic_cast<const BoostModel&>(*plain).members.size(), m.members.size());
  for (std::size_t r = 0; r < d.rows(); r += 11) {
    std::vector<double> s = m.base_scores();
    for (const auto& member : m.contributions(d, r))
      for (std::size_t c = 0; c < s.size(); ++c) s[c] += member[c];
    const double z = std::exp(m.temperature * s[0]) + std::exp(m.temperature * s[1]);
    const auto proba = fitted->predict_proba(d, r);
    EXPECT_NEAR(proba[1], std::exp(m.temperature * s[1]) / z, 1e-12) << r;
    const auto before = plain->predict_proba(d, r);
    EXPECT_EQ(proba[1] > proba[0], before[1] > before[0]) << r;
  }
  // AdaBoost.M1's vote is far too sure of itself: held-out log loss falls by more than half, accuracy stays.
  const auto cv_plain = cross_validate(d, p, 5, 1, 1, 2), cv_cal = cross_validate(d, calibrated, 5, 1, 1, 2);
  EXPECT_LT(cv_cal.mean.log_loss, 0.5 * cv_plain.mean.log_loss) << cv_cal.mean.log_loss;
  EXPECT_EQ(cv_cal.mean.accuracy, cv_plain.mean.accuracy);
  // The model file keeps the temperature; a calibrated file without it is refused.
  auto j = fitted->to_json();
  EXPECT_EQ(BoostModel::from_json(j).to_json().dump(), j.dump());
  j.erase("temperature");
  EXPECT_THROW(BoostModel::from_json(j), std::invalid_argument);
  EXPECT_FALSE(plain->to_json().contains("temperature"));
  EXPECT_FALSE(plain->to_json().at("learner").contains("calibrate"));
}

// --calibrate discount fits, with the temperature, a factor g by which the members of round k count g^k
// times. On glass (six classes) KBS over trees in the softmax form has later members that held-out rows
// trust less: g is fitted below 1, and held out it beats the temperature alone on log loss and accuracy
// (docs/boosting.md, "Discounted rounds").
TEST(TemperatureCalibration, DiscountCountsRoundKByAFittedFactorToTheK) {
  const Dataset d = read_arff(test::shared("glass.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the plain ensemble
  p.options<BoostOptions>().boosting = BoostingMethod::kbs;
  p.options<BoostOptions>().base = BaseLearner::tree;
  p.multiclass = MulticlassForm::softmax;
  LearnerParams temperature = p, discount = p;
  temperature.options<BoostOptions>().calibrate = BoostCalibration::temperature;
  discount.options<BoostOptions>().calibrate = BoostCalibration::discount;
  const auto plain = fit_model(d, p, 2);
  const auto fitted = fit_model(d, discount, 2);
  const auto& m = dynamic_cast<const BoostModel&>(*fitted);
  const auto& q = dynamic_cast<const BoostModel&>(*plain);
  ASSERT_GT(m.temperature, 0);
  ASSERT_GT(m.member_discount, 0);
  ASSERT_LT(m.member_discount, 1);
  // The plain fit's members; each probability the softmax of t x (base + sum of g^k x member k's log LIFTs).
  ASSERT_EQ(q.members.size(), m.members.size());
  for (std::size_t r = 0; r < d.rows(); r += 7) {
    std::vector<double> s = q.base_scores();
    const auto parts = q.contributions(d, r);
    for (std::size_t i = 0; i < parts.size(); ++i)
      for (std::size_t c = 0; c < s.size(); ++c)
        s[c] += std::pow(m.member_discount, static_cast<double>(i)) * parts[i][c];
    double z = 0;
    for (double v : s) z += std::exp(m.temperature * v);
    const auto proba = fitted->predict_proba(d, r);
    for (std::size_t c = 0; c < s.size(); ++c)
      EXPECT_NEAR(proba[c], std::exp(m.temperature * s[c]) / z, 1e-9) << r << " " << c;
  }
  const auto cv_temp = cross_validate(d, temperature, 5, 1, 1, 2), cv_disc = cross_validate(d, discount, 5, 1, 1, 2);
  EXPECT_LT(cv_disc.mean.log_loss, cv_temp.mean.log_loss);
  EXPECT_GT(cv_disc.mean.accuracy, cv_temp.mean.accuracy);
  // The model file keeps both numbers; a file without the factor, or with one outside [0, 1], is refused.
  auto j = fitted->to_json();
  EXPECT_EQ(BoostModel::from_json(j).to_json().dump(), j.dump());
  EXPECT_NE(model_text(*fitted).find("count " + fixed_digits(m.member_discount, 4) + "^k times"), std::string::npos);
  auto wrong = j;
  wrong["member_discount"] = 1.5;
  EXPECT_THROW(BoostModel::from_json(wrong), std::invalid_argument);
  j.erase("member_discount");
  EXPECT_THROW(BoostModel::from_json(j), std::invalid_argument);
  EXPECT_FALSE(plain->to_json().contains("member_discount"));
  // One-vs-rest: a member's round is its place in its class's run, not in the ensemble.
  LearnerParams ovr = discount;
  ovr.multiclass = MulticlassForm::one_vs_rest;
  ovr.options<BoostOptions>().iterations = 3;
  const auto ovr_model = fit_model(d, ovr, 2);
  const auto& o = dynamic_cast<const BoostModel&>(*ovr_model);
  std::map<int, std::size_t> seen;
  const auto rounds = o.member_rounds();
  ASSERT_EQ(rounds.size(), o.members.size());
  for (std::size_t i = 0; i < o.members.size(); ++i) EXPECT_EQ(rounds[i], seen[o.member_classes[i]]++) << i;
  EXPECT_GT(seen.size(), 2U);
  // g < 1 is kept only when twice the held-out log-likelihood gain exceeds chi-squared(1)'s 95% quantile,
  // 3.8415 (R: qchisq(0.95, 1)).
  EXPECT_FALSE(discount_rejects_full_rounds(100.0, 100.0 - 1.92));
  EXPECT_TRUE(discount_rejects_full_rounds(100.0, 100.0 - 1.921));
  EXPECT_FALSE(discount_rejects_full_rounds(100.0, 101.0));
}

// --calibrate smoothing fits only the pseudo-examples of KBS's prediction LIFTs: the members are the plain
// fit's, and the LIFTs are exactly those of a plain fit with that --prior-weight, in the softmax form (two
// classes) and in one-vs-rest (many). Pure training leaves make the plain LIFT product far too sure: the
// fitted smoothing is several pseudo-examples and the held-out log loss falls by more than half on credit-a.
TEST(TemperatureCalibration, KbsLiftSmoothingIsFittedOnInternalFolds) {
  for (const char* name : {"credit-a.arff", "iris.arff"}) {
    SCOPED_TRACE(name);
    const Dataset d = read_arff(test::shared(name));
    LearnerParams p;
    p.learner = "boost";
    p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the plain ensemble
    p.options<BoostOptions>().boosting = BoostingMethod::kbs;
    p.options<BoostOptions>().base = BaseLearner::tree;
    p.options<BoostOptions>().iterations = 5;
    LearnerParams calibrated = p;
    calibrated.options<BoostOptions>().calibrate = BoostCalibration::smoothing;
    const auto fitted = fit_model(d, calibrated, 2);
    const auto& m = dynamic_cast<const BoostModel&>(*fitted);
    ASSERT_GT(m.lift_prior_weight, 0);
    ASSERT_NE(m.lift_prior_weight, p.prior_weight);
    LearnerParams same = p;
    same.prior_weight = m.lift_prior_weight;
    const auto plain = fit_model(d, same, 2);
    const auto& q = dynamic_cast<const BoostModel&>(*plain);
    ASSERT_EQ(q.members.size(), m.members.size());
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      EXPECT_EQ(q.members[i].to_json(), m.members[i].to_json());
      EXPECT_EQ(q.lifts[i], m.lifts[i]);
    }
    // The model file keeps the fitted weight; a calibrated file without it is refused.
    auto j = fitted->to_json();
    EXPECT_EQ(BoostModel::from_json(j).to_json().dump(), j.dump());
    EXPECT_NE(model_text(*fitted).find("pseudo-examples of the prior per cell"), std::string::npos);
    j.erase("lift_prior_weight");
    EXPECT_THROW(BoostModel::from_json(j), std::invalid_argument);
    EXPECT_FALSE(plain->to_json().contains("lift_prior_weight"));
  }
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the plain ensemble
  p.options<BoostOptions>().boosting = BoostingMethod::kbs;
  p.options<BoostOptions>().base = BaseLearner::tree;
  LearnerParams calibrated = p;
  calibrated.options<BoostOptions>().calibrate = BoostCalibration::smoothing;
  const auto cv_plain = cross_validate(d, p, 5, 1, 1, 2), cv_cal = cross_validate(d, calibrated, 5, 1, 1, 2);
  EXPECT_LT(cv_cal.mean.log_loss, 0.5 * cv_plain.mean.log_loss) << cv_cal.mean.log_loss;
  // Only KBS has LIFTs to smooth.
  calibrated.options<BoostOptions>().boosting = BoostingMethod::adaboost_m1;
  EXPECT_THROW(validate(calibrated), std::invalid_argument);
}
