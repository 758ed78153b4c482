#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/learners/rule_logistic/rule_logistic.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/names.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {
Dataset weather() { return read_arff(test::shared("weather.nominal.arff")); }

// A data set where class q is exactly "a = x AND b = y": 8 rows of each attribute combination.
Dataset conjunction() {
  std::string text =
      "@relation conj\n@attribute a {x,w}\n@attribute b {y,v}\n@attribute noise {n1,n2}\n@attribute c {p,q}\n@data\n";
  for (int i = 0; i < 8; ++i)
    for (const char* a : {"x", "w"})
      for (const char* b : {"y", "v"}) {
        bool q = std::string(a) == "x" && std::string(b) == "y";
        text += std::string(a) + "," + b + "," + (i % 2 ? "n1" : "n2") + "," + (q ? "q" : "p") + "\n";
      }
  return parse_arff(text, "conj.arff");
}
}  // namespace

// Beam search over the conjunction data set, all rows active.
class ConjunctionSearch : public ::testing::Test {
 protected:
  Dataset d = conjunction();
  CoverageIndex index{d};
  Bitset all{d.rows(), true};
  SearchOptions o;
};

TEST_F(ConjunctionSearch, FindsTheExactConjunction) {
  auto quality = make_quality("precision");
  auto rule = find_best_rule(index, all, /*target q*/ 1, *quality, o);
  ASSERT_TRUE(rule);
  ASSERT_EQ(rule->conditions.size(), 2u);
  EXPECT_EQ(rule->counts, (std::vector<double>{0, 8}));
  EXPECT_DOUBLE_EQ(rule->quality, 1.0);
  EXPECT_EQ(rule->covered.count(), 8u);
  // With length 1 allowed, the best single condition covers 8 q and 8 p.
  o.max_rule_length = 1;
  rule = find_best_rule(index, all, 1, *quality, o);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->conditions.size(), 1u);
  EXPECT_DOUBLE_EQ(rule->quality, 0.5);
  // min_covered above what any refinement covers leaves nothing.
  o.max_rule_length = 5;
  o.min_covered = 17;
  EXPECT_FALSE(find_best_rule(index, all, 1, *quality, o));
}

TEST_F(ConjunctionSearch, SignificanceTestRejectsChanceRules) {
  auto quality = make_quality("laplace");
  o.alpha = 1e-12;  // nothing in 32 rows is this significant
  EXPECT_FALSE(find_best_rule(index, all, 1, *quality, o));
  o.alpha = 0.05;
  EXPECT_TRUE(find_best_rule(index, all, 1, *quality, o));
}

TEST(BeamSearch, SameRuleOnAnyThreadCount) {
  Dataset d = read_arff(test::shared("credit-a.arff"));
  CoverageIndex index(d);
  Bitset all(d.rows(), true);
  auto quality = make_quality("laplace");
  SearchOptions o;
  o.beam_width = 8;
  auto one = find_best_rule(index, all, 0, *quality, o);
  o.threads = 3;
  auto three = find_best_rule(index, all, 0, *quality, o);
  ASSERT_TRUE(one && three);
  EXPECT_EQ(one->conditions, three->conditions);
  EXPECT_EQ(one->quality, three->quality);
}

TEST(CN2, UnorderedOnWeatherCoversEveryExampleOfEachClass) {
  Dataset d = weather();
  LearnerParams p = paper_params("cn2-unordered");  // Clark and Boswell: Laplace, no stopping
  RuleModel m = fit(d, p);
  EXPECT_EQ(m.kind, ModelKind::rule_set);
  ASSERT_FALSE(m.rules.empty());
  for (int c = 0; c < 2; ++c) {
    for (std::size_t r = 0; r < d.rows(); ++r) {
      if (d.y[r] != c) continue;
      bool covered = false;
      for (const auto& rule : m.rules) covered |= rule.klass == c && rule.covers(d, r);
      EXPECT_TRUE(covered) << "row " << r << " of class " << c;
    }
  }
  for (const auto& rule : m.rules) {
    // Quality: Laplace on the counts it was learned from; probability: Laplace on the whole training set,
    // which is what a rule set's vote uses.
    EXPECT_DOUBLE_EQ(rule.quality, (rule.class_counts[rule.klass] + 1) / (rule.covered() + 2));
    const double n_all = rule.training_counts[0] + rule.training_counts[1];
    EXPECT_DOUBLE_EQ(rule.probability, (rule.training_counts[rule.klass] + 1) / (n_all + 2));
    // training_counts are recomputed on the whole training set.
    double n = 0;
    for (std::size_t r = 0; r < d.rows(); ++r) n += rule.covers(d, r);
    EXPECT_DOUBLE_EQ(rule.training_counts[0] + rule.training_counts[1], n);
  }
  // The training data is classified perfectly by the learned rule set on this noise-free toy set.
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(m.predict(d, r), d.y[r]);
}

