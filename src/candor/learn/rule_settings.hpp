#pragma once
// The rule options of one fit, each resolved once against its learner's defaults where the fit starts
// (learn/fit.cpp): what the rule learners, their searches and a model's record of its options read. Nothing
// downstream of resolve_rule_settings asks LearnerParams for a default or looks a learner up for one.
#include <optional>
#include <string>

#include "candor/learn/params.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/search/search_kind.hpp"

namespace candor {

struct RuleSettings {
  std::string quality;               // the measure that ranks rules (decision-list: selects them)
  std::string refine_quality;        // decision-list: the measure that ranks refinements; else `quality`
  bool separate_heuristics = false;  // the learner's refinement and selection heuristics are apart
  SearchKind search = SearchKind::beam;
  int beam_width = 1;  // 1 for greedy
  int max_rule_length = 0;
  double m_scale = 0;      // > 0: m = m_scale * sqrt(training weight)
  bool not_equal = false;  // the searches generate A != v
  Stopping stop = Stopping::none;
  Correction correct = Correction::none;
  std::optional<std::string> combine;  // a rule set's combination; unset where one rule decides
  // Whether rule probabilities come from EVC: quality evc (or m-evc) or --correct evc.
  bool uses_evc() const;
};

// The settings of `p`: its options where given, its learner's defaults (LearnerParams::resolved_*) otherwise.
RuleSettings resolve_rule_settings(const LearnerParams& p);

// Sets what `model`, fitted with `used` under `s`, predicts with (model/rule_model.hpp): a rule set's
// combination, the m and prior weight used, the ranking measure, and how its probabilities are corrected
// (EVC wherever the model holds EVC's calibration or --correct evc; bootstrap shrinkage under --correct bootstrap).
void use_rule_settings(RuleModel& model, const LearnerParams& used, const RuleSettings& s);

// `p` with every rule option set to `s`'s: what a model records as the options it was fitted with, and what
// a learner built on another rule learner passes on (rule-logistic's candidate rules).
LearnerParams with_rule_settings(LearnerParams p, const RuleSettings& s);

}  // namespace candor
