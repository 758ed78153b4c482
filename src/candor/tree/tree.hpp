#pragma once
// A decision tree over the data's attributes: C4.5 trees (tree/c45.hpp), decision stumps and regression
// stumps (tree/stump.hpp), and single rules written as a chain of tests (rule_as_tree in
// learn/base_learner.hpp) are all this one type, so that the ensembles (boost/) treat every base model
// alike: a partition of the instance space into leaves, each with the training class distribution (or, for
// regression, the mean response) of the examples that reached it.
//
// Missing values: a node either sends them down one child (`missing_child`, a decision stump's third
// branch, a rule's "does not fire" side) or, as C4.5 does, down every child at once with weights in
// proportion to the training weight of known values each child received (`branch_weights`). A row's
// route is therefore a set of leaves with fractions that sum to 1.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"
#include "candor/util/names.hpp"

namespace candor {

// The one-line key to Tree::text's leaves (J48's notation), printed by the models that show a tree.
inline constexpr const char* kLeafNotation =
    "A leaf reads `class (n/e)`: n is the weight of the training examples reaching it (their count when "
    "unweighted; fractions come from rows with a missing value, sent down every branch), e the part of n not "
    "of its class; `(n)` when e is 0.";

enum class SplitKind : unsigned char {
  leaf,
  numeric,         // child 0: value <= threshold, child 1: value > threshold
  nominal,         // child v: nominal value v (one child per declared value)
  nominal_binary,  // child 0: value == `value`, child 1: any other value
};

struct TreeNode {
  SplitKind split = SplitKind::leaf;
  int attribute = -1;
  double threshold = 0;
  int value = 0;
  std::vector<int> children;  // node indices
  // The child that takes a missing value; -1: every child, in proportion to branch_weights.
  int missing_child = -1;
  // Training weight of the known values that went down each child.
  std::vector<double> branch_weights;
  // Training class weights that reached the node, fractional missing-value shares included.
  std::vector<double> class_counts;
  // Regression trees: the (weighted) mean response of the examples that reached the node.
  double value_mean = 0;
  // Leaves: the cell of the partition (equal to the leaf's position among the leaves unless several leaves
  // form one cell, as the "does not fire" leaves of a rule do).
  int cell = -1;

  bool is_leaf() const { return split == SplitKind::leaf; }
};

// How a leaf turns its class counts into probabilities.
enum class LeafEstimate {
  laplace,  // (n_c + 1) / (n + classes), J48 -A
  counts,   // n_c / n mixed with `prior_weight` pseudo-examples of the prior (0: J48's raw shares)
};
// bootstrap: counts mixed with the prior by an m fitted out of bag (TreeModel::leaf_shrinkage).
inline constexpr Named<LeafEstimate> kLeafEstimateNames[] = {
    {"laplace", LeafEstimate::laplace}, {"counts", LeafEstimate::counts}, {"bootstrap", LeafEstimate::counts}};
inline LeafEstimate parse_leaf_estimate(const std::string& name) {
  return parse_named(kLeafEstimateNames, "leaf estimate", name);
}

struct Tree {
  std::vector<TreeNode> nodes;  // nodes[0] is the root
  int cells = 0;                // number of cells (leaf partition)

  // The leaves (node indices) a row reaches, with fractions summing to 1 (one leaf with fraction 1 unless
  // a missing value is shared among children).
  void route(const Dataset& d, std::size_t row, std::vector<std::pair<int, double>>& out) const;
  // The class distribution of a leaf by `estimate` (a leaf with no training weight uses its parent's
  // counts, as C4.5 does, passed as `fallback`); `prior` is the training class distribution.
  static std::vector<double> leaf_distribution(const std::vector<double>& counts, LeafEstimate estimate,
                                               double prior_weight, const std::vector<double>& prior);
  // Class probabilities of a row: the leaves' distributions weighted by the row's fractions.
  std::vector<double> predict_proba(const Dataset& d, std::size_t row, LeafEstimate estimate, double prior_weight,
                                    const std::vector<double>& prior) const;
  // Regression trees: the fractions' weighted mean of the leaves' value_mean.
  double predict_value(const Dataset& d, std::size_t row) const;
  // Cells of a row with fractions (route() mapped through the leaves' cells, merged).
  void cell_route(const Dataset& d, std::size_t row, std::vector<std::pair<int, double>>& out) const;

  std::size_t leaf_count() const;
  std::size_t size() const { return nodes.size(); }
  // The parent of every node (-1 for the root).
  std::vector<int> parents() const;
  // The counts a leaf predicts from: its own, or its nearest ancestor's with training weight when it has
  // none (C4.5's empty leaves).
  const std::vector<double>& effective_counts(int leaf, const std::vector<int>& parents) const;
  // Leaves in depth-first order with the tests on their path, as conditions; a missing-value branch is
  // written as the attribute with `missing` true in the pair.
  struct LeafPath {
    int leaf = 0;
    std::vector<std::pair<Condition, bool>> tests;  // bool: the test is "attribute is missing"
  };
  std::vector<LeafPath> leaf_paths() const;
  // Numbers cells 0, 1, ... by the leaves' depth-first order (every leaf its own cell).
  void number_leaves_as_cells();

  // J48-style indented text; `regression` prints leaf means instead of class counts. Its notation is
  // kLeafNotation, which the texts that print it say once.
  std::string text(const Schema& schema, bool regression = false) const;
  nlohmann::json to_json() const;
  // Throws std::invalid_argument for a tree that does not fit `schema` (bad attribute, value, child or
  // count).
  static Tree from_json(const nlohmann::json& j, const Schema& schema, bool regression);
};

// "IF a <= 3 AND b = x THEN" text of a leaf path.
std::string format_leaf_path(const Tree::LeafPath& path, const Schema& schema);

}  // namespace candor