TEST(CN2, OrderedIsADecisionListEndingInTheDefault) {
  Dataset d = weather();
  LearnerParams p = paper_params("cn2-ordered");
  RuleModel m = fit(d, p);
  EXPECT_EQ(m.kind, ModelKind::decision_list);
  EXPECT_EQ(p.resolved_quality(), "entropy");
  // Each example is explained by exactly one deciding rule (or the default), and rule counts add up to
  // the examples left after the rules before it.
  double covered_total = 0;
  for (const auto& rule : m.rules) covered_total += rule.covered();
  double default_total = m.default_counts[0] + m.default_counts[1];
  EXPECT_DOUBLE_EQ(covered_total + default_total, static_cast<double>(d.rows()));
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_LE(m.deciding_rules(d, r).size(), 1u);
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(m.predict(d, r), d.y[r]);
}

TEST(CN2, TargetAndMaxRules) {
  Dataset d = read_arff(test::shared("vote.arff"));
  LearnerParams p;
  p.learner = "cn2-unordered";
  p.rule_covering.target = "republican";
  p.rule_covering.max_rules = 1;
  RuleModel m = fit(d, p);
  ASSERT_EQ(m.rules.size(), 1u);
  EXPECT_EQ(d.schema.class_attribute.values[m.rules[0].klass], "republican");
  p.rule_covering.target = "green";
  EXPECT_THROW(fit(d, p), std::invalid_argument);
}

TEST(CN2, ExampleWeightsActLikeCopies) {
  // Weight 2 on a row must give the same rules as the row written twice.
  std::string head = "@relation w\n@attribute a {x,y,z}\n@attribute b numeric\n@attribute c {p,q}\n@data\n";
  std::string body = "x,1,p\ny,2,q\nz,3,q\nx,4,p\ny,5,p\nz,6,q\n";
  Dataset weighted = parse_arff(head + body + "x,7,q,{2}\n", "w.arff");
  Dataset copied = parse_arff(head + body + "x,7,q\nx,7,q\n", "c.arff");
  LearnerParams p;
  p.learner = "cn2-unordered";
  RuleModel a = fit(weighted, p), b = fit(copied, p);
  ASSERT_EQ(a.rules.size(), b.rules.size());
  for (std::size_t i = 0; i < a.rules.size(); ++i) {
    EXPECT_EQ(a.rules[i].conditions, b.rules[i].conditions);
    EXPECT_EQ(a.rules[i].class_counts, b.rules[i].class_counts);
    EXPECT_DOUBLE_EQ(a.rules[i].probability, b.rules[i].probability);
  }
}

TEST(Model, SaveAndLoadGiveIdenticalPredictions) {
  Dataset d = read_arff(test::shared("credit-a.arff"));  // nominal, numeric and missing values
  for (const char* learner : {"cn2-unordered", "cn2-ordered"}) {
    LearnerParams p;
    p.learner = learner;
    p.rule_search.not_equal = true;
    RuleModel m = fit(d, p);
    std::string path = test::write_temp(std::string("model-") + learner + ".json", "");
    save_model(m, path);
    RuleModel back = load_rule_model(path);
    EXPECT_EQ(back.learner, m.learner);
    ASSERT_EQ(back.rules.size(), m.rules.size());
    for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(back.predict_proba(d, r), m.predict_proba(d, r));
    EXPECT_EQ(model_text(back), model_text(m));
  }
}

TEST(Model, FilesFromBeforeCombinationPredictAsTheyDid) {
  // A model file without "combine" and "prior_weight" (written before they existed) predicts by the count
  // sum and the raw distributions, as it did when it was written.
  Dataset d = read_arff(test::shared("credit-a.arff"));
  RuleModel m = fit(d, paper_params("cn2-unordered"));
  auto j = m.to_json();
  j.erase("settings");  // written before models recorded their settings: read from the learner object
  j["learner"].erase("combine");
  j["learner"].erase("prior_weight");
  j["learner"].erase("stop");
  j["learner"].erase("m_scale");
  RuleModel back = RuleModel::from_json(j);
  EXPECT_EQ(back.settings.combine, "counts");
  EXPECT_EQ(back.settings.prior_weight, 0.0);
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(back.predict_proba(d, r), m.predict_proba(d, r));
}

