// Decision trees and stumps: C4.5's pruning bound against hand-computed values, J48's trees on the shared
// corpus, fractional instances for missing values, Weka's DecisionStump, regression stumps, model files.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/learn/base_learner.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/tree/c45.hpp"
#include "candor/tree/stump.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

using test::all_rows;
using test::arff;
using test::unit_weights;

TEST(C45, AddedErrorsMatchHandComputedValues) {
  // No error among 6: 6 (1 - 0.25^(1/6)) = 1.23780 (the exact binomial bound).
  EXPECT_NEAR(c45_added_errors(6, 0, 0.25), 6 * (1 - std::pow(0.25, 1.0 / 6)), 1e-12);
  EXPECT_NEAR(c45_added_errors(6, 0, 0.25), 1.2377968440954012, 1e-12);
  // One error among 6: z = 0.674490 (the normal's 75% quantile), f = 1.5 / 6, Wilson's upper bound
  // r = (f + z^2/12 + z sqrt(f/6 - f^2/6 + z^2/144)) / (1 + z^2/6) = 0.383918; 6 r - 1 = 1.30351.
  EXPECT_NEAR(c45_added_errors(6, 1, 0.25), 1.303506557968256, 1e-9);
  // Half an error: halfway between the 0 and 1 error values.
  EXPECT_NEAR(c45_added_errors(6, 0.5, 0.25), (1.2377968440954012 + 1.303506557968256) / 2, 1e-9);
  EXPECT_NEAR(c45_added_errors(14, 5, 0.25), 1.7611198072729675, 1e-9);
  // Within 0.5 of n errors: n - e.
  EXPECT_NEAR(c45_added_errors(3, 2.6, 0.25), 0.4, 1e-12);
}

// The weather data's J48 tree, as every textbook prints it.
TEST(C45, WeatherTreeIsJ48s) {
  const Dataset d = read_arff(test::shared("weather.nominal.arff"));
  const Tree t = grow_c45(d, all_rows(d), unit_weights(d), C45Options{});
  const std::string text = t.text(d.schema);
  EXPECT_EQ(text,
            "outlook = sunny\n"
            "|   humidity = high: no (3)\n"
            "|   humidity = normal: yes (2)\n"
            "outlook = overcast: yes (4)\n"
            "outlook = rainy\n"
            "|   windy = TRUE: no (2)\n"
            "|   windy = FALSE: yes (3)\n");
  EXPECT_EQ(t.leaf_count(), 5u);
  EXPECT_EQ(t.size(), 8u);
}

// A value the model never saw (read against its schema, it is coded past the known values) goes down the
// tree as a missing value does; it used to index past the node's children (found by fuzzing).
TEST(C45, AValueNeverSeenGoesDownAsAMissingValue) {
  const Dataset d = read_arff(test::shared("weather.nominal.arff"));
  const auto model = fit_model(
      d,
      [] {
        LearnerParams p;
        p.learner = "tree";
        return p;
      }(),
      1);
  LoadOptions o;
  o.schema = &model->schema;
  o.require_labels = false;
  const std::string header = "outlook,temperature,humidity,windy,play\n";
  const Dataset test = parse_csv(header +
                                     "cloudy,hot,high,FALSE,?\n?,hot,high,FALSE,?\nfoggy,mild,normal,TRUE,?\n"
                                     ",mild,normal,TRUE,?\n",
                                 "t.csv", o);
  ASSERT_EQ(test.columns[0].codes[0], 3);  // past sunny, overcast, rainy
  EXPECT_EQ(model->predict_proba(test, 0), model->predict_proba(test, 1));
  EXPECT_EQ(model->predict_proba(test, 2), model->predict_proba(test, 3));
  EXPECT_NE(model->predict_proba(test, 0), model->predict_proba(test, 2));
}

TEST(C45, IrisTreeIsJ48s) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  const Tree t = grow_c45(d, all_rows(d), unit_weights(d), C45Options{});
  // Weka 3.6's J48 on iris (thresholds moved down to training values).
  EXPECT_EQ(t.text(d.schema),
            "petalwidth <= 0.6: Iris-setosa (50)\n"
            "petalwidth > 0.6\n"
            "|   petalwidth <= 1.7\n"
            "|   |   petallength <= 4.9: Iris-versicolor (48/1)\n"
            "|   |   petallength > 4.9\n"
            "|   |   |   petalwidth <= 1.5: Iris-virginica (3)\n"
            "|   |   |   petalwidth > 1.5: Iris-versicolor (3/1)\n"
            "|   petalwidth > 1.7: Iris-virginica (46/1)\n");
}

