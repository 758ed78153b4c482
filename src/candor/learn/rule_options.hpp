#pragma once
// The options of the rule learners' parts: the heuristics that rank rules (read by learn/qualities.cpp), the
// search for one rule and the covering loop around it (read by learn/covering.cpp). Their types and defaults
// here; their checks and help in heuristic_params(), rule_search_params() and rule_covering_params(), which
// param_table() takes in. Every other part of candor sees them as LearnerParams::heuristics, rule_search and
// rule_covering, and by their names (--quality, --beam-width, --stop, ...). An unset option (or a 0 where
// said) means the learner's default (learn/learner.hpp; LearnerParams::resolved_*).
#include <optional>
#include <string>
#include <vector>

#include "candor/search/search_kind.hpp"
#include "candor/util/names.hpp"

namespace candor {

struct HeuristicOptions {
  // Names of quality measures (learn/qualities.hpp).
  std::optional<std::string> quality;         // unset: the learner's default (LearnerParams::resolved_quality)
  std::optional<std::string> refine_quality;  // decision-list: heuristic ranking refinements (unset: the selection one)
  std::optional<std::string> select_quality;  // decision-list: heuristic choosing the rule (unset: `quality`)
  double m = 22.466;                          // Janssen and Fürnkranz (2010), as paper 003 uses
  double m_scale = -1;  // > 0: m = m_scale * sqrt(training weight), set by `fit`; < 0: the learner's default
  bool operator==(const HeuristicOptions&) const = default;
};

struct RuleSearchOptions {
  std::optional<SearchKind> search;  // unset: the learner's default (resolved_search)
  int beam_width = 5;
  int max_beam_width = 512;  // layered search: the widest beam tried
  int max_rule_length = 0;   // 0: the learner's default (resolved_max_rule_length)
  int min_covered = 1;
  // A numeric attribute of more distinct values than this is cut only between as many quantile bins (0: between
  // any two distinct values). 255, as XGBoost's and LightGBM's histograms: on the 44 corpus sets the same
  // accuracy, log loss and calibration as exact cuts (docs/defaults.md), on large data a fraction of the time and
  // memory; paper_params pins exact cuts.
  int numeric_bins = 255;
  double alpha = 1.0;         // CN2's significance test against the prior (1: none)
  double parent_alpha = 1.0;  // ... against the rule's parent
  bool not_equal = false;
  bool operator==(const RuleSearchOptions&) const = default;
};

// --stop: covering stops when a class's best rule is no better than the prior (prior) or when no rule is left
// (none). Unset: the learner's default (LearnerParams::resolved_stop()).
enum class Stopping { none, prior };
inline constexpr Named<Stopping> kStoppingNames[] = {{"none", Stopping::none}, {"prior", Stopping::prior}};

// --correct: how a rule's probability is corrected for the search that found it (none: the quality's own).
// Unset: the learner's default (LearnerParams::resolved_correct()).
enum class Correction { evc, bootstrap, none };
inline constexpr Named<Correction> kCorrectionNames[] = {
    {"evc", Correction::evc}, {"bootstrap", Correction::bootstrap}, {"none", Correction::none}};

// --covering, held as its enum and read and written by these names.
enum class Covering { remove, probabilistic };
inline constexpr Named<Covering> kCoveringNames[] = {{"remove", Covering::remove},
                                                     {"probabilistic", Covering::probabilistic}};

struct RuleCoveringOptions {
  int max_rules = 0;             // 0: no limit
  std::string target;            // one class value only; empty: every class
  std::optional<Stopping> stop;  // unset: the learner's default (resolved_stop)
  double min_new_positives = 1;
  double min_new_share = 0;
  Covering covering = Covering::remove;
  bool operator==(const RuleCoveringOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of these options (group "rule"), each in the order of `candor params`.
const std::vector<ParamInfo>& heuristic_params();
const std::vector<ParamInfo>& rule_search_params();
const std::vector<ParamInfo>& rule_covering_params();

}  // namespace candor
