#pragma once
// Stable rules (--stable-resamples B): SIRUS's recipe (Bénard, Biau, Da Veiga and Scornet, "SIRUS: Stable
// and Interpretable RUle Set", Electronic Journal of Statistics 15, 2021) with candor's own searches in place
// of a forest's paths.
//
// 1. Thresholds and the training data's q-quantiles (--stable-quantiles, default 10):
//    - --stable-thresholds searched (the default): the searches below cut the data as it is, and each rule
//      is counted with its thresholds snapped to the nearest grid value (as the stability measure compares
//      rules, eval/stability.hpp). A kept rule cuts at the lower median of the thresholds the resamples
//      holding it chose: a threshold one of them found, in the same quantile cell, so that a cut where two
//      classes part between two grid values (iris's petal length 2.45, between the deciles 1.7 and 3.9)
//      stays there.
//    - quantiles: each numeric value is replaced by the smallest grid value at or above it (the attribute's
//      largest value above the grid), so the search can only cut between grid values, and each cut is written
//      at the grid value below it. On the original values, A <= g holds exactly where it holds on the
//      replaced ones. This is SIRUS's own restriction.
// 2. The learner (--stable-resamples 0, --correct none: only its rules are used) runs on B bootstrap
//    resamples of that data, seeded by --seed, one resample per thread.
// 3. Every rule of a resample model and every prefix of it (its first k conditions, in the order the search
//    added them, as SIRUS counts every node of a tree's paths) is a candidate: its class and its conditions
//    in a canonical order. A candidate is kept when it appears in at least --stable-frequency of the
//    resamples; the most frequent come first (among equals, the best by the learner's measure), and a
//    candidate covering exactly the rows of a more frequent kept rule of its class is left out (SIRUS drops
//    such redundant rules too).
// 4. The kept rules are counted on all the training data and estimated by the learner's measure (or by EVC
//    under --correct evc) as its own rules are; --stop prior drops those at or below their class's prior.
// 5. --stable-size learner (the default, but for rule-logistic's covering+additive candidates) keeps at most as
//    many rules as the learner itself keeps on the same data without stable rules: here the most frequent, for
//    a rule set; rule-logistic applies the same limit to its weighted rules (learners/rule_logistic). frequent
//    keeps every frequent rule.
// The rule set is then combined as the learner's (lift product, or rule-logistic's model).
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

// The data with each numeric value replaced as in step 1 (missing values stay missing).
Dataset snap_to_quantiles(const Dataset& data, const std::vector<std::vector<double>>& grid);

// Steps 2 to 5 for fit() (learn/fit.hpp): `quality` ranks, `estimate` (or quality) gives the probabilities;
// each kept rule's Rule::stable_frequency is its share of the resamples.
RuleModel fit_stable_rules(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                           const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

}  // namespace candor
