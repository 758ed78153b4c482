// gradient-rules (learners/gradient_rules/): the first rounds by hand, a rule found again, the same model on any
// thread count and after a save and load, rule-logistic's --candidates gradient, and the options refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/model.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// a = x: 8 pos, 2 neg; a = y: 2 pos, 8 neg.
Dataset two_by_two() {
  std::string text = "@relation two\n@attribute a {x, y}\n@attribute class {pos, neg}\n@data\n";
  for (int i = 0; i < 8; ++i) text += "x,pos\ny,neg\n";
  for (int i = 0; i < 2; ++i) text += "x,neg\ny,pos\n";
  return test::arff("gradient_two.arff", text);
}

LearnerParams gradient(int rounds) {
  return params_from_json({{"learner", "gradient-rules"}, {"gradient_rounds", rounds}});
}

}  // namespace

TEST(GradientRules, FirstRoundsByHand) {
  const Dataset d = two_by_two();
  // Round 1: both classes start at the same score, so every residual is 1/2. By wracc on those weights the
  // best rule of pos covers the rows of a = x ((5/10) x (4/5 - 5/10) = 0.15; R = 8/2 - 2/2 = 3 > 0), of neg
  // those of a = y: both are kept, pos's first. With A != v (the learner's default) a = x and a != y are the
  // same rows, so the test reads the rows a rule covers, not which of the two spellings the search met first.
  const RuleModel one = fit(d, gradient(1));
  EXPECT_EQ(one.learner.at("quality"), "wracc");
  EXPECT_EQ(one.learner.at("not_equal"), true);  // the model records what its searches generated
  ASSERT_EQ(one.rules.size(), 2u);
  ASSERT_EQ(one.rules[0].conditions.size(), 1u);
  EXPECT_EQ(one.rules[0].klass, 0);
  for (std::size_t r = 0; r < d.rows(); ++r)
    EXPECT_EQ(one.rules[0].covers(d, r), d.columns[0].codes[r] == 0) << r;  // a = x
  EXPECT_EQ(one.rules[0].training_counts, (std::vector<double>{8, 2}));
  EXPECT_EQ(one.rules[0].class_counts, (std::vector<double>{8, 2}));  // unweighted, not the residuals
  EXPECT_EQ(one.rules[1].klass, 1);
  for (std::size_t r = 0; r < d.rows(); ++r)
    EXPECT_EQ(one.rules[1].covers(d, r), d.columns[0].codes[r] == 1) << r;  // a = y
  EXPECT_EQ(one.rules[1].training_counts, (std::vector<double>{2, 8}));
  // Round 2: the rows of a = x moved by 0.5 x 3 / (10/4 + 1) towards pos (p(pos) = 0.606), those of a = y as
  // far towards neg; a = x still under-predicts pos (R = 8 x 0.394 - 2 x 0.606 = 1.95 > 0), so rules over the
  // same two sets of rows are found again (by either spelling): their steps grow, the rules do not.
  EXPECT_EQ(fit(d, gradient(3)).rules.size(), 2u);
  // Every rule holds a probability with its interval.
  for (const Rule& r : one.rules) {
    EXPECT_GT(r.probability, 0.5);
    EXPECT_LE(r.interval.first, r.probability);
    EXPECT_GE(r.interval.second, r.probability);
  }
  // --max-rules caps the rules.
  LearnerParams capped = gradient(3);
  capped.rule_covering.max_rules = 1;
  EXPECT_EQ(fit(d, capped).rules.size(), 1u);
}

TEST(GradientRules, SameModelOnAnyThreadCountAndAfterSaveAndLoad) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p = gradient(15);
  const auto one = fit_model(d, p, 1);
  const auto two = fit_model(d, p, 2);
  EXPECT_EQ(one->to_json(), two->to_json());
  EXPECT_GE(one->rule_count(), 5u);
  const std::string path = test::write_temp("gradient_rules_model.json", "");
  save_model(*one, path);
  const auto loaded = load_model(path);
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(loaded->predict_proba(d, r), one->predict_proba(d, r));
}

TEST(GradientRules, RuleLogisticWeighsThem) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const auto m = fit_model(d, params_from_json({{"candidates", "gradient"}, {"gradient_rounds", 20}}), 2);
  const auto& logistic = dynamic_cast<const LogisticRuleModel&>(*m);
  EXPECT_EQ(m->learner.at("candidates"), "gradient");
  // Searched as gradient-rules searches by default, and recorded so.
  EXPECT_EQ(m->learner.at("quality"), "wracc");
  EXPECT_EQ(m->learner.at("not_equal"), true);
  EXPECT_EQ(m->learner.at("stop"), "prior");
  EXPECT_GE(logistic.rule_count(), 5u);
  EXPECT_LE(logistic.rule_count() + logistic.rules_without_weight, 2 * 20u);  // rounds x classes
  // Same rules as gradient-rules alone finds with those options.
  const RuleModel alone = fit(d, params_from_json({{"learner", "gradient-rules"}, {"gradient_rounds", 20}}), 2);
  EXPECT_EQ(logistic.rule_count() + logistic.rules_without_weight, alone.rules.size());
  // A quality given is the one used; covering's candidates keep covering's defaults.
  const auto m_estimate = fit_model(d, params_from_json({{"gradient_rounds", 5}, {"quality", "m-estimate"}}), 2);
  EXPECT_EQ(m_estimate->learner.at("quality"), "m-estimate");
  const auto covering = fit_model(d, params_from_json({{"candidates", "covering"}}), 2);
  EXPECT_EQ(covering->learner.at("quality"), "m-estimate");
  EXPECT_EQ(covering->learner.at("not_equal"), false);
}

