// The one-r learner (learners/one_r/): Holte's intervals by hand, iris as Weka's OneR learns it, missing values,
// weights, the model file and the options.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "candor/data.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/params.hpp"
#include "candor/learners/one_r/one_r_options.hpp"
#include "candor/model/model.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

const RuleModel& rules_of(const std::unique_ptr<Model>& m) { return dynamic_cast<const RuleModel&>(*m); }

LearnerParams one_r(double min_bucket_size = 6) {
  return params_from_json({{"learner", "one-r"}, {"min_bucket_size", min_bucket_size}});
}

}  // namespace

TEST(OneR, IntervalsAsHolteBuildsThem) {
  // x = 1..8 with classes a a b a a b b b, SMALL = 2: {1, 2} holds two a; {3, 4, 5} reaches two a (a wins
  // the tie at {3, 4}) and merges with {1, 2}; {6, 7, 8} is b. The nominal attribute classifies 6 of 8.
  const Dataset d = test::arff("one_r_hand.arff", R"(@relation hand
@attribute x numeric
@attribute colour {red, blue}
@attribute class {a, b}
@data
1,red,a
2,red,a
3,red,b
4,red,a
5,blue,a
6,blue,b
7,blue,b
8,red,b
)");
  const auto m = fit_model(d, one_r(2));
  const RuleModel& r = rules_of(m);
  EXPECT_EQ(r.kind, ModelKind::decision_list);
  ASSERT_EQ(r.rules.size(), 2u);
  ASSERT_EQ(r.rules[0].conditions.size(), 1u);
  EXPECT_EQ(r.rules[0].conditions[0].attribute, 0);
  EXPECT_EQ(r.rules[0].conditions[0].op, Op::le);
  EXPECT_EQ(r.rules[0].conditions[0].threshold, 5.5);  // the shortest decimal in [5.25, 5.75]
  EXPECT_EQ(r.rules[0].klass, 0);
  EXPECT_EQ(r.rules[0].class_counts, (std::vector<double>{4, 1}));
  EXPECT_EQ(r.rules[1].conditions[0].op, Op::gt);
  EXPECT_EQ(r.rules[1].klass, 1);
  EXPECT_EQ(r.rules[1].class_counts, (std::vector<double>{0, 3}));
  // P = (s + m prior) / (n + m) with m = prior weight (1) x classes (2): (4 + 2 x 0.5) / (5 + 2).
  EXPECT_NEAR(r.rules[0].probability, 5.0 / 7.0, 1e-12);
  EXPECT_NEAR(r.rules[1].probability, 4.0 / 5.0, 1e-12);
  EXPECT_LE(r.rules[0].interval.first, r.rules[0].probability);
  EXPECT_GE(r.rules[0].interval.second, r.rules[0].probability);
  // With SMALL = 4 the first interval needs four a: {1..5}, then b; the same two rules.
  EXPECT_EQ(rules_of(fit_model(d, one_r(4))).rules[0].class_counts, (std::vector<double>{4, 1}));
  // With SMALL = 5 no interval of x can close before the end: x makes no rule, and the colour wins.
  const auto colour_model = fit_model(d, one_r(5));
  const RuleModel& colour = rules_of(colour_model);
  ASSERT_EQ(colour.rules.size(), 2u);
  EXPECT_EQ(colour.rules[0].conditions[0].attribute, 1);
  EXPECT_EQ(colour.rules[0].conditions[0].op, Op::eq);
  EXPECT_EQ(colour.rules[0].class_counts, (std::vector<double>{3, 2}));  // red: a a b a b
  EXPECT_EQ(colour.rules[1].class_counts, (std::vector<double>{1, 2}));  // blue: a b b
}

TEST(OneR, IrisAsWekaLearnsIt) {
  // Weka's OneR (-B 6) on iris: petalwidth < 0.8 setosa, < 1.75 versicolor, >= 1.75 virginica; 144 of 150.
  const Dataset d = read_arff(test::shared("iris.arff"));
  const auto m = fit_model(d, one_r());
  const RuleModel& r = rules_of(m);
  ASSERT_EQ(r.rules.size(), 3u);
  EXPECT_EQ(r.schema.attributes[static_cast<std::size_t>(r.rules[0].conditions[0].attribute)].name, "petalwidth");
  EXPECT_EQ(r.rules[0].conditions.back().threshold, 0.8);
  EXPECT_EQ(r.rules[1].conditions.back().threshold, 1.75);
  EXPECT_EQ(r.rules[0].class_counts, (std::vector<double>{50, 0, 0}));
  EXPECT_EQ(r.rules[1].class_counts, (std::vector<double>{0, 49, 5}));
  EXPECT_EQ(r.rules[2].class_counts, (std::vector<double>{0, 1, 45}));
  EXPECT_NEAR(r.rules[0].probability, 51.0 / 53.0, 1e-12);
  std::size_t right = 0;
  for (std::size_t row = 0; row < d.rows(); ++row) {
    const auto p = r.predict_proba(d, row);
    right += static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin()) == d.y[row];
  }
  EXPECT_EQ(right, 144u);
}

