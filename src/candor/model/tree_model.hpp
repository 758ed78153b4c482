#pragma once
// A decision tree or stump as a model (learners `tree` and `stump`): the leaves' class weights turned into
// probabilities by its leaf estimate (--leaf-estimate). A tree is also a rule set: `text()` lists each leaf as a rule
// with its counts and probability.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "candor/model/model.hpp"
#include "candor/tree/tree.hpp"

namespace candor {

// --leaf-estimate bootstrap: the pseudo-examples of the prior every leaf's counts are mixed with, fitted on
// the rows that bootstrap resamples' trees left out (learners/trees/tree_learners.cpp).
struct LeafShrinkage {
  int resamples = 0;
  double m = 0;
  std::size_t leaves = 0;  // resample leaves with left-out weight it was fitted on
  // The largest m the fit considers: ten times the training weight (at least 10), where the leaves' own
  // counts no longer matter. An m this large says the left-out rows found no leaf better than the prior.
  static double largest_m(double training_weight) { return 10 * std::max(1.0, training_weight); }
  bool at_largest(double training_weight) const { return m >= 0.99 * largest_m(training_weight); }
};

// The class shares of `counts` with one example added to every class (Laplace's rule).
std::vector<double> laplace_prior(const std::vector<double>& counts);

// What a tree predicts with: how its leaves turn class weights into probabilities (--leaf-estimate: a name of
// kLeafEstimateNames; bootstrap mixes counts with the prior by an m fitted out of bag, the model's
// leaf_shrinkage) and the prior's pseudo-examples mixed into them (--prior-weight). The model file's
// "settings", under the names of those options; reading throws JsonEntryError naming the entry.
struct TreeModelSettings {
  std::string leaf_estimate = "counts";
  double prior_weight = 1;
};
nlohmann::json tree_model_settings_json(const TreeModelSettings& s);
TreeModelSettings tree_model_settings_from_json(const nlohmann::json& j);

struct TreeModel : Model {
  Tree tree;
  // What the model predicts with: its model file's "settings", set where the learner fits it and read back
  // with the file; use() derives the leaf estimate the leaves compute with.
  TreeModelSettings settings;
  void use(TreeModelSettings s);
  LeafEstimate leaf_estimate = LeafEstimate::counts;
  bool fits_leaf_shrinkage = false;  // --leaf-estimate bootstrap: leaf_shrinkage is fitted out of bag
  // Set under --leaf-estimate bootstrap (which mixes counts with the prior as `counts` does, by its m).
  std::optional<LeafShrinkage> leaf_shrinkage;
  // The prior's pseudo-examples in every leaf: the fitted m under --leaf-estimate bootstrap, else
  // --prior-weight.
  double leaf_weight() const { return leaf_shrinkage ? leaf_shrinkage->m : settings.prior_weight; }
  // The distribution leaves are mixed with: under --leaf-estimate bootstrap laplace_prior(training_counts),
  // so that a class rare or absent in training keeps a share in every leaf; the training prior otherwise.
  std::vector<double> leaf_prior() const;

  std::string kind_name() const override { return "tree"; }
  std::vector<double> predict_proba(const Dataset& d, std::size_t row) const override;
  // The leaves the row reaches, by their number in text()'s rule list ("leaf 4", or "leaf 4 0.70" with the
  // row's share when a missing value split it).
  std::vector<std::string> explain(const Dataset& d, std::size_t row) const override;
  // The tree as J48 prints it, its size, then every leaf as a rule with class weights and probability.
  std::string text(const std::string& learner) const override;
  nlohmann::json to_json() const override;
  // Every leaf as a rule: conditions, majority class, covered training weight, class counts, probability.
  nlohmann::json rule_table() const override;
  std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const override;
  std::vector<RuleShape> rule_shapes() const override;
  std::size_t rule_count() const override { return tree.leaf_count(); }
  double mean_rule_length() const override;
  // Every leaf with training weight that test examples reach: the probability of its majority class
  // against that class's share among the test weight reaching it.
  std::vector<RulePoint> rule_points(const Dataset& test) const override;
  static TreeModel from_json(const nlohmann::json& j);
};

// The tree's leaves as numbered rules in the style of `candor rules` ("1. IF a <= 3 THEN class = yes", then
// "   covers 5 [4, 1]  P(yes) = 0.7143").
// A leaf's path as a rule's shape (Model::rule_shapes): its tests, the missing-value ones apart.
RuleShape leaf_path_shape(const Tree::LeafPath& path, int klass);

std::string tree_rules_text(const Tree& tree, const Schema& schema, LeafEstimate estimate, double prior_weight,
                            const std::vector<double>& prior);

}  // namespace candor
