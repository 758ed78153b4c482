#pragma once
// The laplace-covering learner (paper 002, section 4), learn/learner.hpp's LearnerFit.
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_laplace_covering(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                               const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

}  // namespace candor
