#pragma once
// gradient-rules: rules found one at a time by gradient boosting of the multinomial log loss, as ENDER and
// MLRules do with rules (Dembczynski, Kotlowski and Slowinski 2008, 2010). Every round scores the training
// rows with the rules so far, weights each row by how far its score is from its class (|y_c - p_c| for a rule
// of class c) and runs CN2's search for the best rule of each class on the reweighted rows; the rule of largest
// Newton gain R^2 / (H + 1) (R the summed residual of the rows it covers, H their summed p_c (1 - p_c)) is
// kept, and the scores of the rows it covers move by --gradient-shrinkage times its Newton step R / (H + 1).
// A rule is thus searched where the rules so far predict worst, rather than on the rows no rule covers yet.
//
// As a rule set, each rule carries its class counts on the whole training set and the learner's estimate of
// its probability (EVC's with --correct evc), and predicts by --combine like cn2-unordered's; rule-logistic
// with --candidates gradient learns its weights with the gamma-penalised logistic model instead.
#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

RuleModel fit_gradient_rules(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality,
                             int threads, const QualityMeasure* estimate);

}  // namespace candor
