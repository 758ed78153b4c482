#pragma once
// The PrIL learner (paper 004): categorise, branch, eliminate subsets (pril/), return a PrilModel.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/model/model.hpp"
#include "candor/pril/categories.hpp"

namespace candor {

std::unique_ptr<Model> fit_pril(const Dataset& data, const LearnerParams& params, int threads);
// PrIL's steps of the shared option handling (LearnerInfo): --reliability read as numbers, the line heading
// its models' text, --branching-test written only where a test chooses the branching.
void check_pril_options(const LearnerParams& p);
std::string describe_pril(const LearnerParams& p);
void write_pril_options(const LearnerParams& p, nlohmann::json& j);

// Paper 004's logit analysis for choosing branching attributes: one logit model (multinomial for more than
// two classes) of every attribute's main effects over its categories, each attribute's effects then tested
// together by a Wald test (linear/logit_inference.hpp). Per attribute, the p-value; 1 for an attribute with
// fewer than two categories seen. Coding: the category of most training weight is the reference, every
// other category seen has a 0/1 column, and a missing value its own column when training has one. The
// model is fitted with a weak L2 penalty (lambda 1), so that a category that separates the classes (a
// maximum-likelihood estimate at infinity) still gets a finite estimate and a test. On data with more than
// kMaxModelAttributes attributes related to the class, the model holds those most related one at a time
// (attribute_class_p_values), and the others get no test (p-value 1): at most two attributes branch, and the
// cost of the model grows with the cube of its columns times the classes'.
constexpr std::size_t kMaxModelAttributes = 20;
std::vector<double> main_effect_p_values(const Dataset& d, const Categories& c, const std::vector<std::size_t>& rows,
                                         const std::vector<double>& weights);

// Each attribute's likelihood-ratio chi-squared test of independence from the class over its categories
// (missing values left out), one attribute at a time (--branching-test association): the p-value, 1 for an
// attribute with fewer than two categories seen.
std::vector<double> attribute_class_p_values(const Dataset& d, const Categories& c,
                                             const std::vector<std::size_t>& rows, const std::vector<double>& weights);

}  // namespace candor
