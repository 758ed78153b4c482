#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "candor/learn/evc_options.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/learn/stable_options.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"

using namespace candor;

namespace {
std::string message_of(const ParamValues& v, double x) {
  try {
    v.check("--x", x);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ParamValues, RangesSayTheirEndsAndRefuseWhatLiesOutside) {
  EXPECT_EQ(at_least(1).describe(), "at least 1");
  EXPECT_EQ(in_range(0, 0.5, true).describe(), "in (0, 0.5]");
  EXPECT_EQ(in_range(0, 1, true, true).describe(), "in (0, 1)");
  EXPECT_EQ(at_least(0).or_default(-1).describe(), "-1 or at least 0");
  EXPECT_EQ(ParamValues{}.describe(), "");
  EXPECT_EQ(message_of(in_range(0, 0.5, true), 0.5), "");
  EXPECT_EQ(message_of(in_range(0, 0.5, true), 0), "--x must be in (0, 0.5], not 0");
  EXPECT_EQ(message_of(in_range(0, 1, true, true), 1), "--x must be in (0, 1), not 1");
  EXPECT_EQ(message_of(at_least(0).or_default(-1), -1), "");
  EXPECT_EQ(message_of(at_least(0).or_default(-1), -0.5), "--x must be -1 or at least 0, not -0.5");
  EXPECT_EQ(message_of(at_least(2), 1.5), "--x must be at least 2, not 1.5");
}

TEST(ParamValues, NamesAreOneOfTheListAndEmptyOnlyWhereItMeansTheDefault) {
  const ParamValues stop = one_of([] { return std::vector<std::string>{"none", "prior"}; }, true);
  EXPECT_EQ(stop.describe(), "none, prior or empty (the learner's default)");
  EXPECT_NO_THROW(stop.check("--stop", ""));
  EXPECT_NO_THROW(stop.check("--stop", "prior"));
  try {
    stop.check("--stop", "prio");
    FAIL() << "a misspelt name passed";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown --stop value 'prio'; did you mean 'prior'? (known: none, prior)");
  }
  const ParamValues penalty = one_of([] { return std::vector<std::string>{"l2", "l1"}; });
  EXPECT_THROW(penalty.check("--penalty", ""), std::invalid_argument);
}

TEST(ParamValues, EveryDefaultIsAllowedAndEveryLearnerValidatesAtItsDefaults) {
  const LearnerParams defaults;
  for (const auto& info : param_table())
    std::visit(
        [&](auto member) {
          using T = typename decltype(member)::type;
          if constexpr (std::is_same_v<T, std::string>) {
            EXPECT_NO_THROW(info.values.check(info.name, member.get(defaults))) << info.name;
          } else if constexpr (!std::is_same_v<T, bool>) {
            EXPECT_NO_THROW(info.values.check(info.name, static_cast<double>(member.get(defaults)))) << info.name;
          }
        },
        info.member);
  for (const auto& learner : learner_table()) {
    LearnerParams p;
    p.learner = learner.name;
    EXPECT_NO_THROW(validate(p)) << learner.name;
  }
}

TEST(ParamValues, ValidateJudgesEveryOptionByItsDeclaration) {
  // Options of every group, each one step outside its declared values, under a learner that reads it.
  struct Case {
    const char* learner;
    std::function<void(LearnerParams&)> change;
    std::string message;
  };
  const std::vector<Case> cases{
      {"rule-logistic", [](LearnerParams& p) { p.rule_search.beam_width = 0; },
       "--beam-width must be at least 1, not 0"},
      {"rule-logistic", [](LearnerParams& p) { p.heuristics.m = -1; }, "--m must be at least 0, not -1"},
      {"rule-logistic", [](LearnerParams& p) { p.rule_covering.min_new_share = 1.5; },
       "--min-new-share must be in [0, 1], not 1.5"},
      {"rule-logistic", [](LearnerParams& p) { p.heuristics.quality = "gini"; }, "unknown --quality value 'gini'"},
      {"rule-logistic", [](LearnerParams& p) { set_option_text(p, "lambda_search", "always"); },
       "unknown --lambda-search value 'always'"},
      {"tree", [](LearnerParams& p) { p.options<TreeOptions>().confidence = 0.6; },
       "--confidence must be in (0, 0.5], not 0.6"},
      {"boost", [](LearnerParams& p) { p.options<BoostOptions>().iterations = 0; },
       "--iterations must be in [1, 1000000], not 0"},
      {"pril", [](LearnerParams& p) { p.options<PrilOptions>().branching = 3; },
       "--branching must be in [-1, 2], not 3"},
      // An option the learner does not read is named as such before its value is judged.
      {"cn2-unordered", [](LearnerParams& p) { p.options<TreeOptions>().confidence = 0.6; },
       "--confidence is an option of --learner tree"},
  };
  for (const auto& [learner, change, message] : cases) {
    LearnerParams p;
    p.learner = learner;
    try {
      change(p);  // a name an enum option does not know is refused as it is read
      validate(p);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// Options are declared beside the components that read them (the rule heuristics, search and covering, stable
// rules, EVC, rule-logistic, trees, boost, PrIL) and reach LearnerParams through the one table: each
// component's declarations are its group's options in the table, in order; only what several components read
// stays in LearnerParams itself; and each name writes the member it declares, from JSON as from any reader.
TEST(LearnerOptions, BlocksAreValuesThatReadAsTheirDefaultsUntilWritten) {
  LearnerParams a;
  // A block never written reads as its defaults and compares equal to a written block at its defaults.
  EXPECT_EQ(std::as_const(a).options<PrilOptions>().steps, PrilOptions{}.steps);
  LearnerParams b;
  b.options<PrilOptions>();  // written, at its defaults
  EXPECT_EQ(a, b);
  EXPECT_EQ(b, a);
  // A copy owns its blocks: writing it leaves the original alone.
  LearnerParams c = b;
  c.options<PrilOptions>().steps = 9;
  c.options<BoostOptions>().iterations = 3;
  EXPECT_EQ(b.options<PrilOptions>().steps, PrilOptions{}.steps);
  EXPECT_EQ(b.options<BoostOptions>().iterations, BoostOptions{}.iterations);
  EXPECT_NE(b, c);
  EXPECT_NE(c, a);
  // Assignment copies too, and equality compares every block.
  a = c;
  EXPECT_EQ(a, c);
  a.options<BoostOptions>().iterations = 4;
  EXPECT_NE(a, c);
  EXPECT_EQ(c.options<BoostOptions>().iterations, 3);
  // The blocks are what the table reads and writes.
  EXPECT_FALSE(params_to_json(c).contains("iterations"));  // c's learner (rule-logistic) does not read it
  c.learner = "boost";
  EXPECT_EQ(params_to_json(c).at("iterations"), 3);
  EXPECT_EQ(params_from_json(params_to_json(c)).options<BoostOptions>(), c.options<BoostOptions>());
}

TEST(LearnerRegistry, EveryLearnerAndItsOptionsComeFromItsFolder) {
  // Every folder registered (the generated list holds them in the order of their names), then sorted by
  // position: the learners' table is theirs, in that order, and no name is registered twice.
  // A learner added later joins these in its folder's position: the test names those it knows, in order.
  const auto& registrations = learner_registrations();
  ASSERT_GE(registrations.size(), 8u);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < registrations.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(registrations[i - 1].position, registrations[i].position);
    }
    for (const auto& l : registrations[i].learners) names.emplace_back(l.name);
  }
  EXPECT_EQ(names, learner_names());
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  std::vector<std::string> known;
  for (const auto& name : names)
    if (std::set<std::string>{"cn2-unordered", "cn2-ordered", "laplace-covering", "decision-list", "rule-logistic",
                              "rule", "stump", "tree", "boost", "pril"}
            .count(name))
      known.push_back(name);
  EXPECT_EQ(known, (std::vector<std::string>{"cn2-unordered", "cn2-ordered", "laplace-covering", "decision-list",
                                             "rule-logistic", "rule", "stump", "tree", "boost", "pril"}));
  // A folder's options come into the table as one block, in the folders' order, right after EVC's.
  std::vector<std::string> table;
  for (const auto& info : param_table()) table.emplace_back(info.name);
  auto at = std::find(table.begin(), table.end(), evc_params().back().name) + 1;
  for (const auto& r : registrations) {
    if (!r.params) continue;
    for (const auto& info : r.params()) {
      ASSERT_NE(at, table.end());
      EXPECT_EQ(*at++, info.name);
    }
    for (const auto& [group, title] : r.option_groups) EXPECT_EQ(option_group_title(group), title);
  }
  EXPECT_EQ(*at, "seed");
  EXPECT_EQ(option_group_title("pril"), "PrIL options");
  EXPECT_EQ(option_group_title(""), "Learner options");
}

TEST(ParamTable, ComponentOptionsAreDeclaredBesideTheirComponent) {
  auto names_in = [](const std::vector<ParamInfo>& table, std::initializer_list<std::string> groups) {
    std::vector<std::string> out;
    for (const auto& info : table)
      if (std::find(groups.begin(), groups.end(), info.group) != groups.end()) out.push_back(info.name);
    return out;
  };
  EXPECT_EQ(names_in(param_table(), {"pril"}), names_in(pril_params(), {"pril"}));
  EXPECT_EQ(pril_params().size(), 12u);
  EXPECT_EQ(names_in(param_table(), {"leaf", "tree"}), names_in(tree_params(), {"leaf", "tree"}));
  EXPECT_EQ(tree_params().size(), 4u);
  EXPECT_EQ(names_in(param_table(), {"boost"}), names_in(boost_params(), {"boost"}));
  EXPECT_EQ(boost_params().size(), 6u);
  auto names_of_table = [](const std::vector<ParamInfo>& table) {
    std::vector<std::string> out;
    for (const auto& info : table) out.push_back(info.name);
    return out;
  };
  EXPECT_EQ(names_of_table(stable_params()),
            (std::vector<std::string>{"stable_resamples", "stable_frequency", "stable_quantiles", "stable_thresholds",
                                      "stable_size"}));
  EXPECT_EQ(names_of_table(evc_params()), (std::vector<std::string>{"evc_permutations", "evc_fit", "evc_pool"}));
  EXPECT_EQ(names_of_table(heuristic_params()),
            (std::vector<std::string>{"quality", "refine_quality", "select_quality", "m", "m_scale"}));
  EXPECT_EQ(rule_search_params().size(), 9u);
  EXPECT_EQ(rule_covering_params().size(), 6u);
  // What stays in LearnerParams itself is what several components read.
  // (A learner's folder declares its own: every registered table counts as a component's.)
  std::vector<const std::vector<ParamInfo>*> components{&heuristic_params(), &rule_search_params(),
                                                        &rule_covering_params(), &stable_params(), &evc_params()};
  for (const auto& r : learner_registrations())
    if (r.params) components.push_back(&r.params());
  std::vector<std::string> shared;
  for (const auto& info : param_table()) {
    bool in_component = false;
    for (const auto* part : components)
      for (const auto& declared : *part) in_component |= std::string(declared.name) == info.name;
    if (!in_component) shared.push_back(info.name);
  }
  EXPECT_EQ(shared,
            (std::vector<std::string>{"learner", "combine", "prior_weight", "correct", "bootstrap_resamples", "seed"}));
  // --multiclass is declared with the linear options and kept in LearnerParams itself: KBS reads it too.
  EXPECT_EQ(names_in(param_table(), {"linear"}), names_in(linear_params(), {"linear"}));
  EXPECT_EQ(linear_params().size(), 10u);
  EXPECT_EQ(names_of_table(gradient_rules_params()),
            (std::vector<std::string>{"gradient_rounds", "gradient_shrinkage", "gradient_sample", "gradient_prune"}));

  EXPECT_EQ(params_from_json({{"evc_permutations", 7}}).evc.permutations, 7);
  // An option held as an enum refuses other names as it is read.
  EXPECT_EQ(params_from_json({{"evc_fit", "ml"}}).evc.fit, GumbelFit::maximum_likelihood);
  try {
    params_from_json({{"evc_fit", "median"}});
    ADD_FAILURE() << "evc_fit median was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown --evc-fit value 'median' (known: fixed-beta, moments, ml)");
  }
  const LearnerParams p = params_from_json({{"learner", "pril"},
                                            {"reliability", "0.7,0.6"},
                                            {"steps", 7},
                                            {"bins", 3},
                                            {"risk", 0.1},
                                            {"branching_attributes", "a,b"},
                                            {"reliability_prior", true}});
  EXPECT_EQ(p.options<PrilOptions>().reliability, "0.7,0.6");
  EXPECT_EQ(p.options<PrilOptions>().steps, 7);
  EXPECT_EQ(p.options<PrilOptions>().bins, 3);
  EXPECT_EQ(p.options<PrilOptions>().risk, 0.1);
  EXPECT_EQ(p.options<PrilOptions>().branching_attributes, "a,b");
  EXPECT_TRUE(p.options<PrilOptions>().reliability_prior);
  EXPECT_EQ(p.options<PrilOptions>().min_cases, PrilOptions{}.min_cases);
  // Every field of the table reads back what was written through it, and no two share a member.
  LearnerParams q;
  std::map<std::string, std::string> texts;  // what each text option was given
  for (const auto& info : param_table())
    std::visit(
        [&](auto member) {
          using T = typename decltype(member)::type;
          if constexpr (std::is_same_v<decltype(member), ParamNameField>) {
            if (!member.names) {  // a name held as text (a quality measure's): checked by validate()
              texts[info.name] = std::string("x-") + info.name;
              member.set(q, info.name, texts[info.name]);
              return;
            }
            // An option held as an enum takes only its names: the first that is not its default.
            for (const auto& name : info.values.names())
              if (name != member.get(LearnerParams{})) {
                texts[info.name] = name;
                break;
              }
            member.set(q, info.name, texts[info.name]);
            EXPECT_THROW(member.set(q, info.name, "x-" + texts[info.name]), std::invalid_argument) << info.name;
          } else if constexpr (std::is_same_v<T, bool>) {
            member.ref(q) = !member.get(LearnerParams{});
          } else if constexpr (std::is_same_v<T, std::string>) {
            texts[info.name] = std::string("x-") + info.name;
            member.ref(q) = texts[info.name];
          } else {
            member.ref(q) = static_cast<T>(member.get(LearnerParams{}) + 17);
          }
        },
        info.member);
  const nlohmann::json written = [&] {
    nlohmann::json j;
    for (const auto& info : param_table()) std::visit([&](auto member) { j[info.name] = member.get(q); }, info.member);
    return j;
  }();
  for (const auto& info : param_table())
    std::visit(
        [&](auto member) {
          using T = typename decltype(member)::type;
          if constexpr (std::is_same_v<T, std::string>) {
            EXPECT_EQ(written[info.name], texts.at(info.name)) << info.name;
          }
        },
        info.member);
  EXPECT_EQ(q.options<PrilOptions>().reliability, "x-reliability");
  EXPECT_EQ(q.options<BoostOptions>().base, BaseLearner::tree);
  EXPECT_EQ(q.options<BoostOptions>().boosting, BoostingMethod::adaboost_m1);
  EXPECT_EQ(q.options<BoostOptions>().calibrate, BoostCalibration::none);
  EXPECT_EQ(q.evc.pool, EvcPool::none);
  EXPECT_EQ(q.evc.fit, GumbelFit::moments);
  EXPECT_EQ(q.heuristics.quality, "x-quality");
  EXPECT_EQ(q.rule_search.beam_width, RuleSearchOptions{}.beam_width + 17);
  EXPECT_EQ(q.rule_covering.covering, Covering::probabilistic);
  EXPECT_EQ(q.stable.quantiles, StableOptions{}.quantiles + 17);
  EXPECT_EQ(q.options<LinearOptions>().features, LogisticFeatures::rules_and_attributes);
  EXPECT_EQ(q.multiclass, MulticlassForm::softmax);  // unset by default: its first name
  EXPECT_EQ(q.options<TreeOptions>().leaf_estimate, LeafEstimateOption::laplace);
  EXPECT_EQ(q.options<PrilOptions>().steps, PrilOptions{}.steps + 17);
}

// Options keep the learners they name once looked up (LearnerEntries); what they keep follows the names.
TEST(LearnerEntries, FollowTheLearnerAndItsBaseAsTheyChange) {
  LearnerParams p;
  p.learner = "tree";
  EXPECT_STREQ(p.info().name, "tree");
  p.learner = "stump";
  EXPECT_STREQ(p.info().name, "stump");
  p.learner = "boost";
  set_option_text(p, "base", "tree");
  ASSERT_NE(base_learner(p), nullptr);
  EXPECT_STREQ(base_learner(p)->name, "tree");
  set_option_text(p, "base", "stump");
  EXPECT_STREQ(base_learner(p)->name, "stump");
  EXPECT_STREQ(p.info().name, "boost");
  // A copy keeps what was found and follows its own name; neither takes part in comparing options.
  LearnerParams q = p;
  EXPECT_EQ(q, p);
  q.learner = "pril";
  EXPECT_STREQ(q.info().name, "pril");
  EXPECT_STREQ(p.info().name, "boost");
  LearnerParams fresh;
  fresh.learner = "boost";
  set_option_text(fresh, "base", "stump");
  EXPECT_EQ(fresh, p);
  p.learner = "no-such-learner";
  EXPECT_THROW(p.info(), std::invalid_argument);
}
