#pragma once
// The learners `stump` and `tree`, base learners of `boost` (learn/boost/boost.hpp) beside `rule`
// (learn/best_rule/). Each fits on the labelled rows with their example weights.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

// A stump or a tree, as params.learner names it.
std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads);
// The trees' steps of the shared option handling (LearnerInfo): the line heading a tree's text, and
// --bootstrap-resamples, which --leaf-estimate bootstrap reads. describe_tree_options is the part of the line
// that the ensembles over trees show too.
std::string describe_tree_options(const LearnerParams& p);
std::string describe_tree_learner(const LearnerParams& p);
bool tree_also_reads(const LearnerParams& p, std::string_view name);
void write_tree_options(const LearnerParams& p, nlohmann::json& j);
// Writes the resolved --leaf-estimate (resolved_leaf_estimate) where `p` reads it: a model file names the
// estimate its leaves use, whatever the default was when it was fitted.
void write_leaf_estimate(const LearnerParams& p, nlohmann::json& j);
// The single best rule of CN2's search over all classes (cn2-ordered stopped after one rule).
RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality, int threads,
                        const QualityMeasure* estimate);

}  // namespace candor
