// The ensembles of paper 001: one LIFT table and KBS reweighting (Theorem 1), one AdaBoost.M1 weight
// update, one LogitBoost step, all against hand-computed values; model files; multiclass behaviour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/learn/base_learner.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/tree/stump.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

using test::all_rows;
using test::arff;

// Ten rows: x <= 5 holds 4 A and 1 B, x > 5 holds 1 A and 4 B.
Dataset two_cells() {
  return arff("kbs.arff",
              "@relation k\n@attribute x numeric\n@attribute class {A,B}\n@data\n"
              "1,A\n2,A\n3,A\n4,A\n5,B\n6,A\n7,B\n8,B\n9,B\n10,B\n");
}

TEST(Kbs, LiftTableAndReweightingByHand) {
  const Dataset d = two_cells();
  const auto rows = all_rows(d);
  std::vector<double> w(10, 1.0);
  const Tree stump = grow_stump(d, rows, w);
  ASSERT_DOUBLE_EQ(stump.nodes[0].threshold, 4.5);  // the stump's best cut: x <= 4.5 is pure A
  // Cells: x <= 4.5 (4 A), x > 4.5 (1 A, 5 B), missing (empty). Prior 0.5 each.
  // LIFT(left, A) = (4/4) / 0.5 = 2, LIFT(left, B) = 0; LIFT(right, A) = (1/6) / 0.5 = 1/3, (right, B) = 5/3.
  const LiftTable t = kbs_lifts(stump, d, rows, w, 1.0);
  EXPECT_DOUBLE_EQ(t.raw[0][0], 2.0);
  EXPECT_DOUBLE_EQ(t.raw[0][1], 0.0);
  EXPECT_NEAR(t.raw[1][0], 1.0 / 3, 1e-15);
  EXPECT_NEAR(t.raw[1][1], 5.0 / 3, 1e-15);
  EXPECT_DOUBLE_EQ(t.raw[2][0], 1.0);  // an empty cell: LIFT 1
  // Smoothed with one pseudo-example of the prior: (4 + 0.5) / 5 / 0.5 = 1.8, (0 + 0.5) / 5 / 0.5 = 0.2.
  EXPECT_DOUBLE_EQ(t.smoothed[0][0], 1.8);
  EXPECT_DOUBLE_EQ(t.smoothed[0][1], 0.2);
  EXPECT_DOUBLE_EQ(t.smoothed[2][1], 1.0);
  // D_1 / LIFT: left A rows 1/2 each; right: the A row 3, B rows 3/5 each, in all 8: the left cell has no B
  // to gain weight, so the total shrinks (Theorem 1 keeps it only when every cell holds every class) and
  // is scaled back to 10 (x 1.25).
  kbs_reweight(stump, t, d, rows, w);
  EXPECT_NEAR(w[0], 0.625, 1e-12);
  EXPECT_NEAR(w[5], 3.75, 1e-12);
  EXPECT_NEAR(w[6], 0.75, 1e-12);
  EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 10.0, 1e-12);
  // Theorem 1 in the cell holding both classes: its class shares become the prior's (1/2 each), so the cell
  // tells nothing about the class.
  EXPECT_NEAR(w[5], w[6] + w[7] + w[8] + w[9] + w[4], 1e-12);
}

// On real data with missing values and a tree's fractional cells: D_{i+1} keeps the class totals and the
// cells' totals (constraints 2 and 3) and makes each cell's class shares the prior (constraint 1).
TEST(Kbs, ReweightingMeetsTheConstraintsOnRealData) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const auto rows = all_rows(d);
  std::vector<double> w(d.rows(), 1.0);
  const Tree stump = grow_stump(d, rows, w);
  const LiftTable t = kbs_lifts(stump, d, rows, w, 0.0);
  auto totals = [&](const std::vector<double>& weights) {
    std::vector<std::vector<double>> cell(stump.cells, std::vector<double>(2, 0.0));
    std::vector<std::pair<int, double>> route;
    for (std::size_t r = 0; r < d.rows(); ++r) {
      stump.cell_route(d, r, route);
      for (auto [c, f] : route) cell[c][d.y[r]] += f * weights[r];
    }
    return cell;
  };
  const auto before = totals(w);
  kbs_reweight(stump, t, d, rows, w);
  const auto after = totals(w);
  const double a0 = after[0][0] + after[1][0] + after[2][0], b0 = before[0][0] + before[1][0] + before[2][0];
  EXPECT_NEAR(a0, b0, 1e-9);
  for (int c = 0; c < stump.cells; ++c) {
    const double n = after[c][0] + after[c][1];
    EXPECT_NEAR(n, before[c][0] + before[c][1], 1e-9);
    if (n > 0) {
      EXPECT_NEAR(after[c][0] / n, b0 / d.rows(), 1e-9);
    }
  }
}

