#pragma once
// Fitting any learner of the registry (learn/learner.hpp).
#include <memory>
#include <string>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"
#include "candor/util/names.hpp"

namespace candor {

// Fits the rule learner named by params.learner (std::invalid_argument for a learner that is not one): builds its
// quality measure (calibrating EVC first when the quality is evc or --correct evc asks for corrected probabilities;
// identical calibrations are shared through evc/calibration.hpp's cache) and runs the learner's fit function. `threads`
// parallelises the search and calibration and never changes the model. Throws std::invalid_argument for bad parameters.
RuleModel fit(const Dataset& data, const LearnerParams& params, int threads = 1);

// fit() of options a learner derived from the options fit_model() or fit() checked (rule-logistic's
// candidates, the resamples of stable rules and of bootstrap shrinkage): the same fit without checking them
// again, so that a fit validates its options once, where it starts.
RuleModel fit_rules(const Dataset& data, const LearnerParams& params, int threads = 1);

// fit_rules() and fit_model() on rows wherever they are held (learn/fit_rows.hpp; a fit across workers): the
// learners with a fit on rows (LearnerInfo::fit_on_rows, fit_model_on_rows) and the options they can fit so.
// Anything else is refused with std::invalid_argument and the reason refuses_rows() gives.
class FitRows;
RuleModel fit_rules(FitRows& rows, const LearnerParams& params, int threads = 1);
std::unique_ptr<Model> fit_model(FitRows& rows, const LearnerParams& params, int threads = 1);
// Why a fit of `params` cannot run on rows held elsewhere; empty when it can.
std::string refuses_rows(const LearnerParams& params);

// Fits any learner of the registry: a rule learner through fit(), any other by its own fit function.
std::unique_ptr<Model> fit_model(const Dataset& data, const LearnerParams& params, int threads = 1);
// fit_model() of options checked already (validate) where they were read: a Learner's (candor/learner.hpp,
// checked as it is made and set), the CLI's, a cross-validation's folds. Unchecked options are not refused here.
std::unique_ptr<Model> fit_checked_model(const Dataset& data, const LearnerParams& params, int threads = 1);

// The same with a quality measure the caller built (research measures in experiments, such as an m that
// depends on the rule); params.quality is recorded but not used. `estimate`, when given, estimates each
// rule's probability instead of `quality`.
RuleModel fit_with_quality(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality,
                           int threads = 1, const QualityMeasure* estimate = nullptr);

}  // namespace candor
