// gradient-rules (learners/gradient_rules/): the first rounds by hand, a rule found again, the same model on any
// thread count and after a save and load, rule-logistic's --candidates gradient, and the options refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
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

// Agrawal's first concept in small: class 1 where 40 <= age < 60, labels flipped with probability `noise`
// (1 for labels drawn at random), beside three numeric and one nominal attribute of noise; 3,000 rows. Values
// from std::mt19937_64's raw outputs, the same on every platform.
Dataset age_bands(double noise, const std::string& name) {
  std::mt19937_64 rng(7);
  auto uniform = [&]() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::string text =
      "@relation bands\n@attribute age numeric\n@attribute salary numeric\n@attribute loan numeric\n"
      "@attribute hvalue numeric\n@attribute car {a, b, c, d, e}\n@attribute class {0, 1}\n@data\n";
  for (int i = 0; i < 3000; ++i) {
    const int age = 20 + static_cast<int>(uniform() * 61);
    bool label = age >= 40 && age < 60;
    const bool flip = uniform() < noise;
    const bool coin = uniform() < 0.5;
    if (flip) label = noise >= 1 ? coin : !label;
    text += std::to_string(age) + "," + std::to_string(static_cast<int>(20000 + uniform() * 130000)) + "," +
            std::to_string(static_cast<int>(uniform() * 500000)) + "," +
            std::to_string(static_cast<int>(uniform() * 900000)) + "," +
            std::string(1, static_cast<char>('a' + static_cast<int>(uniform() * 5))) + "," + (label ? "1" : "0") + "\n";
  }
  return test::arff(name, text);
}

bool only_on_age(const Rule& rule) {
  for (const Condition& c : rule.conditions)
    if (c.attribute != 0) return false;
  return true;
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

TEST(GradientRules, PruneByEvcKeepsTheConceptsConditionsAndNothingOfNoise) {
  // Two age bands and 5% noise: without pruning, rounds after the bands were found return the bands with
  // conditions on noise attributes that cut away a few rows of negative residual, and keep them.
  const Dataset bands = age_bands(0.05, "gradient_bands.arff");
  LearnerParams plain = gradient(50);
  LearnerParams pruned = plain;
  pruned.options<GradientRuleOptions>().prune = GradientPrune::stop;
  const RuleModel found = fit(bands, plain, 1);
  const RuleModel cut = fit(bands, pruned, 1);
  EXPECT_GE(found.rules.size(), 10u);
  EXPECT_TRUE(std::any_of(found.rules.begin(), found.rules.end(), [](const Rule& r) { return !only_on_age(r); }));
  // Pruned: the bands alone, each rule on age only, and the search ends once nothing beats chance.
  ASSERT_GE(cut.rules.size(), 2u);
  EXPECT_LE(cut.rules.size(), 8u);
  for (const Rule& r : cut.rules) EXPECT_TRUE(only_on_age(r)) << model_text(cut);
  EXPECT_EQ(cut.learner.at("gradient_prune"), "stop");
  EXPECT_EQ(cut.to_json(), fit(bands, pruned, 2).to_json());
  // As rule-logistic's candidates: the model predicts the bands at least as well as without pruning.
  LearnerParams logistic = params_from_json({{"gradient_prune", "stop"}});
  const auto model = fit_model(bands, logistic, 1);
  std::size_t right = 0;
  for (std::size_t r = 0; r < bands.rows(); ++r) {
    const auto p = model->predict_proba(bands, r);
    const double age = bands.columns[0].values[r];
    right += (p[1] > p[0]) == (age >= 40 && age < 60);
  }
  EXPECT_EQ(right, bands.rows());  // every row on the right side of the bands, noise or not

  // Labels drawn at random: every rule a search finds is noise. EVC corrects their probabilities to the prior,
  // so that --stop prior keeps none either way; kept without that test (--stop none), the plain rounds keep
  // what they found, and pruning leaves nothing to keep.
  const Dataset noise = age_bands(1.0, "gradient_noise.arff");
  LearnerParams every = params_from_json({{"learner", "gradient-rules"}, {"gradient_rounds", 50}, {"stop", "none"}});
  EXPECT_EQ(fit(noise, plain, 1).rules.size(), 0u);
  EXPECT_GE(fit(noise, every, 1).rules.size(), 5u);
  every.options<GradientRuleOptions>().prune = GradientPrune::stop;
  EXPECT_EQ(fit(noise, every, 1).rules.size(), 0u);

  // The laws are EVC's: without them there is nothing to cut by.
  LearnerParams uncorrected = pruned;
  uncorrected.correct = Correction::none;
  EXPECT_THROW(fit(bands, uncorrected, 1), std::invalid_argument);
}
