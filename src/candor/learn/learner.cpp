#include "candor/learn/learner.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "candor/learn/boost/base_learner.hpp"
#include "candor/learn/boost/boost.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/pril.hpp"
#include "candor/learn/rule_logistic.hpp"
#include "candor/learn/tree_learners.hpp"
#include "candor/util/names.hpp"

namespace candor {

const std::vector<LearnerInfo>& learner_table() {
  // The rule learners' defaults were measured on the whole corpus (docs/defaults.md); a member left out is
  // null, false or 0: no default of its own, no such capability.
  static const std::vector<LearnerInfo> table{
      {.name = "cn2-unordered",
       .description = "rules per class (Clark and Boswell 1991), combined by --combine",
       .fit = fit_cn2_unordered,
       .quality = "m-estimate",
       .search = "beam",
       .max_rule_length = 5,
       .stop = "prior",
       .combine = "lift-product",
       .m_scale = 1.0,
       .evc_quality = true,
       .correct_evc = true,
       .stopping = true,
       .probabilistic_covering = true,
       .option_groups = "rule",
       .stable_rules = true,
       .paper_settings = cn2_unordered_paper_settings},
      {.name = "cn2-ordered",
       .description = "a decision list (Clark and Niblett 1989): the first firing rule decides",
       .fit = fit_cn2_ordered,
       .quality = "m-estimate",
       .search = "beam",
       .max_rule_length = 5,
       .stop = "prior",
       .m_scale = 1.0,
       .evc_quality = true,
       .correct_evc = true,
       .stopping = true,
       .option_groups = "rule",
       .paper_settings = cn2_ordered_paper_settings},
      {.name = "laplace-covering",
       .description = "rules per class minimising the Laplace error, the matching rule of lowest error decides "
                      "(paper 002, section 4)",
       .fit = fit_laplace_covering,
       .quality = "laplace",
       .search = "layered",
       .max_rule_length = kNoLengthLimit,
       .stop = "none",
       .only_quality = "laplace",
       .layered_search = true,
       .option_groups = "rule"},
      {.name = "decision-list",
       .description = "top-down hill-climbing separate-and-conquer with separate refinement and selection "
                      "heuristics (paper 003)",
       .fit = fit_decision_list,
       .quality = "laplace",
       .search = "greedy",
       .max_rule_length = kNoLengthLimit,
       .stop = "none",
       .separate_heuristics = true,
       .correct_evc = true,
       .stopping = true,
       .option_groups = "rule"},
      {.name = "rule-logistic",
       .description = "L2 logistic regression over CN2 rules (0/1 features, learned by cn2-unordered with these "
                      "rule options) and the attributes, each rule's weight penalised by gamma = s - q n (paper "
                      "000, section 4.3.3)",
       .fit_model = fit_rule_logistic,
       .quality = "m-estimate",
       .search = "beam",
       .max_rule_length = 5,
       .stop = "prior",
       .m_scale = 1.0,
       .evc_quality = true,
       .correct_evc = true,
       .stopping = true,
       .probabilistic_covering = true,
       .option_groups = "rule linear",
       .correct = "evc",
       .stable_rules = true,
       .prediction = "(logistic weights)",
       .describe = describe_rule_logistic,
       .write_options = write_rule_logistic_options,
       .paper_settings = rule_logistic_paper_settings},
      {.name = "rule",
       .description = "the single best rule of CN2's search (any quality; WRAcc by default, the subgroup-discovery "
                      "setting KBS came from), then a default rule for the examples it does not cover: the base "
                      "learner `boost --base rule`",
       .fit = fit_best_rule,
       .quality = "wracc",
       .search = "beam",
       .max_rule_length = 5,
       .stop = "none",
       .evc_quality = true,
       .correct_evc = true,
       .option_groups = "rule"},
      {.name = "stump",
       .description = "a one-level decision tree as Weka's DecisionStump: one binary test by weighted entropy, a "
                      "third branch for missing values",
       .fit_model = fit_tree,
       .option_groups = "leaf",
       .also_reads = tree_also_reads,
       .prediction = "(leaf distribution)",
       .describe = describe_tree_learner,
       .write_options = write_tree_options},
      {.name = "tree",
       .description = "a C4.5 decision tree with Weka J48's defaults (gain ratio, error-based pruning with subtree "
                      "raising, fractional instances for missing values)",
       .fit_model = fit_tree,
       .option_groups = "leaf tree",
       .also_reads = tree_also_reads,
       .prediction = "(leaf distribution)",
       .describe = describe_tree_learner,
       .write_options = write_tree_options},
      {.name = "boost",
       .description = "an ensemble of --iterations base models (--base) by --boosting kbs, adaboost-m1 or "
                      "logitboost (paper 001)",
       .fit_model = fit_boost,
       .option_groups = "boost base",
       .multiclass = "one-vs-rest",
       .base_option = "base",
       .reads_base = boost_reads_base,
       .deciding_options = {"boosting", "base"},
       .also_reads = boost_also_reads,
       .prediction = "(ensemble)",
       .check = check_boost_options,
       .describe = describe_boost,
       .write_options = write_boost_options},
      {.name = "pril",
       .description = "probabilistic inductive learning (paper 004): rules that classify correctly at least their "
                      "stated reliability of the time with confidence 1 - risk, and undecided cases where no rule "
                      "is reliable enough",
       .fit_model = fit_pril,
       .option_groups = "pril",
       .prediction = "(the first reliable rule; else undecided)",
       .check = check_pril_options,
       .describe = describe_pril,
       .write_options = write_pril_options},
  };
  return table;
}

namespace {
bool has_group(const LearnerInfo& l, const std::string& group) {
  const std::string groups = std::string(" ") + l.option_groups + " ";
  return groups.find(" " + group + " ") != std::string::npos;
}
}  // namespace

const LearnerInfo* base_learner(const LearnerParams& p) {
  const LearnerInfo& l = find_learner(p.learner);
  return l.base_option ? &find_learner(option_text(p, l.base_option)) : nullptr;
}

std::vector<std::string> base_learner_names(const LearnerInfo& learner) {
  for (const auto& info : param_table())
    if (learner.base_option && std::string_view(info.name) == learner.base_option && info.values.names)
      return info.values.names();
  return {};
}

const LearnerInfo& rule_learner(const LearnerParams& p) {
  const LearnerInfo* base = base_learner(p);
  return base ? *base : find_learner(p.learner);
}

bool reads_option_group(const LearnerParams& p, const std::string& group) {
  if (group.empty()) return true;
  const LearnerInfo& l = find_learner(p.learner);
  if (has_group(l, group)) return true;
  const LearnerInfo* base = base_learner(p);
  if (!base || (l.reads_base && !l.reads_base(p))) return false;
  return has_group(*base, group);
}

bool reads_option(const LearnerParams& p, const std::string& name) {
  const ParamInfo* info = nullptr;
  for (const auto& i : param_table())
    if (name == i.name) info = &i;
  if (!info) return false;
  const LearnerInfo& learner = find_learner(p.learner);
  if (learner.also_reads && learner.also_reads(p, name)) return true;
  // Read by the rule learners that correct (--correct bootstrap) and by those that say so (also_reads).
  if (name == "bootstrap_resamples") return reads_option_group(p, "rule") && rule_learner(p).correct_evc;
  // Read by the linear learners and by those that say so (also_reads).
  if (name == "multiclass") return reads_option_group(p, "linear");
  if (!reads_option_group(p, info->group)) return false;
  if (std::string(info->group) != "rule") return true;
  const LearnerInfo& l = rule_learner(p);
  if (name == "refine_quality" || name == "select_quality") return l.separate_heuristics;
  if (name == "combine") return std::string(l.combine).size() > 0;
  if (name == "max_beam_width") return l.layered_search;
  if (name == "covering") return l.probabilistic_covering;
  if (name == "stop" || name == "min_new_positives" || name == "min_new_share") return l.stopping;
  if (name == "correct") return l.correct_evc;
  if (name.rfind("stable_", 0) == 0) return learner.stable_rules;
  if (name.rfind("evc_", 0) == 0) return l.evc_quality || l.correct_evc;
  return true;
}

bool learner_reads_option(const std::string& learner, const std::string& name) {
  LearnerParams probe;
  probe.learner = learner;
  if (reads_option(probe, name)) return true;
  const LearnerInfo& l = find_learner(learner);
  if (!l.base_option) return false;
  for (const auto& base : base_learner_names(l)) {
    set_option_text(probe, l.base_option, base);
    if (reads_option(probe, name)) return true;
  }
  return false;
}

std::string option_readers(const std::string& name) {
  std::string readers;
  auto add = [&](const std::string& r) { readers += (readers.empty() ? "" : ", ") + r; };
  for (const auto& l : learner_table()) {
    LearnerParams probe;
    probe.learner = l.name;
    if (!l.base_option) {
      if (reads_option(probe, name)) add(l.name);
      continue;
    }
    bool every_base = true;
    std::vector<std::string> bases;
    for (const auto& base : base_learner_names(l)) {
      set_option_text(probe, l.base_option, base);
      if (reads_option(probe, name))
        bases.push_back(base);
      else
        every_base = false;
    }
    if (every_base)
      add(l.name);
    else
      for (const auto& base : bases) add(std::string(l.name) + " " + option_flag(l.base_option) + " " + base);
  }
  return readers;
}

std::string learners_markdown() {
  std::string out =
      "| learner | what | quality | m scale | search | max length | stop | combine "
      "|\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& l : learner_table()) {
    if (!has_group(l, "rule")) {
      out += std::string("| `") + l.name + "` | " + l.description + " | - | - | - | - | - | " + l.prediction + " |\n";
      continue;
    }
    const std::string length = l.max_rule_length >= kNoLengthLimit ? "none" : std::to_string(l.max_rule_length);
    const std::string combine = *l.prediction                    ? l.prediction
                                : std::string(l.combine).empty() ? "(one rule decides)"
                                                                 : l.combine;
    out += std::string("| `") + l.name + "` | " + l.description + " | " + l.quality + " | " +
           nlohmann::json(l.m_scale).dump() + " | " + l.search + " | " + length + " | " + l.stop + " | " + combine +
           " |\n";
  }
  return out;
}

const LearnerInfo& find_learner(const std::string& name) {
  for (const auto& l : learner_table())
    if (name == l.name) return l;
  throw std::invalid_argument(unknown_name_message("learner", name, learner_names()));
}

std::vector<std::string> learner_names() {
  std::vector<std::string> out;
  for (const auto& l : learner_table()) out.emplace_back(l.name);
  return out;
}

}  // namespace candor
