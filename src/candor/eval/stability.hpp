#pragma once
// How stable a learner's rules and predictions are under resampling (`candor evaluate --stability B`).
//
// The learner is fitted on B resamples of the data (bootstrap: n rows drawn with replacement; subsample: half
// the rows without replacement; folds: the B training sets of a stratified B-fold cross-validation, each all
// rows but one fold, as SIRUS's own stability measure fits them, sirus.cv in its R package), each seeded from
// `seed`, and once on all of it. Rules are compared as SIRUS
// compares them (Bénard, Biau, Da Veiga and Scornet, "SIRUS: Stable and Interpretable RUle Set", Electronic
// Journal of Statistics 15, 2021): each numeric threshold is snapped to the nearest of the data's
// q-quantiles (q = 10 by default), so that 37.5 and 37.25 between the same deciles are one cut; a rule is
// then its set of snapped conditions (bounds on one attribute merged to the tightest), its missing-value
// tests and its class. Measures:
//   rule-set stability: the mean over the B(B-1)/2 pairs of resamples of the Dice-Sorensen index of their
//     rule sets, 2 |A ∩ B| / (|A| + |B|) (1 for two empty sets), and its standard deviation over the pairs;
//   prediction agreement: the mean over the rows of the data of the share of pairs of resamples that predict
//     the row's class alike (the most probable class, the first on ties);
//   probability spread: the mean over rows and classes of the (population) standard deviation of the
//     predicted probability across the B resamples;
//   rule frequency: for each rule of the model fitted on all the data (rule_table() order), the share of the
//     resamples whose rule set holds it.
// Fits run in parallel, one resample per thread; every number is the same on any thread count.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/evaluate.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"

namespace candor {

// The figures, as a model file records them (model/model.hpp); `resampling` is the name of the resampling.
using StabilityResult = StabilityRecord;

// The rule identities of a model: one text per rule of rule_table(), thresholds snapped to `grid` (per
// attribute, ascending; empty for nominal attributes).
std::vector<std::string> rule_keys(const Model& model, const std::vector<std::vector<double>>& grid);

// The Dice-Sorensen index of two rule sets given as sorted, distinct keys: 2 |A ∩ B| / (|A| + |B|), 1 for two
// empty sets.
double rule_set_overlap(const std::vector<std::string>& a, const std::vector<std::string>& b);

// `fitted`, when given, is the learner's model on all of `data` (not fitted again).
StabilityResult measure_stability(const Dataset& data, const LearnerParams& params, const StabilityOptions& options,
                                  const Model* fitted = nullptr);

}  // namespace candor
