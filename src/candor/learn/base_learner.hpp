#pragma once
// The base learners (stump, tree, rule) behind one call, each returning a Tree (tree/tree.hpp) whose leaves
// are the cells KBS measures its LIFTs on, and the sampling the ensembles share: a component that the tree
// learners (learners/trees/), the ensembles (learners/boost/) and PrIL (learners/pril/) compose, so that no learner's
// folder includes another's.
#include <cstddef>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/tree/tree.hpp"
#include "candor/util/names.hpp"
#include "candor/util/random.hpp"

namespace candor {

// The base learners an ensemble can use (--base), named as the single-model learners they are (stump, tree,
// rule).
enum class BaseLearner { stump, tree, rule };
inline constexpr Named<BaseLearner> kBaseLearnerNames[] = {
    {"stump", BaseLearner::stump}, {"tree", BaseLearner::tree}, {"rule", BaseLearner::rule}};

// The base learner a single-model learner's name (stump, tree) stands for.
inline BaseLearner parse_base_learner(const std::string& name) {
  return parse_named(kBaseLearnerNames, "base learner", name);
}

// The rows of `d` with a class label, in order.
std::vector<std::size_t> labelled_rows(const Dataset& d);
// The example weights of `rows`, one per entry.
std::vector<double> weights_of(const Dataset& d, const std::vector<std::size_t>& rows);

// Fits `base` (stump, tree or rule) on `rows` of `d` with one weight per row (0: left out), reading the
// options of `params` that the base learner reads. Every node's class counts are the weights that reach it.
Tree fit_base_tree(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
                   const LearnerParams& params, BaseLearner base, int threads);

// A rule as a chain of tests: the examples it covers reach one leaf (cell 0), every other example (a failed
// test, or a missing value, which satisfies no condition) a leaf of cell 1. No rule: a single leaf.
Tree rule_as_tree(const Rule* rule, const Schema& schema);

// Recomputes every node's class counts from `rows` and their weights (a row split by a missing value adds
// its fractions).
void recount(Tree& t, const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights);

// Multiplicities of round(share x weights.size()) draws with replacement, each entry drawn with probability
// in proportion to its weight.
std::vector<double> weighted_bootstrap(const std::vector<double>& weights, double share, Rng& rng);

}  // namespace candor
