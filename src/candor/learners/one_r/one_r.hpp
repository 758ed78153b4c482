#pragma once
// The one-r learner (Holte 1993, "Very simple classification rules perform well on most commonly used
// datasets"; Weka's OneR): the rules of the one attribute that classifies the training data best, one per
// nominal value or numeric interval, as a decision list. The baseline every other learner should beat.
//
// Per attribute: a nominal value's rule predicts the majority class of its rows. A numeric attribute's
// rows, in value order, are cut into intervals: an interval takes groups of equal values until its majority
// class holds at least --min-bucket-size examples, then goes on while the next group's majority is the same
// class; adjacent intervals of one class are merged. Rows missing the attribute form a branch of their own
// (the default rule, which also decides unseen values). The attribute whose rules classify the most
// training weight correctly wins (the first on ties). A rule's probability is its class share smoothed
// towards the training prior by --prior-weight pseudo-examples per class (an m-estimate with m = prior
// weight x classes), as every decision list's default rule is; a rule of few rows can then leave its rows
// to a class the prior favours (--prior-weight 0 predicts each rule's majority class, as Weka's OneR does).
#include <memory>
#include <string>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"

namespace candor {

// learn/learner.hpp's ModelFit: a decision-list RuleModel.
std::unique_ptr<Model> fit_one_r(const Dataset& data, const LearnerParams& params, int threads);
// The line that heads its models' text (LearnerInfo::describe).
std::string describe_one_r(const LearnerParams& p);

}  // namespace candor
