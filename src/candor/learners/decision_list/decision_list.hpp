#pragma once
// The decision-list learner (paper 003), learn/learner.hpp's LearnerFit.
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_decision_list(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

}  // namespace candor
