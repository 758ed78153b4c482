#pragma once
// The CN2 learners: cn2-unordered (rules per class, combined by --combine) and cn2-ordered (a decision
// list), learn/learner.hpp's LearnerFit each.
#include <string>

#include "candor/data.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_cn2_unordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
// The same over rows held elsewhere (learn/fit_rows.hpp: the parts of a fit across workers), with removing covering:
// each search counts its rules where the rows are (SearchOptions::count_rules), over the rows covering has left,
// which the parts derive from the rules found so far. The rules, counts and probabilities of the fit on the rows in
// one process, numeric attributes cut into the bins of all the rows (--numeric-bins).
RuleModel fit_cn2_unordered(FitRows& rows, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
// Why cn2-unordered with `params` cannot fit on rows held elsewhere; empty when it can.
std::string cn2_unordered_refuses_rows(const LearnerParams& params);
RuleModel fit_cn2_ordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                          const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
// The CN2 papers' measures, which their experiments pin (LearnerInfo::paper_settings): entropy for the
// ordered learner (Clark and Niblett 1989), Laplace for the unordered one (Clark and Boswell 1991).
void cn2_ordered_paper_settings(LearnerParams& p);
void cn2_unordered_paper_settings(LearnerParams& p);

}  // namespace candor
