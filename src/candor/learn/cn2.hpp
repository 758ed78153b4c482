#pragma once
// CN2 covering. Ordered (Clark and Niblett 1989): find the best rule over all classes, remove every example
// it covers, repeat; the rules form a decision list. Unordered (Clark and Boswell 1991): for each class,
// find the best rule for that class, remove the positive examples it covers (negatives stay), repeat until
// no positives are left or no rule qualifies. `fit` also dispatches to the learners of papers 002
// (laplace-covering) and 003 (decision-list); see learn/laplace_covering.cpp and learn/decision_list.cpp.
#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

// Fits the learner named by params.learner. `threads` parallelises refinement evaluation and never changes
// the model. Throws std::invalid_argument for bad parameters.
RuleModel fit(const Dataset& data, const LearnerParams& params, int threads = 1);

// The same covering with a quality measure the caller built (research measures in experiments, such as
// an m that depends on the rule); params.quality is recorded but not used. `estimate`, when given, estimates
// each rule's probability instead of `quality` (--correct evc passes EVC's measure).
RuleModel fit_with_quality(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality,
                           int threads = 1, const QualityMeasure* estimate = nullptr);

}  // namespace candor
