// Stable rules (learn/stable_rules.cpp): thresholds searched or on the quantile grid, rules kept by their
// frequency across resamples up to the learner's own number, and more stable rule sets than the learner they
// start from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "candor/data.hpp"
#include "candor/data/quantiles.hpp"
#include "candor/eval/stability.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/stable_rules.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/util/json_error.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {
LearnerParams stable(double frequency = 0.5, StableThresholds thresholds = StableThresholds::searched,
                     StableSize size = StableSize::learner) {
  LearnerParams p;
  p.learner = "cn2-unordered";
  p.stable.resamples = 10;
  p.stable.frequency = frequency;
  p.stable.thresholds = thresholds;
  p.stable.size = size;
  return p;
}
// rule-logistic over cn2-unordered's rules (--candidates covering), as the stable rules above are.
LearnerParams stable_logistic_params() {
  LearnerParams p = stable();
  p.learner = "rule-logistic";
  p.options<LinearOptions>().candidates = RuleCandidates::covering;
  return p;
}
}  // namespace

TEST(StableRules, ValuesMoveUpToTheQuantileGridByHand) {
  Dataset d;
  d.schema.attributes.push_back(Attribute{"x", AttributeType::numeric, {}});
  d.schema.class_attribute = Attribute{"class", AttributeType::nominal, {"a", "b"}};
  d.columns.resize(1);
  for (int v = 1; v <= 10; ++v) {
    d.columns[0].values.push_back(v);
    d.y.push_back(v > 5);
    d.weights.push_back(1);
    d.lines.push_back(0);
  }
  d.columns[0].values.push_back(NAN);
  d.y.push_back(0);
  d.weights.push_back(1);
  d.lines.push_back(0);
  const auto grid = quantile_grid(d, 4);
  ASSERT_EQ(grid[0], (std::vector<double>{3, 5, 8}));
  // The smallest grid value at or above each value; above the grid, the largest value; missing stays missing.
  const Dataset s = snap_to_quantiles(d, grid);
  const std::vector<double> expected{3, 3, 3, 5, 5, 8, 8, 8, 10, 10};
  for (std::size_t r = 0; r < expected.size(); ++r) EXPECT_EQ(s.columns[0].values[r], expected[r]) << r;
  EXPECT_TRUE(std::isnan(s.columns[0].values[10]));
}

TEST(StableRules, ThresholdsOnTheGridFrequentRulesFirstAndNoRuleTwice) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const auto on_grid = [](double frequency) {
    return stable(frequency, StableThresholds::quantiles, StableSize::frequent);
  };
  const RuleModel at_half = fit(d, on_grid(0.5), 2);
  const RuleModel always = fit(d, on_grid(1.0), 2);
  ASSERT_FALSE(at_half.rules.empty());
  // Every numeric threshold is a grid value or an attribute's largest value.
  const auto grid = quantile_grid(d, 10);
  for (const auto& r : at_half.rules)
    for (const auto& c : r.conditions) {
      if (c.op != Op::le && c.op != Op::gt) continue;
      const auto& g = grid[static_cast<std::size_t>(c.attribute)];
      double top = -INFINITY;
      for (double x : d.columns[static_cast<std::size_t>(c.attribute)].values)
        if (!std::isnan(x)) top = std::max(top, x);
      EXPECT_TRUE(std::find(g.begin(), g.end(), c.threshold) != g.end() || c.threshold == top) << c.threshold;
    }
  // Rules found in every resample are the first of those found in half of them.
  ASSERT_LE(always.rules.size(), at_half.rules.size());
  for (std::size_t i = 0; i < always.rules.size(); ++i)
    EXPECT_EQ(always.rules[i].conditions, at_half.rules[i].conditions) << i;
  // No two rules of one class cover the same rows.
  for (std::size_t i = 0; i < at_half.rules.size(); ++i)
    for (std::size_t j = i + 1; j < at_half.rules.size(); ++j) {
      if (at_half.rules[i].klass != at_half.rules[j].klass) continue;
      bool same = true;
      for (std::size_t row = 0; row < d.rows() && same; ++row)
        same = at_half.rules[i].covers(d, row) == at_half.rules[j].covers(d, row);
      EXPECT_FALSE(same) << i << " " << j;
    }
  // The same model on any thread count.
  EXPECT_EQ(fit(d, on_grid(0.5), 1).to_json().dump(), at_half.to_json().dump());
  EXPECT_EQ(at_half.to_json().at("learner").at("stable_resamples"), 10);
}