TEST(AdaBoost, OneWeightUpdateByHand) {
  // x <= 4.5 is A with no error; x > 4.5 is B with one error (row 6): e = 0.1, beta = 1/9, vote ln 9.
  const Dataset d = two_cells();
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().boosting = BoostingMethod::adaboost_m1;
  p.options<BoostOptions>().iterations = 2;
  const auto m = fit_model(d, p);
  const auto& b = dynamic_cast<const BoostModel&>(*m);
  ASSERT_GE(b.member_weights.size(), 1u);
  EXPECT_NEAR(b.member_weights[0], std::log(9.0), 1e-12);
  ASSERT_EQ(b.members.size(), 2u);
  // The misclassified row gains (1 - e) / e = 9, then all are scaled back to a total of 10: it holds half.
  // The second stump's counts are those weights: 9 correct rows of 5/9 each and row 6 with 5.
  const auto& root = b.members[1].nodes[0].class_counts;
  EXPECT_NEAR(root[0] + root[1], 10.0, 1e-12);
  EXPECT_NEAR(root[0], 4 * 5.0 / 9 + 5.0, 1e-12);  // A: rows 1-4 and the heavy row 6
  // The model file calls the vote what the rule table calls it; a file that calls it "weight", as files did
  // before, reads back to the same model.
  const auto file = m->to_json();
  EXPECT_NEAR(file["members"][0]["vote_weight"].get<double>(), std::log(9.0), 1e-12);
  auto older = file;
  for (auto& member : older["members"]) {
    member["weight"] = member["vote_weight"];
    member.erase("vote_weight");
  }
  EXPECT_EQ(model_from_json(older, "older")->to_json(), file);
}

TEST(AdaBoost, StopsAtZeroErrorKeepingTheFirstModel) {
  const Dataset d =
      arff("sep.arff", "@relation s\n@attribute x numeric\n@attribute class {A,B}\n@data\n1,A\n2,A\n3,B\n4,B\n");
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().boosting = BoostingMethod::adaboost_m1;
  const auto m = fit_model(d, p);
  const auto& b = dynamic_cast<const BoostModel&>(*m);
  EXPECT_EQ(b.members.size(), 1u);
  // One member: its leaf distribution (Laplace), not a vote.
  EXPECT_NEAR(m->predict_proba(d, 0)[0], 3.0 / 4, 1e-12);
}

TEST(LogitBoost, OneTwoClassStepByHand) {
  // From p = 1/2: z = 1/p = 2 for the second class, -2 for the first, w = (y* - p)/z = 1/4; a pure stump
  // fits f = +-2, F = f / 2 = +-1, and P(second class) = 1 / (1 + e^-2) = 0.880797.
  const Dataset d =
      arff("lb.arff", "@relation s\n@attribute x numeric\n@attribute class {A,B}\n@data\n1,A\n2,A\n3,B\n4,B\n");
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the method's own scores
  p.options<BoostOptions>().boosting = BoostingMethod::logitboost;
  p.options<BoostOptions>().iterations = 1;
  const auto m = fit_model(d, p);
  EXPECT_NEAR(m->predict_proba(d, 3)[1], 1 / (1 + std::exp(-2.0)), 1e-12);
  EXPECT_NEAR(m->predict_proba(d, 0)[0], 1 / (1 + std::exp(-2.0)), 1e-12);
  // A second round: p = 0.880797 on every row, z clamped at 1/p = 1.1353 (below 3); F grows by 1.1353 / 2.
  p.options<BoostOptions>().iterations = 2;
  const auto m2 = fit_model(d, p);
  const double p1 = 1 / (1 + std::exp(-2.0));
  EXPECT_NEAR(m2->predict_proba(d, 3)[1], 1 / (1 + std::exp(-2 * (1 + 0.5 / p1))), 1e-12);
}

