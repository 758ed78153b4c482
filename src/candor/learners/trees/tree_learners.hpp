#pragma once
// The learners `stump` and `tree`, base learners of `boost` (learners/boost/boost.hpp) beside `rule`
// (learners/best_rule/). Each fits on the labelled rows with their example weights.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"

namespace candor {

// A stump or a tree, as params.learner names it.
std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads);
// The trees' steps of the shared option handling (LearnerInfo): the line heading a tree's text, and
// --bootstrap-resamples, which --leaf-estimate bootstrap reads.
std::string describe_tree_learner(const LearnerParams& p);
bool tree_also_reads(const LearnerParams& p, std::string_view name);
void write_tree_options(const LearnerParams& p, nlohmann::json& j);

}  // namespace candor