TEST(StableRules, SearchedThresholdsCutWhereTheClassesPart) {
  // Iris's setosa ends at petal length 1.9 and the next flower starts at 3.0, between the deciles 1.7 and
  // 3.9: on the grid no single condition covers the 50 setosa and nothing else, while searched thresholds
  // keep the searches' cut.
  const Dataset d = read_arff(test::shared("iris.arff"));
  const int petal_length = d.schema.attribute_index("petallength");
  ASSERT_GE(petal_length, 0);
  auto setosa_cut = [&](StableThresholds thresholds) -> std::optional<double> {
    const RuleModel m = fit(d, stable(0.5, thresholds, StableSize::frequent), 2);
    for (const auto& r : m.rules)
      if (r.klass == 0 && r.conditions.size() == 1 && r.conditions[0].attribute == petal_length &&
          r.conditions[0].op == Op::le && r.training_counts[0] == 50 &&
          r.training_counts[1] + r.training_counts[2] == 0)
        return r.conditions[0].threshold;
    return std::nullopt;
  };
  const auto searched = setosa_cut(StableThresholds::searched);
  ASSERT_TRUE(searched.has_value());
  EXPECT_GT(*searched, 1.9);
  EXPECT_LT(*searched, 3.0);
  EXPECT_FALSE(setosa_cut(StableThresholds::quantiles).has_value());
  // The same model on any thread count.
  EXPECT_EQ(fit(d, stable(), 1).to_json().dump(), fit(d, stable(), 2).to_json().dump());
}

TEST(StableRules, AtMostTheLearnersNumberOfRules) {
  // On vote the frequent rules outnumber cn2-unordered's own; --stable-size learner keeps the most frequent
  // of them, as many as the learner's, and --stable-size frequent all of them.
  const Dataset d = read_arff(test::shared("vote.arff"));
  LearnerParams plain;
  plain.learner = "cn2-unordered";
  const std::size_t own = fit(d, plain, 2).rules.size();
  const RuleModel all = fit(d, stable(0.5, StableThresholds::searched, StableSize::frequent), 2);
  const RuleModel limited = fit(d, stable(), 2);
  ASSERT_GT(all.rules.size(), own);
  ASSERT_EQ(limited.rules.size(), own);
  for (std::size_t i = 0; i < own; ++i) EXPECT_EQ(limited.rules[i].conditions, all.rules[i].conditions) << i;

  // rule-logistic: no more rules with a weight than without stable rules; each kept rule has a weight.
  plain.learner = "rule-logistic";
  plain.options<LinearOptions>().candidates = RuleCandidates::covering;
  LearnerParams logistic = stable_logistic_params();
  const std::size_t own_weighted = fit_model(d, plain, 2)->rule_count();
  const auto limited_logistic = fit_model(d, logistic, 2);
  logistic.stable.size = StableSize::frequent;
  const auto all_logistic = fit_model(d, logistic, 2);
  EXPECT_GT(all_logistic->rule_count(), own_weighted);
  EXPECT_LE(limited_logistic->rule_count(), own_weighted);
  EXPECT_GT(limited_logistic->rule_count(), 0u);
  const auto& lr = dynamic_cast<const LogisticRuleModel&>(*limited_logistic);
  for (std::size_t k = 0; k < lr.rule_count(); ++k) EXPECT_GT(lr.rule_importance(k), 0) << k;
  EXPECT_EQ(limited_logistic->to_json().dump(), fit_model(d, stable_logistic_params(), 1)->to_json().dump());
}

