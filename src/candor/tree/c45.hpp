#pragma once
// C4.5 decision trees as Weka's J48 grows and prunes them (Quinlan 1993, release 8):
//   - split selection: information gain ratio among the splits whose gain is at least the average gain of
//     the usable splits (minus 0.001); nominal attributes split one branch per value, numeric attributes
//     binary at the midpoint of two neighbouring values moved down to the largest training value below it,
//     their gain reduced by log2(candidate split points) / N (the MDL correction of release 8); each split
//     needs two branches with at least `min_leaf` weight, a numeric one at least
//     min(25, max(min_leaf, 0.1 N / classes)) on either side;
//   - missing values: an example whose value is unknown goes down every branch with its weight times the
//     branch's share of the known weight, in training and in prediction (fractional instances);
//   - collapsing (a subtree that makes no fewer training errors than its root becomes a leaf), then
//     error-based pruning at confidence `confidence` with subtree raising: a node becomes a leaf, or is
//     replaced by its largest branch, when the upper confidence bound of the errors does not grow by more
//     than 0.1.
#include <cstddef>
#include <vector>

#include "candor/data.hpp"
#include "candor/tree/tree.hpp"

namespace candor {

struct C45Options {
  double confidence = 0.25;  // pruning confidence, in (0, 0.5]
  double min_leaf = 2;       // least weight in two branches of a split
  bool prune = true;
  bool subtree_raising = true;
};

// Grows (and prunes) a tree on `rows` of `d` (each labelled) with the example weights `weights` (one per
// entry of rows; rows of weight 0 take no part). Every leaf is its own cell.
Tree grow_c45(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
              const C45Options& options);

// C4.5's pessimistic addition to `errors` observed among `n` (weighted) examples: the upper limit of the
// binomial error rate's confidence interval at `confidence`, times n, minus errors (Weka's Stats.addErrs,
// with its interpolation for fewer than one error and near n errors).
double c45_added_errors(double n, double errors, double confidence);

}  // namespace candor