TEST(LogitBoost, OneThreeClassStepByHand) {
  // p = 1/3: a class's own rows get z = min(1/p, 3) = 3, the others z = -1/(1 - p) = -1.5, all weight 2/9.
  // A pure stump per class fits f = (3, -1.5, -1.5) for a row of the first class; F_j = 2/3 (f_j - mean f) =
  // (2, -1, -1); P = e^2 / (e^2 + 2 e^-1) = 0.909443.
  const Dataset d = arff(
      "lb3.arff", "@relation s\n@attribute a {u,v,w}\n@attribute class {A,B,C}\n@data\nu,A\nu,A\nv,B\nv,B\nw,C\nw,C\n");
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the method's own scores
  p.options<BoostOptions>().boosting = BoostingMethod::logitboost;
  p.options<BoostOptions>().iterations = 1;
  const auto m = fit_model(d, p);
  EXPECT_EQ(dynamic_cast<const BoostModel&>(*m).per_iteration, 3);
  const auto q = m->predict_proba(d, 0);
  EXPECT_NEAR(q[0], std::exp(2.0) / (std::exp(2.0) + 2 * std::exp(-1.0)), 1e-12);
  EXPECT_NEAR(q[1], q[2], 1e-15);
}

TEST(Boost, EveryKindRoundTripsThroughItsModelFileAndExplains) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  for (const std::string boosting : {"kbs", "adaboost-m1", "logitboost"})
    for (const std::string base : {"stump", "tree", "rule"}) {
      if (boosting == "logitboost" && base != "stump") continue;
      LearnerParams p;
      p.learner = "boost";
      p.options<BoostOptions>().boosting = parse_boosting(boosting);
      p.options<BoostOptions>().base = parse_base_learner(base);
      p.options<BoostOptions>().iterations = 4;
      const auto m = fit_model(d, p);
      const auto back = model_from_json(m->to_json(), "mem");
      EXPECT_EQ(back->to_json(), m->to_json()) << boosting << " " << base;
      for (std::size_t r = 0; r < d.rows(); r += 11) {
        const auto q = m->predict_proba(d, r);
        EXPECT_EQ(q, back->predict_proba(d, r));
        EXPECT_NEAR(q[0] + q[1], 1.0, 1e-12);
        EXPECT_TRUE(q[0] > 0 && q[1] > 0) << boosting << " " << base;
      }
      EXPECT_FALSE(m->explain(d, 0).empty()) << boosting << " " << base;
      EXPECT_NE(model_text(*m).find("Member 1"), std::string::npos);
    }
}

