#pragma once
// The CN2 learners: cn2-unordered (rules per class, combined by --combine) and cn2-ordered (a decision
// list), learn/learner.hpp's LearnerFit each.
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_cn2_unordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
RuleModel fit_cn2_ordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                          const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
// The CN2 papers' measures, which their experiments pin (LearnerInfo::paper_settings): entropy for the
// ordered learner (Clark and Niblett 1989), Laplace for the unordered one (Clark and Boswell 1991).
void cn2_ordered_paper_settings(LearnerParams& p);
void cn2_unordered_paper_settings(LearnerParams& p);

}  // namespace candor
