// The public Learner (candor/learner.hpp) and fit (candor/fit.hpp) against the options they hold inside.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/evaluate.hpp"
#include "candor/fit.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"
#include "candor/learner.hpp"
#include "candor/model.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

TEST(LearnerApi, DefaultsAreTheOptionsOfCandorFit) {
  const Learner learner;
  EXPECT_EQ(learner.name(), "rule-logistic");
  EXPECT_EQ(learner.to_json(), params_to_json(LearnerParams{}));
  EXPECT_EQ(learner.describe(), describe(LearnerParams{}));
  EXPECT_EQ(Learner("tree").to_json(), params_to_json(params_from_json({{"learner", "tree"}})));
}

TEST(LearnerApi, SetsOptionsByTheirNamesAndChecksThem) {
  const Learner l = Learner("cn2-unordered").set("beam_width", 10).set("correct", "evc").set("max_rules", 7);
  EXPECT_EQ(l.params().rule_search.beam_width, 10);
  EXPECT_EQ(l.params().correct, Correction::evc);
  EXPECT_EQ(l.params().rule_covering.max_rules, 7);
  EXPECT_EQ(l.to_json().at("beam_width"), 10);
  EXPECT_EQ(l.get("beam_width"), 10);
  EXPECT_EQ(l.get("correct"), "evc");
  EXPECT_EQ(Learner().get("seed"), LearnerParams{}.seed);
  EXPECT_THROW(l.get("beam_wdth"), std::invalid_argument);
  // As a model file's learner object is read: an m given without an m scale is the m meant.
  EXPECT_EQ(Learner("cn2-unordered").set("m", 4.0).params().heuristics.m_scale, 0);

  Learner kept("cn2-unordered");
  kept.set("beam_width", 3);
  try {
    kept.set("beam_wdth", 4);
    FAIL() << "an unknown option was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beam_wdth"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kept.set("beam_width", "wide"), std::invalid_argument);
  EXPECT_THROW(kept.set("beam_width", 0), std::invalid_argument);
  EXPECT_THROW(Learner("no-such-learner"), std::invalid_argument);
  // A refused setting leaves the learner as it was.
  EXPECT_EQ(kept.params().rule_search.beam_width, 3);
  EXPECT_EQ(kept.to_json(), Learner("cn2-unordered").set("beam_width", 3).to_json());
}

TEST(LearnerApi, OptionsMadeInsideAreCheckedAsTheyBecomeALearner) {
  LearnerParams p;
  p.rule_search.beam_width = -1;
  EXPECT_THROW(Learner{p}, std::invalid_argument);
  p.rule_search.beam_width = 8;
  EXPECT_EQ(Learner{p}.params().rule_search.beam_width, 8);
}

TEST(LearnerApi, FitsTheModelOfTheSameOptionsHeldInside) {
  const Dataset data = read_arff(test::repo("data/vote.arff"));
  for (const char* name : {"rule-logistic", "cn2-unordered", "tree"}) {
    const Learner learner(name);
    const auto outside = fit_model(data, learner, 2);
    const auto inside = fit_model(data, params_from_json({{"learner", name}}), 1);
    EXPECT_EQ(outside->to_json(), inside->to_json()) << name;
    EXPECT_EQ(model_text(*outside), model_text(*inside)) << name;
  }
  const Learner rules = Learner("cn2-unordered").set("correct", "evc");
  const EvaluationResult a = cross_validate(data, rules, 5, 1, 3, 2);
  const EvaluationResult b = cross_validate(data, rules.params(), 5, 1, 3, 2);
  EXPECT_EQ(a.mean.accuracy, b.mean.accuracy);
  EXPECT_EQ(a.mean.log_loss, b.mean.log_loss);
  EXPECT_GT(a.mean.accuracy, 0.9);
}

TEST(LearnerApi, TablesListEveryOptionAndLearner) {
  const auto options = option_table();
  ASSERT_EQ(options.size(), param_table().size());
  for (std::size_t i = 0; i < options.size(); ++i) EXPECT_EQ(options[i].name, param_table()[i].name);
  const auto beam = std::find_if(options.begin(), options.end(), [](const auto& o) { return o.name == "beam_width"; });
  ASSERT_NE(beam, options.end());
  EXPECT_EQ(beam->type, "int");
  EXPECT_EQ(beam->default_value, LearnerParams{}.rule_search.beam_width);
  EXPECT_FALSE(beam->help.empty());
  const auto learners = learner_descriptions();
  ASSERT_EQ(learners.size(), learner_table().size());
  const auto tree = std::find_if(learners.begin(), learners.end(), [](const auto& l) { return l.name == "tree"; });
  ASSERT_NE(tree, learners.end());
  EXPECT_TRUE(std::find(tree->options.begin(), tree->options.end(), "confidence") != tree->options.end());
  EXPECT_TRUE(std::find(tree->options.begin(), tree->options.end(), "beam_width") == tree->options.end());
}

}  // namespace
}  // namespace candor