TEST(Model, ProbabilitiesAreDistributions) {
  Dataset d = read_arff(test::shared("iris.arff"));
  for (const char* learner : {"cn2-unordered", "cn2-ordered"}) {
    LearnerParams p;
    p.learner = learner;
    RuleModel m = fit(d, p);
    for (std::size_t r = 0; r < d.rows(); ++r) {
      auto pr = m.predict_proba(d, r);
      double sum = 0;
      for (double x : pr) {
        EXPECT_GE(x, 0.0);
        sum += x;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
    }
  }
}

TEST(Params, DefaultsAreTheMeasuredOnes) {
  // docs/defaults.md, "Rules that compete": gradient rules ranked by wracc on the residual-weighted rows, with
  // A != v and the prior test, their probabilities EVC-corrected (20 permutations pooled across classes) and
  // combined by a rules-only logistic model at the fixed lambda 0.01.
  const LearnerParams def;
  EXPECT_EQ(def.learner, "rule-logistic");
  EXPECT_EQ(resolved_candidates(def), RuleCandidates::gradient);
  EXPECT_EQ(def.options<GradientRuleOptions>().rounds, 50);
  EXPECT_EQ(def.resolved_quality(), "wracc");
  EXPECT_TRUE(def.resolved_not_equal());
  EXPECT_EQ(def.resolved_m_scale(), 1.0);
  // The search defaults are those of the learner that finds the rules: covering's candidates and the stable
  // mode (whose rules are covering's, and one-condition gradient rules') search as cn2-unordered does.
  LearnerParams covering;
  covering.options<LinearOptions>().candidates = RuleCandidates::covering;
  EXPECT_EQ(covering.resolved_quality(), "m-estimate");
  EXPECT_FALSE(covering.resolved_not_equal());
  LearnerParams stable;
  stable.stable.resamples = 20;
  EXPECT_EQ(resolved_candidates(stable), RuleCandidates::covering_additive);
  EXPECT_EQ(stable.resolved_quality(), "m-estimate");
  EXPECT_FALSE(stable.resolved_not_equal());
  stable.rule_search.not_equal = true;  // --not-equal given
  EXPECT_TRUE(stable.resolved_not_equal());
  // --candidates gradient given: the stable mode counts gradient rules, searched as gradient-rules searches.
  LearnerParams stable_gradient;
  stable_gradient.stable.resamples = 20;
  stable_gradient.options<LinearOptions>().candidates = RuleCandidates::gradient;
  EXPECT_EQ(std::string(rule_candidates_learner(stable_gradient)), "gradient-rules");
  EXPECT_EQ(stable_gradient.resolved_quality(), "wracc");
  EXPECT_TRUE(stable_gradient.resolved_not_equal());
  EXPECT_EQ(def.resolved_stop(), Stopping::prior);
  EXPECT_EQ(def.resolved_correct(), Correction::evc);
  EXPECT_EQ(def.options<LinearOptions>().features, LogisticFeatures::rules);
  EXPECT_EQ(resolved_lambda_search(def), LambdaSearchOn::none);
  EXPECT_EQ(resolved_fixed_lambda(def), 0.01);
  EXPECT_EQ(def.evc.permutations, 20);
  EXPECT_EQ(def.evc.pool, EvcPool::classes);
  {
    const Dataset d = read_arff(test::shared("credit-a.arff"));
    const auto fitted = fit_model(d, def);
    const auto& m = dynamic_cast<const LogisticRuleModel&>(*fitted);
    EXPECT_EQ(m.lambda, 0.01);
    EXPECT_TRUE(m.lambda_search.grid.empty());  // no cross-validation
    EXPECT_EQ(m.encoding.size(), 0u);           // rules only
    ASSERT_TRUE(m.rules.evc.has_value());       // the rules' probabilities are corrected
    EXPECT_EQ(m.rules.learner["correct"], "evc");
    EXPECT_EQ(m.rules.settings.estimate, RuleEstimate::evc);
    // The rules are gradient-rules' (--candidates gradient), searched as it searches by default: by wracc on
    // the residual-weighted rows, with A != v conditions.
    EXPECT_EQ(m.rules.settings.quality, "wracc");
    EXPECT_EQ(m.rules.learner["not_equal"], true);
    EXPECT_EQ(m.rules.learner["learner"], "gradient-rules");
    EXPECT_EQ(m.learner["candidates"], "gradient");
  }
  // Explicit values win; --quality evc corrects by itself.
  LearnerParams rl;
  rl.correct = Correction::none;
  EXPECT_EQ(rl.resolved_correct(), Correction::none);
  rl.correct.reset();
  rl.heuristics.quality = "evc";
  EXPECT_EQ(rl.resolved_correct(), Correction::none);
  rl.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes;
  EXPECT_EQ(resolved_lambda_search(rl), LambdaSearchOn::attributes);
  EXPECT_THROW(set_option_text(rl, "correct", "maybe"), std::invalid_argument);

  // Unordered CN2 keeps its own measured defaults: the m-estimate's probabilities, the lift product.
  LearnerParams p;
  p.learner = "cn2-unordered";
  EXPECT_EQ(p.resolved_correct(), Correction::none);
  EXPECT_EQ(p.resolved_quality(), "m-estimate");
  EXPECT_EQ(p.resolved_m_scale(), 1.0);
  EXPECT_EQ(p.resolved_stop(), Stopping::prior);
  EXPECT_EQ(p.resolved_combine(), "lift-product");
  EXPECT_EQ(p.resolved_max_rule_length(), 5);
  Dataset d = read_arff(test::shared("credit-a.arff"));
  RuleModel m = fit(d, p);
  EXPECT_NEAR(m.settings.m, std::sqrt(690.0), 1e-9);  // the model records the m used
  EXPECT_EQ(m.learner["m_scale"], 1.0);
  // The papers' learners keep their own settings.
  LearnerParams dl;
  dl.learner = "decision-list";
  EXPECT_EQ(dl.resolved_m_scale(), 0.0);
  EXPECT_EQ(dl.resolved_stop(), Stopping::none);
  EXPECT_EQ(paper_params("cn2-unordered").resolved_combine(), "counts");
  EXPECT_EQ(paper_params("cn2-ordered").resolved_quality(), "entropy");
  const LearnerParams lrrp = paper_params("rule-logistic");
  EXPECT_EQ(lrrp.resolved_quality(), "evc");
  EXPECT_EQ(lrrp.options<LinearOptions>().features, LogisticFeatures::rules_and_attributes);
  EXPECT_EQ(resolved_lambda_search(lrrp), LambdaSearchOn::attributes);
  EXPECT_EQ(lrrp.resolved_correct(), Correction::none);
}

TEST(Params, JsonRoundTripAndUnknownKeys) {
  LearnerParams p;
  p.learner = "cn2-ordered";
  p.heuristics.quality = "m-estimate";
  p.heuristics.m = 22.466;
  p.rule_search.beam_width = 10;
  p.rule_search.not_equal = true;
  p.rule_search.search =
      SearchKind::beam;  // the JSON records resolved defaults (quality, search, length), so give them to compare
  p.rule_search.max_rule_length = 5;
  p.rule_covering.stop = Stopping::none;
  p.heuristics.m_scale = 0.5;
  p.correct = Correction::none;
  EXPECT_EQ(params_from_json(params_to_json(p)), p);
  EXPECT_EQ(params_to_json(LearnerParams{})["search"], "beam");
  LearnerParams dl;
  dl.learner = "decision-list";
  EXPECT_EQ(params_to_json(dl)["search"], "greedy");
  EXPECT_EQ(params_to_json(dl)["refine_quality"], "laplace");
  dl.heuristics.refine_quality = "modified-laplace";
  EXPECT_EQ(params_from_json(params_to_json(dl)).heuristics.refine_quality, "modified-laplace");
  EXPECT_EQ(params_to_json(dl)["select_quality"], "laplace");
  auto j = params_to_json(p);
  j["beam_widht"] = 3;
  EXPECT_THROW(params_from_json(j), std::invalid_argument);
  p.rule_search.beam_width = 0;
  EXPECT_THROW(validate(p), std::invalid_argument);
}

// Every learner of the registry, with its default quality and (where it takes one) --quality evc, writes
// the same model file on one thread and on two.
TEST(Learners, EveryLearnerGivesTheSameModelFileOnAnyThreadCount) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));  // nominal, numeric and missing values
  int fitted = 0;
  for (const auto& info : learner_table()) {
    std::vector<std::optional<std::string>> qualities{std::nullopt};
    if (info.evc_quality) qualities.push_back("evc");
    for (const auto& quality : qualities) {
      LearnerParams p;
      p.learner = info.name;
      p.heuristics.quality = quality;
      if (reads_option_group(p, "rule")) p.evc.permutations = 20;
      const std::string one = fit_model(d, p, 1)->to_json().dump();
      const std::string two = fit_model(d, p, 2)->to_json().dump();
      EXPECT_EQ(one, two) << info.name << " " << quality.value_or("(default quality)");
      ++fitted;
    }
  }
  EXPECT_GE(fitted, static_cast<int>(learner_table().size()));
}

