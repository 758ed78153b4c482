#include "candor/learners/best_rule/best_rule.hpp"

#include "candor/learn/learner.hpp"

namespace candor {

RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                        const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  LearnerParams one = params;
  one.rule_covering.max_rules = 1;
  // cn2-ordered's search, through the registry: a learner's folder includes no other's.
  RuleModel model = find_learner("cn2-ordered").fit(data, one, settings, quality, threads, estimate);
  model.learner = params_to_json(params);
  return model;  // what it predicts with is set by the fit that called it (learn/fit.cpp), as for every rule learner
}

}  // namespace candor