// Leaves and nodes of Weka 3.6's J48 (default options) on the whole file, measured with
// `java -cp /usr/share/java/weka.jar weka.classifiers.trees.J48 -t FILE -no-cv`: nominal and numeric
// attributes, missing values, pruning with subtree raising all take part.
TEST(C45, TreeSizesAreJ48sOnTheCorpus) {
  struct Case {
    const char* name;
    std::size_t leaves, size;
  };
  for (const Case& c :
       {Case{"anneal", 35, 47}, Case{"audiology", 32, 54}, Case{"autos", 49, 69}, Case{"cmc", 157, 263},
        Case{"credit-g", 103, 140}, Case{"hepatitis", 11, 21}, Case{"hypothyroid", 15, 29}, Case{"soybean", 61, 93},
        Case{"vote", 6, 11}, Case{"primary-tumor", 47, 88}, Case{"sick", 34, 61}}) {
    const Dataset d = read_arff(test::shared(std::string(c.name) + ".arff"));
    const Tree t = grow_c45(d, all_rows(d), unit_weights(d), C45Options{});
    EXPECT_EQ(t.leaf_count(), c.leaves) << c.name;
    EXPECT_EQ(t.size(), c.size) << c.name;
  }
}

TEST(C45, UnprunedGrowsAtLeastAsLarge) {
  const Dataset d = read_arff(test::shared("credit-g.arff"));
  C45Options unpruned;
  unpruned.prune = false;
  const Tree pruned_tree = grow_c45(d, all_rows(d), unit_weights(d), C45Options{});
  const Tree full = grow_c45(d, all_rows(d), unit_weights(d), unpruned);
  EXPECT_GT(full.leaf_count(), pruned_tree.leaf_count());
  C45Options harsh;
  harsh.confidence = 0.01;
  EXPECT_LT(grow_c45(d, all_rows(d), unit_weights(d), harsh).leaf_count(), pruned_tree.leaf_count());
}

// A missing value goes down every branch with the branch's share of the known weight, in training and in
// prediction.
TEST(C45, MissingValuesAreFractionalInstances) {
  const Dataset d = arff("frac.arff",
                         "@relation f\n@attribute a {x,y}\n@attribute class {A,B}\n@data\n"
                         "x,A\nx,A\nx,A\nx,A\nx,A\nx,A\ny,B\ny,B\n?,A\n");
  C45Options o;
  o.min_leaf = 1;
  o.prune = false;
  const Tree t = grow_c45(d, all_rows(d), unit_weights(d), o);
  ASSERT_EQ(t.nodes[0].split, SplitKind::nominal);
  // Known weights 6 (x) and 2 (y): the missing row adds 0.75 of A to x and 0.25 to y.
  const auto& x = t.nodes[t.nodes[0].children[0]].class_counts;
  const auto& y = t.nodes[t.nodes[0].children[1]].class_counts;
  EXPECT_DOUBLE_EQ(x[0], 6.75);
  EXPECT_DOUBLE_EQ(x[1], 0.0);
  EXPECT_DOUBLE_EQ(y[0], 0.25);
  EXPECT_DOUBLE_EQ(y[1], 2.0);
  // Prediction for the missing row with counts (no smoothing): 0.75 (1, 0) + 0.25 (1/9, 8/9).
  const auto p = t.predict_proba(d, 8, LeafEstimate::counts, 0.0, {0.5, 0.5});
  EXPECT_NEAR(p[0], 0.75 + 0.25 * 0.25 / 2.25, 1e-12);
  EXPECT_NEAR(p[1], 0.25 * 2 / 2.25, 1e-12);
  std::vector<std::pair<int, double>> route;
  t.route(d, 8, route);
  ASSERT_EQ(route.size(), 2u);
  EXPECT_DOUBLE_EQ(route[0].second, 0.75);
}

TEST(Stump, BestSplitWithAThirdBranchForMissingValues) {
  const Dataset d = arff("stump.arff",
                         "@relation s\n@attribute x numeric\n@attribute c {a,b}\n@attribute class {A,B}\n@data\n"
                         "1,a,A\n2,b,A\n3,a,A\n4,b,B\n5,a,B\n6,b,B\n?,a,A\n");
  const Tree t = grow_stump(d, all_rows(d), unit_weights(d));
  ASSERT_EQ(t.nodes[0].split, SplitKind::numeric);
  EXPECT_DOUBLE_EQ(t.nodes[0].threshold, 3.5);
  EXPECT_EQ(t.nodes[0].missing_child, 2);
  EXPECT_EQ(t.nodes[1].class_counts, (std::vector<double>{3, 0}));
  EXPECT_EQ(t.nodes[2].class_counts, (std::vector<double>{0, 3}));
  EXPECT_EQ(t.nodes[3].class_counts, (std::vector<double>{1, 0}));
  EXPECT_EQ(t.cells, 3);
  // Rows of weight 0 take no part; weights count as copies (class counts are weights).
  std::vector<double> w = unit_weights(d);
  w[0] = w[1] = w[2] = 0;
  w[3] = 2.5;
  const Tree weighted = grow_stump(d, all_rows(d), w);
  EXPECT_EQ(weighted.nodes[0].class_counts, (std::vector<double>{1, 4.5}));
}

TEST(Stump, MissingBranchWithoutTrainingWeightPredictsTheWholeSet) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  const Tree t = grow_stump(d, all_rows(d), unit_weights(d));
  EXPECT_EQ(t.text(d.schema),
            "petallength <= 2.45: Iris-setosa (50)\n"
            "petallength > 2.45: Iris-versicolor (100/50)\n"
            "petallength = ?: Iris-setosa (0)\n");
  const auto parents = t.parents();
  EXPECT_EQ(t.effective_counts(3, parents), (std::vector<double>{50, 50, 50}));
}