// Every model lists its rules as table rows (the Python package's rules_): one per rule (a tree's leaves,
// a PrIL rule, a logistic model's rule features), each with its conditions and class.
TEST(Learners, RuleTablesHaveOneRowPerRule) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  for (const auto& info : learner_table()) {
    LearnerParams p;
    p.learner = info.name;
    if (reads_option_group(p, "rule")) p.evc.permutations = 10;
    const auto m = fit_model(d, p, 2);
    const auto rows = m->rule_table();
    ASSERT_TRUE(rows.is_array()) << info.name;
    if (std::string(info.name) == "boost") {
      EXPECT_GE(rows.size(), m->rule_count()) << info.name;  // every leaf of every member
      EXPECT_TRUE(rows[0].contains("member"));
    } else {
      EXPECT_EQ(rows.size(), m->rule_count()) << info.name;
    }
    for (const auto& r : rows) {
      EXPECT_TRUE(r.contains("rule")) << info.name;
      EXPECT_TRUE(r.contains("class")) << info.name;
    }
  }
}

// The closest name by edit distance, swaps counting one, within a third of the name's length.
TEST(Names, ClosestNameAllowsATypoAndNoMore) {
  const std::vector<std::string> known{"laplace", "m-estimate", "evc", "m-evc", "precision"};
  EXPECT_EQ(closest_name("lpalace", known), "laplace");  // two letters swapped
  EXPECT_EQ(closest_name("m-estimat", known), "m-estimate");
  EXPECT_EQ(closest_name("EVC", known), "evc");
  EXPECT_EQ(closest_name("gini", known), "");
  EXPECT_EQ(closest_name("", known), "");
  EXPECT_EQ(unknown_name_message("quality measure", "evcc", {"evc", "lrs"}),
            "unknown quality measure 'evcc'; did you mean 'evc'? (known: evc, lrs)");
}