TEST(OneR, MissingValuesAndWeightsGoWhereTheyBelong) {
  // Rows missing the chosen attribute form the default rule; a weight counts as that many rows, so the
  // weighted row decides the value's class.
  const Dataset d = test::arff("one_r_missing.arff", R"(@relation missing
@attribute colour {red, blue, green}
@attribute class {a, b}
@data
red,a
red,a
red,b,{3}
blue,b
blue,b
?,a
?,a
?,b
)");
  const auto m = fit_model(d, one_r());
  const RuleModel& r = rules_of(m);
  ASSERT_EQ(r.rules.size(), 2u);  // green has no rows: the default rule decides it
  EXPECT_EQ(r.rules[0].klass, 1);
  EXPECT_EQ(r.rules[0].class_counts, (std::vector<double>{2, 3}));
  EXPECT_EQ(r.default_counts, (std::vector<double>{2, 1}));
  const Dataset unseen = test::arff("one_r_unseen.arff", R"(@relation missing
@attribute colour {red, blue, green}
@attribute class {a, b}
@data
green,a
?,b
)");
  EXPECT_TRUE(r.deciding_rules(unseen, 0).empty());
  EXPECT_TRUE(r.deciding_rules(unseen, 1).empty());
  EXPECT_GT(r.predict_proba(unseen, 0)[0], 0.5);  // the default rule's a
}

TEST(OneR, ModelFileOptionsAndText) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  const auto m = fit_model(d, one_r(3));
  const auto back = model_from_json(m->to_json(), "one-r test");
  for (std::size_t row = 0; row < d.rows(); ++row) EXPECT_EQ(back->predict_proba(d, row), m->predict_proba(d, row));
  EXPECT_EQ(model_options(*back).options<OneROptions>().min_bucket_size, 3);
  const std::string text = model_text(*back);
  EXPECT_NE(text.find("by one-r (min bucket size 3)"), std::string::npos) << text;
  EXPECT_EQ(text.find("ranking measure"), std::string::npos) << text;
  EXPECT_THROW(params_from_json({{"learner", "one-r"}, {"min_bucket_size", 0}}), std::invalid_argument);
  EXPECT_THROW(params_from_json({{"learner", "one-r"}, {"beam_width", 3}}), std::invalid_argument);
  EXPECT_THROW(params_from_json({{"learner", "cn2-unordered"}, {"min_bucket_size", 3}}), std::invalid_argument);
}

TEST(OneR, AgreesWithWekasOneROnTheCorpus) {
  // The attribute and the training rows classified correctly of Weka 3.6's OneR (-B 6) on whole corpus files,
  // measured with `java -cp /usr/share/java/weka.jar weka.classifiers.rules.OneR -t FILE -no-cv`
  // (bench/one_r_weka.py compares every file of the corpus: all 53 agree). Nominal and numeric winners,
  // missing values in the winning attribute (heart-h, hypothyroid, labor, sick), 2 to 24 classes.
  struct Expected {
    const char* file;
    const char* attribute;
    std::size_t correct;
  };
  for (const Expected& e : std::vector<Expected>{
           {"audiology.arff", "age_gt_60", 105},
           {"breast-cancer.arff", "inv-nodes", 208},
           {"colic.arff", "surgery", 300},
           {"credit-a.arff", "A9", 590},
           {"diabetes.arff", "plas", 587},
           {"glass.arff", "Al", 135},
           {"heart-h.arff", "slope", 242},
           {"hypothyroid.arff", "TSH", 3659},
           {"iris.arff", "petalwidth", 144},
           {"labor.arff", "wage-increase-first-year", 48},
           {"segment.arff", "rawred-mean", 1630},
           {"sick.arff", "T3", 3644},
           {"vote.arff", "physician-fee-freeze", 416},
           {"weather.numeric.arff", "outlook", 10},
       }) {
    const Dataset d = read_arff(test::shared(e.file));
    // Without the prior's pseudo-examples each rule predicts its majority class, as Holte's and Weka's do;
    // with them (the default) a rule of few rows can give its rows to a class the prior favours.
    LearnerParams raw = one_r();
    raw.prior_weight = 0;
    const auto m = fit_model(d, raw);
    const RuleModel& r = rules_of(m);
    ASSERT_FALSE(r.rules.empty()) << e.file;
    EXPECT_EQ(r.schema.attributes[static_cast<std::size_t>(r.rules[0].conditions[0].attribute)].name, e.attribute)
        << e.file;
    std::size_t right = 0;
    for (std::size_t row = 0; row < d.rows(); ++row) {
      const auto p = r.predict_proba(d, row);
      right += static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin()) == d.y[row];
    }
    EXPECT_EQ(right, e.correct) << e.file;
  }
}
