#include "candor/learn/best_rule/best_rule.hpp"

#include "candor/learn/cn2/cn2.hpp"

namespace candor {

RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality, int threads,
                        const QualityMeasure* estimate) {
  LearnerParams one = params;
  one.rule_covering.max_rules = 1;
  RuleModel model = fit_cn2_ordered(data, one, quality, threads, estimate);
  model.learner = params_to_json(params);
  model.resolve();
  return model;
}

}  // namespace candor