// Learner parameters as JSON (Python, grid configs): an m without an m scale is the m used; a number for a
// text option is its text; a wrong type names the parameter; an unknown name gets the closest known one.
TEST(Params, JsonParametersAreTypedAndAnExplicitMIsHonoured) {
  EXPECT_EQ(params_from_json({{"learner", "cn2-unordered"}, {"m", 50}}).resolved_m_scale(), 0.0);
  EXPECT_EQ(params_from_json({{"learner", "cn2-unordered"}}).resolved_m_scale(), 1.0);
  EXPECT_EQ(params_from_json({{"learner", "cn2-unordered"}, {"m", 50}, {"m_scale", 1}}).resolved_m_scale(), 1.0);
  EXPECT_EQ(params_from_json({{"learner", "pril"}, {"reliability", 0.8}}).options<PrilOptions>().reliability, "0.8");
  try {
    params_from_json({{"learner", "cn2-unordered"}, {"beam_width", "wide"}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'beam_width'"), std::string::npos) << e.what();
  }
  try {
    params_from_json({{"learner", "cn2-unordered"}, {"qualty", "evc"}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'quality'?"), std::string::npos) << e.what();
  }
}

// The options a learner reads are its groups' narrowed by what it can do.
TEST(Params, EachLearnerReadsOnlyTheOptionsItUses) {
  LearnerParams p;
  p.learner = "cn2-unordered";
  EXPECT_TRUE(reads_option(p, "combine"));
  EXPECT_FALSE(reads_option(p, "refine_quality"));
  EXPECT_FALSE(reads_option(p, "reliability"));
  p.learner = "decision-list";
  EXPECT_TRUE(reads_option(p, "refine_quality"));
  EXPECT_FALSE(reads_option(p, "combine"));
  p.learner = "rule-logistic";
  EXPECT_TRUE(reads_option(p, "lambda"));
  EXPECT_TRUE(reads_option(p, "evc_permutations"));
  EXPECT_FALSE(reads_option(p, "combine"));
  EXPECT_EQ(option_readers("refine_quality"), "decision-list");
  EXPECT_EQ(option_readers("iterations"), "boost");
}
