#pragma once
// The `rule` learner, the base learner `boost --base rule`: the single best rule of CN2's search over all
// classes (cn2-ordered stopped after one rule), then the default rule. learn/learner.hpp's LearnerFit.
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                        const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

}  // namespace candor
