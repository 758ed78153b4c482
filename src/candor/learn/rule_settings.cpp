#include "candor/learn/rule_settings.hpp"

#include <utility>

#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"

namespace candor {

bool RuleSettings::uses_evc() const { return quality_needs_calibration(quality) || correct == Correction::evc; }

RuleSettings resolve_rule_settings(const LearnerParams& p) {
  RuleSettings s;
  s.quality = p.resolved_quality();
  s.refine_quality = p.resolved_refine_quality();
  s.separate_heuristics = p.info().separate_heuristics;
  s.search = p.resolved_search();
  s.beam_width = s.search == SearchKind::greedy ? 1 : p.rule_search.beam_width;
  s.max_rule_length = p.resolved_max_rule_length();
  s.m_scale = p.resolved_m_scale();
  s.not_equal = p.resolved_not_equal();
  s.stop = p.resolved_stop();
  s.correct = p.resolved_correct();
  if (*rule_learner(p).combine) s.combine = p.resolved_combine();
  return s;
}

void use_rule_settings(RuleModel& model, const LearnerParams& used, const RuleSettings& s) {
  RuleModelSettings m;
  m.combine = s.combine.value_or(m.combine);
  m.m = used.heuristics.m;
  m.prior_weight = used.prior_weight;
  m.quality = s.quality;
  m.estimate = s.correct == Correction::bootstrap          ? RuleEstimate::bootstrap
               : model.evc || s.correct == Correction::evc ? RuleEstimate::evc
                                                           : RuleEstimate::measure;
  model.use(std::move(m));
}

LearnerParams with_rule_settings(LearnerParams p, const RuleSettings& s) {
  p.heuristics.quality = s.quality;
  if (s.separate_heuristics) {
    p.heuristics.refine_quality = s.refine_quality;
    p.heuristics.select_quality = s.quality;
  }
  p.rule_search.search = s.search;
  p.rule_search.max_rule_length = s.max_rule_length;
  p.heuristics.m_scale = s.m_scale;
  p.rule_covering.stop = s.stop;
  p.correct = s.correct;
  if (s.combine) p.combine = s.combine;
  return p;
}

}  // namespace candor
