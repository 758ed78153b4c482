#include <gtest/gtest.h>

#include <string>

#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/search/search_kind.hpp"

using namespace candor;

namespace {
LearnerParams of(const std::string& learner) {
  LearnerParams p;
  p.learner = learner;
  return p;
}
}  // namespace

// Each learner's defaults, as the learners' table documents them (docs/reference.md), and the options given
// where given.
TEST(RuleSettings, AreTheOptionsGivenElseTheLearnersDefaults) {
  const RuleSettings cn2 = resolve_rule_settings(of("cn2-unordered"));
  EXPECT_EQ(cn2.quality, "m-estimate");
  EXPECT_EQ(cn2.search, SearchKind::beam);
  EXPECT_EQ(cn2.beam_width, 5);
  EXPECT_EQ(cn2.max_rule_length, 5);
  EXPECT_EQ(cn2.stop, Stopping::prior);
  EXPECT_EQ(cn2.correct, Correction::none);
  EXPECT_EQ(cn2.m_scale, 1);
  EXPECT_EQ(cn2.combine, "lift-product");
  EXPECT_FALSE(cn2.not_equal);
  EXPECT_FALSE(cn2.uses_evc());

  const RuleSettings list = resolve_rule_settings(of("decision-list"));
  EXPECT_EQ(list.search, SearchKind::greedy);
  EXPECT_EQ(list.beam_width, 1);  // a greedy search is a beam of one, whatever --beam-width says
  EXPECT_EQ(list.max_rule_length, kNoLengthLimit);
  EXPECT_EQ(list.stop, Stopping::none);
  EXPECT_FALSE(list.combine.has_value());  // the first firing rule decides
  EXPECT_TRUE(list.separate_heuristics);

  // rule-logistic searches as gradient-rules does and corrects by EVC.
  const RuleSettings logistic = resolve_rule_settings(of("rule-logistic"));
  EXPECT_EQ(logistic.quality, "wracc");
  EXPECT_TRUE(logistic.not_equal);
  EXPECT_EQ(logistic.correct, Correction::evc);
  EXPECT_TRUE(logistic.uses_evc());

  LearnerParams given = of("cn2-unordered");
  given.heuristics.quality = "evc";
  given.rule_search.search = SearchKind::greedy;
  given.rule_search.max_rule_length = 3;
  given.rule_covering.stop = Stopping::none;
  given.combine = "counts";
  const RuleSettings s = resolve_rule_settings(given);
  EXPECT_EQ(s.quality, "evc");
  EXPECT_EQ(s.beam_width, 1);
  EXPECT_EQ(s.max_rule_length, 3);
  EXPECT_EQ(s.stop, Stopping::none);
  EXPECT_EQ(s.combine, "counts");
  EXPECT_EQ(s.correct, Correction::none);  // --quality evc corrects by itself
  EXPECT_TRUE(s.uses_evc());
}

// Written back, the settings are what a model records: the same options file as the learner's defaults
// resolve to, with every rule option now given, so that a later change of a default does not change what an
// old model says it was fitted with.
TEST(RuleSettings, WrittenBackRecordTheDefaultsAsGiven) {
  for (const char* learner : {"cn2-unordered", "cn2-ordered", "laplace-covering", "decision-list", "rule"}) {
    const LearnerParams p = of(learner);
    const LearnerParams used = with_rule_settings(p, resolve_rule_settings(p));
    EXPECT_EQ(params_to_json(used), params_to_json(p)) << learner;
    EXPECT_TRUE(used.heuristics.quality.has_value()) << learner;
    EXPECT_TRUE(used.rule_search.search.has_value()) << learner;
    EXPECT_TRUE(used.rule_covering.stop.has_value()) << learner;
    EXPECT_TRUE(used.correct.has_value()) << learner;
    EXPECT_EQ(resolve_rule_settings(used).quality, resolve_rule_settings(p).quality) << learner;
  }
}

// An option unset is the learner's default; its text is empty, and the empty text unsets it again.
TEST(RuleSettings, AnUnsetOptionReadsAndWritesAsTheEmptyText) {
  LearnerParams p = of("cn2-unordered");
  EXPECT_EQ(option_text(p, "stop"), "");
  set_option_text(p, "stop", "none");
  EXPECT_EQ(p.rule_covering.stop, Stopping::none);
  EXPECT_EQ(option_text(p, "stop"), "none");
  set_option_text(p, "stop", "");
  EXPECT_FALSE(p.rule_covering.stop.has_value());
  set_option_text(p, "quality", "laplace");
  EXPECT_EQ(p.heuristics.quality, "laplace");
  set_option_text(p, "quality", "");
  EXPECT_FALSE(p.heuristics.quality.has_value());
  EXPECT_THROW(set_option_text(p, "search", "wide"), std::invalid_argument);
  // A quality's name is checked with the other options (its table is the measures').
  set_option_text(p, "quality", "gini");
  EXPECT_THROW(validate(p), std::invalid_argument);
}
