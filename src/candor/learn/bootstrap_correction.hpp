#pragma once
// --correct bootstrap: the search's optimism estimated by the bootstrap, beside EVC's randomisation (paper
// 000's conclusion leaves open whether bootstrapping the training data could do it).
//
// The learner (with --correct none) is fitted on B bootstrap resamples of the training data. Every rule of
// every resample model is then scored on the rows its resample left out (out of bag): S of its N left-out
// covered rows are of its class (for a decision list, of the left-out rows that reach it); its training
// figures s of n are counted the same way on the distinct rows in the bag. A rule found by
// a search flatters its training frequency s / n; how much is read off those left-out rows: the m of the
// shrinkage (s + m prior) / (n + m) towards the rule's class prior that maximises the binomial likelihood of
// every rule's (S, N) is fitted by Brent's method, once per rule length (a longer rule won a larger search)
// where at least kMinRulesPerLength rules of that length have left-out rows, and once on all rules for the
// other lengths. Each rule of the model fitted on all the data gets that shrinkage of its own frequency.
// Its interval runs from the shrinkage of the lower end of the frequency's Clopper-Pearson interval to that
// interval's upper end, as EVC's does (the shrinkage is increasing in s, so the interval holds the
// probability).
//
// Cost: B fits of the learner, run in parallel (one resample per thread); the same on any thread count.
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"

namespace candor {

inline constexpr std::size_t kMinRulesPerLength = 10;

// A rule's training figures (s of n of its class, its class prior, its length) and its left-out ones.
struct OutOfBagRule {
  double s = 0, n = 0, prior = 0;
  std::size_t length = 0;
  double oob_s = 0, oob_n = 0;
};

// (s + m prior) / (n + m).
double shrunk_probability(double s, double n, double prior, double m);

// The m in [0, m_max] maximising the binomial likelihood of the rules' left-out counts under
// shrunk_probability (rules without left-out rows do not count).
double fit_shrinkage_m(const std::vector<OutOfBagRule>& rules, double m_max);

// A tree leaf's class weights on the distinct rows its resample drew and on those it left out.
struct OutOfBagLeaf {
  std::vector<double> in, oob;
};

// The m in [0, m_max] maximising the multinomial likelihood of the leaves' left-out class weights under
// (in_c + m prior_c) / (n + m), a leaf without weight in the bag predicting the prior: the shrinkage of
// `--leaf-estimate bootstrap` (learners/trees/tree_learners.cpp).
double fit_leaf_shrinkage_m(const std::vector<OutOfBagLeaf>& leaves, const std::vector<double>& prior, double m_max);

// Fits the learner of `params` (its correction taken as none) on params.bootstrap_resamples resamples of
// `data` and fits the shrinkage on its rules' left-out rows.
BootstrapShrinkage fit_bootstrap_shrinkage(const Dataset& data, const LearnerParams& params, int threads);

// Replaces each rule's probability and interval by the shrinkage's and keeps the shrinkage in the model (fit()
// records the correction among its options). The rules the learner kept stay: a shrinkage towards the prior
// keeps each estimate on its frequency's side of the prior, as the m-estimate does, so under the CN2
// learners' m-estimate --stop prior would cut none of them.
void apply_bootstrap_shrinkage(RuleModel& model, const BootstrapShrinkage& shrinkage);

}  // namespace candor
