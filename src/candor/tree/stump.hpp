#pragma once
// Decision stumps as Weka's DecisionStump builds them: one binary test (numeric: value <= t at the midpoint
// of two neighbouring training values; nominal: value = v against every other value) with a third branch
// for missing values, chosen to minimise the weighted impurity of the three branches together. A missing
// branch that saw no training weight predicts what the whole training set does.
//   - classification: impurity is the class entropy (conditional entropy of the class given the branch);
//     leaves hold the class weights of their branch;
//   - regression (LogitBoost's base learner): impurity is the weighted squared error around each branch's
//     weighted mean; leaves hold that mean.
// Ties go to the first attribute, then the first value or threshold. Every leaf is its own cell.
#include <cstddef>
#include <vector>

#include "candor/data.hpp"
#include "candor/tree/tree.hpp"

namespace candor {

// `rows` of `d` (labelled) with one weight per entry; rows of weight 0 take no part. With no useful test
// (every attribute constant or missing) the stump is a single leaf.
Tree grow_stump(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights);

// Regression stump fitting `targets` (one per entry of rows) by weighted least squares.
Tree grow_regression_stump(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                           const std::vector<double>& targets);

}  // namespace candor
