#pragma once
// gradient-rules: rules found by gradient boosting of the multinomial log loss, as ENDER and MLRules do with
// rules (Dembczynski, Kotlowski and Slowinski 2008, 2010), one per class and round as gradient-boosted trees
// grow one tree per class. Every round scores the training rows with the rules so far (softmax of one score
// per class, starting at the log of the class shares), weights each row by its residual for class c
// (|y_c - p_c|: 1 - p_c for a row of c, p_c for the others) and runs CN2's search for the best rule of c on
// the reweighted rows. A rule whose covered rows have a positive summed residual R (it raises its class
// where the class is under-predicted) is kept, and the scores of class c on the rows it covers move by
// --gradient-shrinkage times its Newton step R / (H + 1), H the rows' summed p_c (1 - p_c). A rule found
// again, or one covering the same rows as a kept rule of its class, moves the scores again but is not added.
// A rule is thus searched where the rules so far predict worst, rather than on the rows no rule covers yet.
// By default the search ranks by wracc, which on these weights is the summed residual of the rows a rule
// covers over the total (the loss's steepest descent, as ENDER's gradient rules), and generates A != v.
// On more rows than --gradient-sample each round searches a fresh sample of that many (stochastic gradient
// boosting); R, H and the rule's counts are still those of every row it covers.
//
// As a rule set, each rule carries its class counts on the whole training set and the learner's estimate of
// its probability (EVC's with --correct evc), and predicts by --combine like cn2-unordered's; rule-logistic
// with --candidates gradient learns its weights with the gamma-penalised logistic model instead.
#include <string>

#include "candor/data.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_gradient_rules(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                             const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
// The same fit on rows wherever they are held (learn/fit_rows.hpp): the first is this one on LocalRows.
RuleModel fit_gradient_rules(FitRows& rows, const LearnerParams& params, const RuleSettings& settings,
                             const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

// Why a fit of `params` cannot run on rows held elsewhere (stable rules' resamples, bootstrap shrinkage's); empty
// when it can.
std::string gradient_rules_refuses_rows(const LearnerParams& params);

}  // namespace candor
