#pragma once
// A boosted ensemble (learner `boost`, paper 001). Its members are trees (tree/tree.hpp: stumps, C4.5 trees,
// single rules as a chain of tests); how they predict depends on the method (--boosting):
//   - kbs: P(y | x) is proportional to P(y) times, for every member i, LIFT_i(cell_i(x), y), the member's
//     LIFT for the cell (leaf) x falls in, measured on the distribution D_i it was fitted on (eq. 5 of the
//     paper, for any number of classes); a row split by a missing value takes its fractions' mean LIFT;
//   - adaboost-m1: each member votes for its most probable class with weight log(1 / beta_i); the votes
//     become probabilities as Weka's AdaBoostM1 makes them (exp(vote) normalised); an ensemble of one member
//     predicts that member's leaf distribution;
//   - logitboost: members are regression stumps, `per_iteration` per round (1 for two classes: F += f / 2,
//     P(second class) = 1 / (1 + exp(-2F)); else one per class: F_j += (J - 1) / J (f_j - mean f)), and
//     P = softmax(F).
// With --multiclass one-vs-rest on more than two classes, a kbs ensemble is one binary KBS run per class
// (the class against the rest): member i belongs to class member_classes[i], and its LIFT table holds, in
// that class's column, the ratio LIFT(cell, class) / LIFT(cell, rest) and 1 elsewhere; a class's score
// starts from its prior log odds and adds its members' log ratios (the binary run's logit), and the scores
// are normalised by the softmax.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/model/model.hpp"
#include "candor/tree/tree.hpp"
#include "candor/util/names.hpp"

namespace candor {

// How an ensemble's members make a prediction (--boosting).
enum class BoostingMethod { kbs, adaboost_m1, logitboost };
inline constexpr Named<BoostingMethod> kBoostingNames[] = {{"kbs", BoostingMethod::kbs},
                                                           {"adaboost-m1", BoostingMethod::adaboost_m1},
                                                           {"logitboost", BoostingMethod::logitboost}};
inline BoostingMethod parse_boosting(const std::string& name) { return parse_named(kBoostingNames, "boosting", name); }

// How the ensemble's scores become probabilities (--calibrate): as they are, scaled by a fitted temperature,
// (kbs) with LIFTs smoothed by a fitted number of prior pseudo-examples, or scaled by a fitted temperature
// after each round's members are discounted by a fitted factor per round.
enum class BoostCalibration { none, temperature, smoothing, discount };
inline constexpr Named<BoostCalibration> kBoostCalibrationNames[] = {{"none", BoostCalibration::none},
                                                                     {"temperature", BoostCalibration::temperature},
                                                                     {"smoothing", BoostCalibration::smoothing},
                                                                     {"discount", BoostCalibration::discount}};

// What an ensemble predicts with: its method (--boosting), the leaf estimate and prior pseudo-examples an
// adaboost-m1 ensemble of one member predicts with (--leaf-estimate, --prior-weight), how its scores become
// probabilities (--calibrate), and whether its members are each of one class against the rest (--multiclass). The model
// file's "settings", under the names of those options; reading throws JsonEntryError naming the entry.
struct BoostModelSettings {
  BoostingMethod boosting = BoostingMethod::kbs;
  LeafEstimate leaf_estimate = LeafEstimate::laplace;
  double prior_weight = 1;
  BoostCalibration calibrate = BoostCalibration::none;
  bool one_vs_rest = false;  // --multiclass one-vs-rest: a kbs ensemble of each class against the rest
};
inline constexpr Named<bool> kBoostMulticlassNames[] = {{"softmax", false}, {"one-vs-rest", true}};
nlohmann::json boost_model_settings_json(const BoostModelSettings& s);
BoostModelSettings boost_model_settings_from_json(const nlohmann::json& j);

struct BoostModel : Model {
  // What the model predicts with: its model file's "settings", set where the learner fits it and read back
  // with the file.
  BoostModelSettings settings;