TEST(GradientRules, NoTwoRulesOfAClassCoverTheSameRows) {
  // lymph's nominal attributes give pairs of spellings of one set of rows (A = v or A != w on a two-valued
  // attribute, or conditions that the others already imply): found without this check, 25 rounds keep such
  // pairs.
  const Dataset d = read_arff(test::shared("lymph.arff"));
  const RuleModel m = fit(d, gradient(25), 2);
  ASSERT_GE(m.rules.size(), 10u);
  std::size_t not_equal = 0;
  for (std::size_t a = 0; a < m.rules.size(); ++a) {
    for (const Condition& c : m.rules[a].conditions) not_equal += c.op == Op::ne;
    for (std::size_t b = a + 1; b < m.rules.size(); ++b) {
      if (m.rules[a].klass != m.rules[b].klass) continue;
      bool same = true;
      for (std::size_t r = 0; r < d.rows() && same; ++r) same = m.rules[a].covers(d, r) == m.rules[b].covers(d, r);
      EXPECT_FALSE(same) << a << " and " << b;
    }
  }
  EXPECT_GT(not_equal, 0u);  // A != v conditions are searched, and chosen
}

TEST(GradientRules, NoNotEqualOnATwoValuedAttribute) {
  // On credit-a's two-valued A9 (t, f), A9 != f is A9 = t: only the clearer spelling is offered.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const RuleModel m = fit(d, gradient(50), 2);
  std::size_t not_equal = 0, two_valued = 0;
  for (const Rule& rule : m.rules)
    for (const Condition& c : rule.conditions) {
      if (d.attribute(static_cast<std::size_t>(c.attribute)).is_nominal() &&
          d.attribute(static_cast<std::size_t>(c.attribute)).values.size() == 2)
        ++two_valued;
      if (c.op != Op::ne) continue;
      ++not_equal;
      EXPECT_GT(d.attribute(static_cast<std::size_t>(c.attribute)).values.size(), 2u) << rule.conditions.size();
    }
  EXPECT_GT(not_equal, 0u);   // A != v on the attributes of more values
  EXPECT_GT(two_valued, 0u);  // and the two-valued ones still in rules, as A = v
}

TEST(GradientRules, SampledRoundsCountEveryRow) {
  // --gradient-sample 200 on credit-a's 690 rows: each round searches 200 rows drawn afresh, by the seed.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p = gradient(10);
  p.options<GradientRuleOptions>().sample = 200;
  const RuleModel one = fit(d, p, 1);
  ASSERT_GE(one.rules.size(), 5u);
  EXPECT_EQ(one.to_json(), fit(d, p, 2).to_json());  // the same model on any thread count
  // A rule's counts are those of every training row it covers, not of the sample it was found on.
  for (const Rule& rule : one.rules) {
    std::vector<double> counts(d.num_classes(), 0.0);
    for (std::size_t r = 0; r < d.rows(); ++r)
      if (rule.covers(d, r)) counts[static_cast<std::size_t>(d.y[r])] += d.weights[r];
    EXPECT_EQ(rule.training_counts, counts);
  }
  // The samples differ from the whole data and with the seed; a sample of at least every row is no sample.
  EXPECT_NE(one.to_json()["rules"], fit(d, gradient(10), 1).to_json()["rules"]);
  LearnerParams other_seed = p;
  other_seed.seed = 2;
  EXPECT_NE(one.to_json()["rules"], fit(d, other_seed, 1).to_json()["rules"]);
  LearnerParams every_row = gradient(10);
  every_row.options<GradientRuleOptions>().sample = 690;
  EXPECT_EQ(fit(d, every_row, 1).to_json()["rules"], fit(d, gradient(10), 1).to_json()["rules"]);
}

TEST(GradientRules, OptionsRefused) {
  EXPECT_THROW(validate(params_from_json({{"learner", "gradient-rules"}, {"gradient_shrinkage", 0}})),
               std::invalid_argument);
  EXPECT_THROW(validate(params_from_json({{"learner", "gradient-rules"}, {"gradient_rounds", 0}})),
               std::invalid_argument);
  EXPECT_THROW(validate(params_from_json({{"learner", "gradient-rules"}, {"gradient_sample", -1}})),
               std::invalid_argument);
  EXPECT_THROW(validate(params_from_json({{"gradient_sample", 5000}, {"candidates", "covering"}})),
               std::invalid_argument);
  // rule-logistic reads them only for its gradient candidates (its default).
  EXPECT_THROW(validate(params_from_json({{"gradient_rounds", 10}, {"candidates", "covering"}})),
               std::invalid_argument);
  EXPECT_NO_THROW(validate(params_from_json({{"gradient_rounds", 10}})));
  // and cn2 not at all.
  EXPECT_THROW(validate(params_from_json({{"learner", "cn2-unordered"}, {"gradient_rounds", 10}})),
               std::invalid_argument);
}

TEST(GradientRules, TheModelTextSaysItSearchesNotEqual) {
  // The line heading a model's text names the conditions its search generates: A != v for the gradient
  // searches (their default), and for cn2-unordered only with --not-equal.
  const Dataset d = two_by_two();
  const std::string heading = "max length 5, A != v";
  EXPECT_NE(model_text(fit(d, gradient(2), 1)).find(heading), std::string::npos);
  EXPECT_NE(model_text(*fit_model(d, LearnerParams{}, 1)).find(heading), std::string::npos);
  const LearnerParams cn2 = params_from_json({{"learner", "cn2-unordered"}});
  EXPECT_EQ(model_text(fit(d, cn2, 1)).find("A != v"), std::string::npos);
  EXPECT_NE(model_text(fit(d, params_from_json({{"learner", "cn2-unordered"}, {"not_equal", true}}), 1)).find(heading),
            std::string::npos);
}