// KBS over trees multiplies the LIFTs of pure leaves: on soybean the plain softmax of its scores gives classes
// seen in training probabilities down to 1e-27 (a class never seen gets exactly 0). Predictions keep every
// class about 1e-12 away from 0 and 1 (Model's contract: no class is ruled out).
TEST(Boost, NoClassIsRuledOutEvenWhenTheScoresAreExtreme) {
  const Dataset d = read_arff(test::shared("soybean.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the method's own scores
  p.options<BoostOptions>().base = BaseLearner::tree;
  p.options<BoostOptions>().iterations = 10;
  p.multiclass = MulticlassForm::softmax;
  const auto fitted = fit_model(d, p);
  const auto& m = dynamic_cast<const BoostModel&>(*fitted);
  std::size_t plain_below_edge = 0;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    std::vector<double> score = m.base_scores();
    for (const auto& member : m.contributions(d, r))
      for (std::size_t c = 0; c < score.size(); ++c) score[c] += member[c];
    const auto plain = BoostModel::softmax(score);
    for (std::size_t c = 0; c < plain.size(); ++c) plain_below_edge += plain[c] < 1e-12 && m.training_counts[c] > 0;
    const auto q = m.predict_proba(d, r);
    EXPECT_NEAR(std::accumulate(q.begin(), q.end(), 0.0), 1.0, 1e-12);
    for (double x : q) EXPECT_TRUE(x > 0.5e-12 && x < 1) << "row " << r << ": " << x;
  }
  EXPECT_GT(plain_below_edge, 0u);  // the edge this test is about occurs
}

TEST(Boost, OptionsOfOtherLearnersAreRefused) {
  LearnerParams p;
  p.learner = "boost";
  p.options<TreeOptions>().confidence = 0.1;  // a tree option with --base stump
  EXPECT_THROW(validate(p), std::invalid_argument);
  p.options<BoostOptions>().base = BaseLearner::tree;
  EXPECT_NO_THROW(validate(p));
  p.options<BoostOptions>().boosting = BoostingMethod::logitboost;
  EXPECT_THROW(validate(p), std::invalid_argument);  // logitboost fits regression stumps only
  LearnerParams cn2;
  cn2.options<BoostOptions>().iterations = 5;
  EXPECT_THROW(validate(cn2), std::invalid_argument);
  LearnerParams tree;
  tree.learner = "tree";
  tree.heuristics.quality = "laplace";
  EXPECT_THROW(validate(tree), std::invalid_argument);
  tree.heuristics.quality.reset();
  tree.options<TreeOptions>().confidence = 0.7;
  EXPECT_THROW(validate(tree), std::invalid_argument);
}

// Weka's AdaBoostM1 over DecisionStump collapses on multiclass data (a stump rarely reaches weighted error
// below 0.5, so boosting stops after one member); KBS and LogitBoost have no such limit.
TEST(Boost, MulticlassKbsAndLogitBoostImproveOnOneStump) {
  const Dataset d = read_arff(test::shared("segment.arff"));
  LearnerParams p;
  p.learner = "stump";
  const double stump = cross_validate(d, p, 5, 1, 1, 2).mean.accuracy;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the methods' own votes (calibration: below)
  p.options<BoostOptions>().boosting = BoostingMethod::kbs;
  const double kbs = cross_validate(d, p, 5, 1, 1, 2).mean.accuracy;
  p.options<BoostOptions>().boosting = BoostingMethod::logitboost;
  const double logit = cross_validate(d, p, 5, 1, 1, 2).mean.accuracy;
  EXPECT_GT(kbs, stump + 0.2);
  EXPECT_GT(logit, stump + 0.2);
}

// --multiclass one-vs-rest: one binary KBS run per class. The first member of class c is the stump of the
// binary problem (c against the rest) on the starting weights, its table holds that class's smoothed LIFT
// ratio (one pseudo-example of the rarer side) and 1 elsewhere, and a row's scores are the classes' prior log odds plus
// their members' log ratios.
TEST(Kbs, OneVsRestRunsOneBinaryEnsemblePerClass) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the method's own scores
  p.multiclass = MulticlassForm::one_vs_rest;
  p.options<BoostOptions>().iterations = 3;
  const auto fitted = fit_model(d, p);
  const auto& m = dynamic_cast<const BoostModel&>(*fitted);
  ASSERT_EQ(m.member_classes.size(), m.members.size());
  EXPECT_TRUE(std::is_sorted(m.member_classes.begin(), m.member_classes.end()));
  const auto rows = all_rows(d);
  const auto weights = test::unit_weights(d);
  for (int c = 0; c < 3; ++c) {
    const auto first = std::find(m.member_classes.begin(), m.member_classes.end(), c) - m.member_classes.begin();
    ASSERT_LT(static_cast<std::size_t>(first), m.members.size()) << "class " << c;
    Dataset binary = d;
    binary.schema.class_attribute.values = {"rest", "class"};
    for (auto& y : binary.y) y = y == c ? 1 : 0;
    const Tree stump = grow_stump(binary, rows, weights);
    // Smoothed by pseudo-examples holding prior_weight of the rarer side: 3 x prior_weight on iris.
    const LiftTable lifts = kbs_lifts(stump, binary, rows, weights, 3 * p.prior_weight);
    const auto& table = m.lifts[static_cast<std::size_t>(first)];
    ASSERT_EQ(table.size(), lifts.smoothed.size());
    for (std::size_t cell = 0; cell < table.size(); ++cell)
      for (int k = 0; k < 3; ++k)
        EXPECT_DOUBLE_EQ(table[cell][static_cast<std::size_t>(k)],
                         k == c ? lifts.smoothed[cell][1] / lifts.smoothed[cell][0] : 1.0)
            << "class " << c << " cell " << cell;
    // The member's tree counts every class under its distribution.
    const auto& root = m.members[static_cast<std::size_t>(first)].nodes[0].class_counts;
    EXPECT_EQ(root, (std::vector<double>{50, 50, 50}));
  }
  // Setosa is separated by one test: its first member's cells are pure (setosa only, the rest only), both
  // decide, and no row is left for a second setosa member.
  const auto setosa = std::count(m.member_classes.begin(), m.member_classes.end(), 0);
  EXPECT_EQ(setosa, 1);
  EXPECT_EQ(m.decided_cells[0].size(), 2u);
  const auto prior = m.prior();
  for (std::size_t r = 0; r < d.rows(); r += 7) {
    std::vector<double> score(3);
    for (std::size_t c = 0; c < 3; ++c) score[c] = std::log(prior[c] / (1 - prior[c]));
    std::vector<std::pair<int, double>> cells;
    std::vector<bool> decided(3, false);
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      m.members[i].cell_route(d, r, cells);
      ASSERT_EQ(cells.size(), 1u);  // iris has no missing values
      const auto c = static_cast<std::size_t>(m.member_classes[i]);
      const int cell = cells[0].first;
      if (decided[c]) continue;  // an earlier member of the class decided the row
      score[c] += std::log(m.lifts[i][static_cast<std::size_t>(cell)][c]);
      const auto& own = m.decided_cells[i];
      decided[c] = std::find(own.begin(), own.end(), cell) != own.end();
    }
    const auto expected = BoostModel::softmax(score);
    const auto q = m.predict_proba(d, r);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(q[c], expected[c], 1e-12) << "row " << r;
  }
  // The model file names each member's class; it reads back to the same model, and a member without its
  // class is refused.
  const auto back = model_from_json(m.to_json(), "mem");
  EXPECT_EQ(back->to_json(), m.to_json());
  EXPECT_EQ(m.to_json()["learner"]["multiclass"], "one-vs-rest");
  EXPECT_EQ(m.to_json()["settings"]["multiclass"], "one-vs-rest");
  EXPECT_NE(model_text(m).find("(Iris-setosa against the rest)"), std::string::npos);
  auto broken = m.to_json();
  broken["members"][1].erase("against_rest");
  EXPECT_THROW(model_from_json(broken, "bad"), InputError);
  // Files written before the member's class took the rule table's name, "against_rest", call it "class".
  auto older = m.to_json();
  for (auto& member : older["members"]) {
    member["class"] = member["against_rest"];
    member.erase("against_rest");
  }
  EXPECT_EQ(model_from_json(older, "older")->to_json(), m.to_json());
  // A kbs model file from before --multiclass reached kbs does not name it; it is one softmax ensemble.
  p.multiclass = MulticlassForm::softmax;
  const auto softmax = fit_model(d, p);
  auto old_file = softmax->to_json();
  EXPECT_EQ(old_file["learner"]["multiclass"], "softmax");
  EXPECT_EQ(old_file["settings"]["multiclass"], "softmax");
  old_file.erase("settings");  // written before models recorded their settings
  old_file["learner"].erase("multiclass");
  const auto old_model = model_from_json(old_file, "old");
  EXPECT_EQ(old_model->to_json()["settings"], softmax->to_json()["settings"]);
  EXPECT_EQ(old_model->to_json()["members"], softmax->to_json()["members"]);
  EXPECT_EQ(old_model->predict_proba(d, 60), softmax->predict_proba(d, 60));
  // Only KBS among the ensembles reads --multiclass.
  p.multiclass = MulticlassForm::one_vs_rest;
  p.options<BoostOptions>().boosting = BoostingMethod::adaboost_m1;
  EXPECT_THROW(validate(p), std::invalid_argument);
  p.options<BoostOptions>().boosting = BoostingMethod::kbs;
  EXPECT_THROW(set_option_text(p, "multiclass", "ovr"), std::invalid_argument);
}