  std::vector<Tree> members;
  std::vector<double> member_weights;                   // adaboost-m1: log(1 / beta_i)
  std::vector<std::vector<std::vector<double>>> lifts;  // kbs: member x cell x class
  int per_iteration = 1;                                // logitboost: stumps per round
  std::vector<int> member_classes;  // kbs one-vs-rest: each member's class; empty for one ensemble of all classes
  // kbs one-vs-rest: each member's cells of one class (the class only, or the rest only) on its distribution.
  // Such a cell decides a row for the member's class: later members of the class leave the row's score
  // alone (a row split by a missing value keeps, for them, the share that reached no decided cell).
  std::vector<std::vector<int>> decided_cells;
  // --calibrate temperature and discount: every score is multiplied by this before the softmax (1: as fitted).
  double temperature = 1;
  // --calibrate discount: the members of round k (0 for the first) contribute member_discount^k times what
  // they would (1: every round counts fully, the method as published). Later rounds are fitted on ever more
  // reweighted data; a factor below 1 trusts them less.
  double member_discount = 1;
  // The boosting round each member was fitted in: its position, its place in its class's run (kbs
  // one-vs-rest) or its position over the stumps per round (logitboost).
  std::vector<std::size_t> member_rounds() const;
  // --calibrate smoothing (kbs): the --prior-weight its prediction LIFTs were smoothed with, fitted on 5
  // internal folds (the lifts hold the result; this records it).
  double lift_prior_weight = 0;

  std::string kind_name() const override { return "boost"; }
  std::vector<double> predict_proba(const Dataset& d, std::size_t row) const override;
  // The (up to five) members that moved the predicted class most, with their contribution to its log
  // odds against the mean of the classes (kbs: log LIFT; logitboost: F) or their vote: "member 3 +0.84".
  std::vector<std::string> explain(const Dataset& d, std::size_t row) const override;
  // Every member: its tree, with its vote weight (adaboost-m1), LIFT per leaf and class (kbs) or leaf
  // responses (logitboost).
  std::string text(const std::string& learner) const override;
  nlohmann::json to_json() const override;
  // Every member's leaves: member (1-based), conditions, majority class, covered weight and class counts
  // under the member's distribution, and the member's vote weight (adaboost-m1) or the leaf's LIFT of
  // each class (kbs).
  nlohmann::json rule_table() const override;
  std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const override;
  std::vector<RuleShape> rule_shapes() const override;
  // The members' cells (a tree's leaves, a rule's covered and uncovered parts), and the leaves' mean depth.
  std::size_t rule_count() const override;
  double mean_rule_length() const override;
  // Members make no probability claim of their own: empty.
  std::vector<RulePoint> rule_points(const Dataset&) const override { return {}; }
  static BoostModel from_json(const nlohmann::json& j);

  // Each member's contribution to each class's score for one row (kbs: log LIFT; adaboost-m1: vote;
  // logitboost: F), member-major, times member_discount^(the member's round).
  std::vector<std::vector<double>> contributions(const Dataset& d, std::size_t row) const;
  // The scores a prediction starts from before the members' contributions: the prior's logarithm for kbs
  // (eq. 5; one-vs-rest: the prior's log odds), 0 otherwise.
  std::vector<double> base_scores() const;
  // base_scores() plus every member's contribution for a row, before the temperature and the softmax.
  std::vector<double> scores(const Dataset& d, std::size_t row) const;
  // exp(score - max), normalised: the softmax LogitBoost fits through.
  static std::vector<double> softmax(std::vector<double> scores);
  // Class probabilities from summed scores (predict_proba, and the first k members' predictions in the kbs
  // experiment): the softmax with every probability kept about 1e-12 from 0 and 1 (Model's contract: no
  // class seen in training is ruled out), as logistic models keep theirs (linear/penalised_logistic.hpp).
  static std::vector<double> probabilities(const std::vector<double>& scores);
};

}  // namespace candor
