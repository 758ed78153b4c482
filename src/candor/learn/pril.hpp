#pragma once
// The PrIL learner (paper 004): categorise, branch, eliminate subsets (pril/), return a PrilModel.
#include <memory>
#include <vector>

#include "candor/data/dataset.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "candor/pril/categories.hpp"

namespace candor {

std::unique_ptr<Model> fit_pril(const Dataset& data, const LearnerParams& params, int threads);

// Each attribute's likelihood-ratio chi-squared test of independence from the class over its categories
// (missing values left out): the p-value, 1 for an attribute with fewer than two categories seen. The
// documented stand-in for the paper's logit main effects when choosing branching attributes.
std::vector<double> attribute_class_p_values(const Dataset& d, const Categories& c,
                                             const std::vector<std::size_t>& rows, const std::vector<double>& weights);

}  // namespace candor
