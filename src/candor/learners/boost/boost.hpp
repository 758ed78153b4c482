#pragma once
// The `boost` learner (paper 001): its fit function (fit_boost.cpp), and the three boosting algorithms
// (Figs. 1-3), each filling a BoostModel's members from the labelled `rows` of `d` with starting example
// weights `weights` (one per row). `threads` never changes the model.
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/boost_model.hpp"

namespace candor {

// The learner's fit function (learn/learner.hpp's ModelFit): the ensemble of --boosting over --base, with
// --calibrate's temperature, LIFT smoothing or round discount fitted on internal folds.
std::unique_ptr<Model> fit_boost(const Dataset& data, const LearnerParams& params, int threads);
// Boost's steps of the shared option handling (LearnerInfo): whether the base learner's options are read,
// --multiclass (kbs), the values that go together, the line heading its models' text, the options written.
bool boost_reads_base(const LearnerParams& p);
// --calibrate discount keeps a fitted factor g < 1 only where the held-out rows reject g = 1, the published
// method, by a likelihood-ratio test at the 5% level: `loss_full` and `loss_discounted` are their negative
// log-likelihoods (each at its best temperature). On a few dozen held-out rows a second parameter fits their
// noise (labor, 57 rows: one fold's test log loss 9.2 with an untested g, against 0.56 without).
bool discount_rejects_full_rounds(double loss_full, double loss_discounted);
bool boost_also_reads(const LearnerParams& p, std::string_view name);
// KBS's default --multiclass: softmax, the paper's one ensemble over every class, over trees whose scores
// --calibrate temperature or discount fits; one-vs-rest otherwise. Measured on the 38 corpus sets
// (docs/boosting.md, "The defaults"): over calibrated trees softmax is the more accurate and the better
// calibrated form (discount: 0.8384 / log loss 0.479 against 0.8228 / 0.525); over stumps, or trees without
// calibration, one-vs-rest is (stumps with discount: 0.8023 / 0.533 against 0.7627 / 0.628; rules 0.8138 / 0.523
// against 0.7327 / 0.712).
MulticlassForm kbs_default_multiclass(const LearnerParams& p);
void check_boost_options(const LearnerParams& p);
std::string describe_boost(const LearnerParams& p);
void write_boost_options(const LearnerParams& p, nlohmann::json& j);

// Knowledge-based sampling (Fig. 3). Each round fits the base learner on the current distribution D_i
// (stratified to equal class weights with --stratify; a weighted bootstrap with --subsample), measures the
// member's LIFT per cell (leaf) and class on D_i and divides every example's weight by the LIFT of its
// cell and class (Theorem 1), so that D_{i+1} makes the member's cells independent of the class while
// keeping the class and cell marginals. Boosting stops early when a member's LIFTs are all 1 (it carries
// no information D_i did not; a further round would fit the same model).
// The LIFTs kept for prediction are smoothed with --prior-weight pseudo-examples of the class prior per cell,
// P(y | cell) = (W(cell, y) + w P(y)) / (W(cell) + w), so that an empty (cell, class) has a LIFT between
// 0 and 1 rather than 0 (which would rule the class out for good) and an empty cell a LIFT of 1; with
// --prior-weight 0 a LIFT of 0 is raised to 1e-9.
// `p` holds the ensemble's options; `m` has been resolved from them (BoostModel::resolve) and gets the members.
void boost_kbs(BoostModel& m, const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
               const std::vector<double>& weights, int threads);

// boost_kbs in its two steps, so that the prediction LIFTs' smoothing can be chosen after the members are
// fitted (--calibrate smoothing): the members with, per member, the weighted (cell, class) counts under its
// D_i, from which any smoothing's LIFTs follow; and the model filled from them with `prior_weight`.
using CellWeights = std::vector<std::vector<double>>;  // cell x class
struct KbsMembers {
  std::size_t classes = 0;  // of the data
  std::vector<Tree> members;
  std::vector<CellWeights> cell_weights;  // one-vs-rest: over the member's binary problem (rest, class)
  // One-vs-rest only (empty otherwise): each member's class, that class's share of the starting weights,
  // and the member's decided cells.
  std::vector<int> member_classes;
  std::vector<double> class_shares;
  std::vector<std::vector<int>> decided_cells;
};
KbsMembers kbs_members(const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
                       const std::vector<double>& weights, int threads);
void kbs_fill(BoostModel& m, const KbsMembers& members, double prior_weight);
// AdaBoost.M1 (Fig. 1) as Weka's AdaBoostM1: stops when a member's weighted error is 0 or at least 0.5 (that
// member is dropped unless it is the first); with --subsample each member is fitted on a weighted bootstrap,
// redrawn up to ten times while its error is 0.
void boost_adaboost_m1(BoostModel& m, const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
                       const std::vector<double>& weights, int threads);
// LogitBoost (Fig. 2 for two classes, Friedman, Hastie and Tibshirani's J-class algorithm for more) on
// regression stumps, from P = 1 / classes. Working responses are clamped to [-3, 3] and the weights taken
// as (y* - p) / z, so that weight times response stays y* - p (Weka's LogitBoost).
void boost_logitboost(BoostModel& m, const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
                      const std::vector<double>& weights, int threads);

// One KBS step, exposed for tests: the LIFT of each (cell, class) of `member` under `weights`, raw
// (Theorem 1's) and smoothed by `prior_weight` as above.
struct LiftTable {
  std::vector<std::vector<double>> raw, smoothed;  // cell x class
};
// The weighted (cell, class) counts of `member` under `weights`, and the LIFTs they give.
CellWeights kbs_cell_weights(const Tree& member, const Dataset& d, const std::vector<std::size_t>& rows,
                             const std::vector<double>& weights);
LiftTable kbs_lifts_of(const CellWeights& w, double prior_weight);
LiftTable kbs_lifts(const Tree& member, const Dataset& d, const std::vector<std::size_t>& rows,
                    const std::vector<double>& weights, double prior_weight);
// D_{i+1}: every weight divided by its row's LIFT (its cells' raw LIFTs for its class, by fraction).
void kbs_reweight(const Tree& member, const LiftTable& lifts, const Dataset& d, const std::vector<std::size_t>& rows,
                  std::vector<double>& weights);

}  // namespace candor