// KBS over two-way stumps is weak on many classes (segment, 7 classes); one binary run per class, the
// default, is not.
TEST(Kbs, OneVsRestHoldsOnManyClasses) {
  const Dataset d = read_arff(test::shared("segment.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().calibrate = BoostCalibration::none;  // the forms themselves, not their calibration
  const double one_vs_rest = cross_validate(d, p, 5, 1, 1, 2).mean.accuracy;  // the default over stumps
  p.multiclass = MulticlassForm::softmax;
  const double softmax = cross_validate(d, p, 5, 1, 1, 2).mean.accuracy;
  EXPECT_GT(one_vs_rest, softmax + 0.05);
  EXPECT_GT(one_vs_rest, 0.88);
}

TEST(Boost, SubsamplesAreSeeded) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "boost";
  p.options<BoostOptions>().base = BaseLearner::tree;
  p.options<BoostOptions>().subsample = 0.3;
  const std::string a = fit_model(d, p)->to_json().dump();
  EXPECT_EQ(a, fit_model(d, p)->to_json().dump());
  p.seed = 2;
  EXPECT_NE(a, fit_model(d, p)->to_json().dump());
}

// The defaults measured in docs/boosting.md ("The defaults"): every ensemble discount-calibrated, KBS one
// ensemble over all classes (softmax) over calibrated trees and one per class otherwise, a tree's leaves
// shrunk out of bag and a stump's and an ensemble's members' Laplace. Each default model is the one its
// options spelled out give, down to the fitted temperature and discount: the internal folds of the
// calibration fit the model's own form (an ensemble fitted there with the one-vs-rest form of an
// uncalibrated tree ensemble gave glass another temperature and discount).
TEST(Boost, DefaultsAreTheMeasuredChoices) {
  const Dataset glass = read_arff(test::shared("glass.arff"));
  const auto learner_of = [](const Model& m) { return m.to_json().at("learner"); };
  LearnerParams trees;
  trees.learner = "boost";
  trees.options<BoostOptions>().base = BaseLearner::tree;
  trees.options<BoostOptions>().iterations = 4;
  const auto by_default = fit_model(glass, trees, 2);
  LearnerParams spelled = trees;
  spelled.multiclass = MulticlassForm::softmax;
  spelled.options<BoostOptions>().calibrate = BoostCalibration::discount;
  spelled.options<TreeOptions>().leaf_estimate = LeafEstimateOption::laplace;
  const auto explicit_model = fit_model(glass, spelled, 2);
  EXPECT_EQ(by_default->to_json(), explicit_model->to_json());
  EXPECT_EQ(learner_of(*by_default)["multiclass"], "softmax");
  EXPECT_EQ(learner_of(*by_default)["calibrate"], "discount");
  EXPECT_EQ(learner_of(*by_default)["leaf_estimate"], "laplace");
  EXPECT_TRUE(by_default->to_json().contains("member_discount"));

  // Over stumps, or over trees without calibration, one ensemble per class.
  LearnerParams stumps = trees;
  stumps.options<BoostOptions>().base = BaseLearner::stump;
  EXPECT_EQ(stumps.resolved_multiclass(), MulticlassForm::one_vs_rest);
  LearnerParams plain_trees = trees;
  plain_trees.options<BoostOptions>().calibrate = BoostCalibration::none;
  EXPECT_EQ(plain_trees.resolved_multiclass(), MulticlassForm::one_vs_rest);
  EXPECT_EQ(learner_of(*fit_model(glass, plain_trees, 2)).contains("calibrate"), false);

  // A single tree's leaves are shrunk out of bag by default, a stump's are Laplace's.
  const Dataset vote = read_arff(test::shared("vote.arff"));
  LearnerParams tree;
  tree.learner = "tree";
  tree.bootstrap_resamples = 5;
  const auto t = fit_model(vote, tree, 2)->to_json();
  EXPECT_EQ(t.at("learner").at("leaf_estimate"), "bootstrap");
  EXPECT_TRUE(t.contains("leaf_shrinkage"));
  LearnerParams stump;
  stump.learner = "stump";
  const auto s = fit_model(vote, stump, 2)->to_json();
  EXPECT_EQ(s.at("learner").at("leaf_estimate"), "laplace");
  EXPECT_FALSE(s.contains("leaf_shrinkage"));
}

}  // namespace
}  // namespace candor