TEST(Stump, RegressionLeavesHoldWeightedMeans) {
  const Dataset d =
      arff("reg.arff", "@relation r\n@attribute x numeric\n@attribute class {A,B}\n@data\n1,A\n2,A\n3,B\n4,B\n?,A\n");
  const std::vector<double> z{1, 2, 10, 12, 5};
  const std::vector<double> w{1, 3, 1, 1, 2};
  const Tree t = grow_regression_stump(d, all_rows(d), w, z);
  EXPECT_DOUBLE_EQ(t.nodes[0].threshold, 2.5);
  EXPECT_DOUBLE_EQ(t.nodes[1].value_mean, (1 * 1 + 3 * 2) / 4.0);
  EXPECT_DOUBLE_EQ(t.nodes[2].value_mean, 11.0);
  EXPECT_DOUBLE_EQ(t.nodes[3].value_mean, 5.0);
  EXPECT_DOUBLE_EQ(t.predict_value(d, 4), 5.0);
}

// A path that tests one attribute twice reads as one interval, as a rule's conditions do; the leaves are
// written in the style of rules, their counts as sums of weights.
TEST(TreeModel, LeafRulesMergeTheTestsOfOneAttribute) {
  const Dataset d = test::arff("twice.arff",
                               "@relation w\n@attribute b numeric\n@attribute c {p,n}\n@data\n"
                               "1,p,{2.5}\n2,p,{0.5}\n1.5,p\n3,n\n4,n,{3}\n3.5,n\n5,n\n6,p\n");
  LearnerParams params;
  params.learner = "tree";
  params.options<TreeOptions>().min_leaf = 1;
  params.options<TreeOptions>().leaf_estimate = LeafEstimateOption::laplace;  // the J48 -A shares the text shows
  const auto m = fit_model(d, params);
  const std::string text = model_text(*m);
  EXPECT_NE(text.find("1. IF b <= 2 THEN c = p\n   covers 4 [4, 0]  P(p) = 0.8333\n"), std::string::npos) << text;
  EXPECT_NE(text.find("2. IF 2 < b <= 5 THEN c = n\n   covers 6 [0, 6]  P(n) = 0.8750\n"), std::string::npos) << text;
  EXPECT_NE(text.find("3. IF b > 5 THEN c = p\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("b > 2 AND b > 5"), std::string::npos);
  EXPECT_EQ(m->rule_table()[1]["rule"], "2 < b <= 5");

  LearnerParams cn2;
  cn2.learner = "cn2-unordered";
  const std::string rules = model_text(*fit_model(d, cn2));
  EXPECT_NE(rules.find("8 rows, 1 attributes, class 'c' weights [5, 6] for (p, n)"), std::string::npos) << rules;
  EXPECT_NE(rules.find("The training data is weighted: every count (covers, class counts, n) is a sum of example "
                       "weights, not rows."),
            std::string::npos);
}

TEST(TreeModel, FileRoundTripAndLeavesAsRules) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "tree";
  const auto m = fit_model(d, p);
  const auto back = model_from_json(m->to_json(), "mem");
  EXPECT_EQ(back->kind_name(), "tree");
  for (std::size_t r = 0; r < d.rows(); r += 7) EXPECT_EQ(m->predict_proba(d, r), back->predict_proba(d, r));
  const std::string text = model_text(*m);
  EXPECT_NE(text.find("Leaves as rules"), std::string::npos);
  EXPECT_NE(text.find("1. IF "), std::string::npos);
  EXPECT_EQ(m->rule_count(), dynamic_cast<const TreeModel&>(*m).tree.leaf_count());
  // Laplace leaves: every probability strictly inside (0, 1).
  for (std::size_t r = 0; r < d.rows(); ++r)
    for (double q : m->predict_proba(d, r)) ASSERT_TRUE(q > 0 && q < 1);
  // A tree file whose child points back up is refused.
  auto j = m->to_json();
  j["tree"]["nodes"][0]["children"][0] = 0;
  EXPECT_THROW(model_from_json(j, "bad"), InputError);
}

TEST(RuleTree, CoveredAndUncoveredCells) {
  const Dataset d = read_arff(test::shared("weather.numeric.arff"));
  Rule r;
  r.conditions = {Condition{0, Op::eq, 0, 0}, Condition{2, Op::gt, 0, 75}};  // outlook = sunny AND humidity > 75
  Tree t = rule_as_tree(&r, d.schema);
  recount(t, d, all_rows(d), unit_weights(d));
  EXPECT_EQ(t.cells, 2);
  std::vector<double> covered(2, 0.0), other(2, 0.0);
  std::vector<std::pair<int, double>> cells;
  for (std::size_t row = 0; row < d.rows(); ++row) {
    t.cell_route(d, row, cells);
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].first == 0, r.covers(d, row)) << row;
  }
}

}  // namespace
}  // namespace candor