TEST(StableRules, EachRuleCarriesItsShareOfResamples) {
  // A stable rule states how often the resamples found it (SIRUS's p_n): a whole number of the 10 resamples,
  // at least --stable-frequency, the most frequent first, in the model file and back; a model without stable
  // rules states nothing.
  const Dataset d = read_arff(test::shared("vote.arff"));
  const RuleModel m = fit(d, stable(0.5), 2);
  ASSERT_FALSE(m.rules.empty());
  bool below_all = false;
  for (std::size_t i = 0; i < m.rules.size(); ++i) {
    const double resamples = 10 * m.rules[i].stable_frequency;
    EXPECT_NEAR(resamples, std::round(resamples), 1e-12) << i;
    if (i > 0) {
      EXPECT_LE(m.rules[i].stable_frequency, m.rules[i - 1].stable_frequency) << i;
    }
    EXPECT_GE(m.rules[i].stable_frequency, 0.5) << i;
    EXPECT_LE(m.rules[i].stable_frequency, 1.0) << i;
    below_all = below_all || m.rules[i].stable_frequency < 1.0;
  }
  EXPECT_TRUE(below_all) << "every rule in every resample: the test would not tell the shares apart";
  nlohmann::json j = m.to_json();
  const RuleModel back = RuleModel::from_json(j);
  for (std::size_t i = 0; i < m.rules.size(); ++i)
    EXPECT_EQ(back.rules[i].stable_frequency, m.rules[i].stable_frequency) << i;
  EXPECT_NE(m.text("cn2-unordered").find("% of resamples"), std::string::npos);

  LearnerParams plain;
  plain.learner = "cn2-unordered";
  const nlohmann::json plain_json = fit(d, plain, 2).to_json();
  for (const auto& r : plain_json.at("rules")) EXPECT_FALSE(r.contains("stable_frequency"));

  j["rules"][0]["stable_frequency"] = 1.5;
  try {
    RuleModel::from_json(j);
    ADD_FAILURE() << "a share above 1 was read";
  } catch (const JsonEntryError& e) {
    EXPECT_EQ(json_pointer_of(j, e.entry()), "/rules/0/stable_frequency");
    EXPECT_NE(std::string(e.what()).find("stable_frequency 1.5"), std::string::npos) << e.what();
  }
}

TEST(StableRules, MoreStableThanTheLearnerTheyStartFrom) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  StabilityOptions o;
  o.resamples = 6;
  o.threads = 2;
  LearnerParams plain;
  plain.learner = "cn2-unordered";
  const double before = measure_stability(d, plain, o).rule_set_stability;
  const double after = measure_stability(d, stable(0.5), o).rule_set_stability;
  EXPECT_GT(after, before + 0.2) << before << " -> " << after;
}

TEST(StableRules, GradientCandidatesWhenGiven) {
  // --candidates gradient with --stable-resamples: the frequent rules of gradient-rules' resamples, each with
  // its share of them, at most as many with a weight as the gradient model keeps alone, and a more stable rule
  // set than that model's. Without --candidates the stable mode counts covering's rules and one-condition
  // gradient rules (covering+additive), whose gradient part the gradient options shape; with --candidates
  // covering they are refused.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams plain;
  plain.options<GradientRuleOptions>().rounds = 10;
  LearnerParams p = plain;
  p.stable.resamples = 10;
  p.options<LinearOptions>().candidates = RuleCandidates::gradient;
  const auto fitted = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*fitted);
  EXPECT_EQ(m.learner.at("candidates"), "gradient");
  EXPECT_EQ(m.rules.learner.at("learner"), "gradient-rules");
  ASSERT_GT(m.rule_count(), 0u);
  for (const Rule& r : m.rules.rules) EXPECT_GE(r.stable_frequency, 0.5);
  EXPECT_LE(m.rule_count(), fit_model(d, plain, 2)->rule_count());

  StabilityOptions o;
  o.resamples = 4;
  o.threads = 2;
  const double before = measure_stability(d, plain, o).rule_set_stability;
  const double after = measure_stability(d, p, o).rule_set_stability;
  EXPECT_GT(after, before + 0.1) << before << " -> " << after;

  LearnerParams unset = p;
  unset.options<LinearOptions>().candidates.reset();
  EXPECT_NO_THROW(validate(unset));
  EXPECT_EQ(fit_model(d, unset, 2)->to_json().at("learner").at("candidates"), "covering+additive");
  unset.options<LinearOptions>().candidates = RuleCandidates::covering;
  EXPECT_THROW(validate(unset), std::invalid_argument);  // --gradient-rounds with covering's rules alone
}

TEST(StableRules, CoveringAndAdditiveCandidates) {
  // The stable mode's default candidates: covering's frequent rules, then the frequent one-condition gradient
  // rules, less any covering exactly the rows of a rule of its class already there; every frequent rule is
  // kept (--stable-size resolves to frequent), and --stable-size learner still limits them to the plain
  // model's count.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.stable.resamples = 10;
  const auto fitted = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*fitted);
  EXPECT_EQ(m.learner.at("candidates"), "covering+additive");
  EXPECT_EQ(m.learner.at("stable_size"), "frequent");

  // Its rules are those of the two stable learners, each found with its own share of the resamples.
  LearnerParams covering = p;
  covering.options<LinearOptions>().candidates = RuleCandidates::covering;
  covering.stable.size = StableSize::frequent;
  const auto covering_fit = fit_model(d, covering, 2);
  LearnerParams additive = p;
  additive.options<LinearOptions>().candidates = RuleCandidates::gradient;
  additive.rule_search.max_rule_length = 1;
  additive.stable.size = StableSize::frequent;
  const auto additive_fit = fit_model(d, additive, 2);
  auto rules_of = [](const Model& model) { return dynamic_cast<const LogisticRuleModel&>(model).rules.rules; };
  const std::vector<Rule> from_covering = rules_of(*covering_fit), from_additive = rules_of(*additive_fit);
  auto found_in = [](const Rule& r, const std::vector<Rule>& rules) {
    return std::any_of(rules.begin(), rules.end(), [&](const Rule& o) {
      return o.klass == r.klass && o.conditions == r.conditions && o.stable_frequency == r.stable_frequency;
    });
  };
  std::size_t long_rules = 0, additive_only = 0;
  for (const Rule& r : m.rules.rules) {
    EXPECT_TRUE(found_in(r, from_covering) || (r.conditions.size() == 1 && found_in(r, from_additive)))
        << format_rule(r, d.schema);
    long_rules += r.conditions.size() > 1;
    additive_only += !found_in(r, from_covering);
    // The model says which learner found each rule: its quality and probability are that learner's.
    EXPECT_EQ(r.additive, !found_in(r, from_covering)) << format_rule(r, d.schema);
    EXPECT_GE(r.stable_frequency, 0.5);
  }
  EXPECT_GT(long_rules, 0u);     // covering's interactions
  EXPECT_GT(additive_only, 0u);  // and the additive steps covering's frequent rules lack
  // Each kind of rule keeps the EVC laws of the search that found it, in the model file and in its text.
  auto evc_of = [](const Model& model) { return dynamic_cast<const LogisticRuleModel&>(model).rules.evc; };
  ASSERT_TRUE(m.rules.evc && m.rules.additive_evc);
  EXPECT_EQ(*m.rules.evc, *evc_of(*covering_fit));
  EXPECT_EQ(*m.rules.additive_evc, *evc_of(*additive_fit));
  EXPECT_FALSE(*m.rules.evc == *m.rules.additive_evc);
  const LogisticRuleModel read = LogisticRuleModel::from_json(m.to_json());
  EXPECT_EQ(read.to_json().dump(), m.to_json().dump());
  EXPECT_EQ(read.rules.additive_evc, m.rules.additive_evc);
  EXPECT_NE(m.text("rule-logistic").find("EVC calibration of the additive rules"), std::string::npos);
  // No two rules of a class cover the same rows.
  for (std::size_t i = 0; i < m.rules.rules.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const Rule &a = m.rules.rules[i], &b = m.rules.rules[j];
      if (a.klass != b.klass) continue;
      bool same = true;
      for (std::size_t row = 0; row < d.rows() && same; ++row) same = a.covers(d, row) == b.covers(d, row);
      EXPECT_FALSE(same) << format_rule(a, d.schema) << " / " << format_rule(b, d.schema);
    }
  // The same model on any thread count.
  EXPECT_EQ(fitted->to_json().dump(), fit_model(d, p, 1)->to_json().dump());

  LearnerParams limited = p;
  limited.stable.size = StableSize::learner;
  LearnerParams plain;
  EXPECT_LE(fit_model(d, limited, 2)->rule_count(), fit_model(d, plain, 2)->rule_count());
  EXPECT_GT(m.rule_count(), 0u);
}

TEST(StableRules, ParametersChecked) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  LearnerParams p = stable();
  p.learner = "tree";
  EXPECT_THROW(fit_model(d, p), std::invalid_argument);
  p = stable(0);
  EXPECT_THROW(fit(d, p), std::invalid_argument);
  p = stable();
  p.stable.quantiles = 1;
  EXPECT_THROW(fit(d, p), std::invalid_argument);
  p = stable();
  p.correct = Correction::bootstrap;
  EXPECT_THROW(fit(d, p), std::invalid_argument);
  p = stable();
  p.learner = "rule-logistic";
  const auto rl = fit_model(d, p, 2);
  EXPECT_EQ(rl->to_json().at("rule_model").at("learner").at("stable_resamples"), 10);
}
