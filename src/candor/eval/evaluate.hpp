#pragma once
// Evaluation: stratified k-fold cross-validation (seeded, repeatable; the splits are data/resampling.hpp's)
// and train/test evaluation.
#include <cstdint>
#include <optional>
#include <vector>

#include "candor/data/dataset.hpp"
#include "candor/data/resampling.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/util/names.hpp"

namespace candor {

// How the folds of a cross-validation get their EVC calibration: each from its own training set (per_fold,
// as the papers' experiments do), or one calibration of the whole data for all of them (shared:
// evc/calibration.hpp's FoldCalibrationScope, computed on all `threads`). A shared calibration's seconds are
// spread evenly over the folds' fit_seconds.
enum class FoldCalibration { shared, per_fold };
inline constexpr Named<FoldCalibration> kFoldCalibrationNames[] = {{"shared", FoldCalibration::shared},
                                                                   {"per-fold", FoldCalibration::per_fold}};

struct FoldResult {
  int repeat = 0;
  int fold = 0;
  Metrics metrics;
  std::size_t rules = 0;
  double mean_rule_length = 0;
  // Root mean squared difference between each rule's `probability` and the share of its class among the
  // test examples it decides (Model::rule_points), over the rules deciding at least one; NaN if none.
  double rule_rmse = 0;
  double fit_seconds = 0;
  double predict_seconds = 0;
  std::size_t test_rows = 0;
  // confusion_matrix of the test rows: actual class x predicted class.
  std::vector<std::vector<double>> confusion;
  // Share of the (weighted) labelled test examples the model decides correctly, an undecided one counting
  // as wrong (PrIL's adjusted accuracy; the accuracy for models that decide everything), and the share it
  // leaves undecided (Model::decides).
  double adjusted_accuracy = 0;
  double undecided_rate = 0;
  // The model's training statistics (Model::training_statistics).
  std::vector<std::pair<std::string, double>> training_statistics;
  // Kept only when asked for (keep_predictions): the test labels, the predicted distributions and every
  // rule that decided a test example, for reliability diagrams.
  std::vector<int> y;
  std::vector<std::vector<double>> proba;
  std::vector<char> decided;  // per test row: Model::decides (false for a case PrIL leaves undecided)
  // With the predictions of a cross-validation's fold: which rows of the cross-validated data its test rows
  // are, in the order of y, proba and decided.
  std::vector<std::size_t> rows_of_data;
  std::vector<RulePoint> rule_points;
};

// Fits on `train` (with `threads`), predicts `test` (read against the training schema) and measures.
FoldResult evaluate_split(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                          bool keep_predictions = false);
// The measuring half of evaluate_split: predicts `test` (read against the model's schema) with a fitted model.
FoldResult evaluate_model(const Model& model, const Dataset& test, bool keep_predictions = false);
// What a rule covers in `d`: weighted examples n, weighted examples of its class s, and rows.
struct RuleHits {
  double s = 0, n = 0;
  std::size_t rows = 0;
};
RuleHits rule_hits(const Rule& r, const Dataset& d);

// The rule_rmse of FoldResult: the root mean squared difference between probability and test share over
// `points` (rule_points); NaN if there are none.
double rule_probability_rmse(const std::vector<RulePoint>& points);

struct EvaluationResult {
  std::vector<FoldResult> folds;
  // Means over folds (AUC over the folds where it is defined).
  Metrics mean;
  // The folds' confusion matrices summed (every test row of every repeat once per repeat), as Weka reports a
  // cross-validation's matrix.
  std::vector<std::vector<double>> confusion;
  double rule_rmse = 0;  // mean over the folds where it is defined; NaN if none
  double rules = 0, mean_rule_length = 0, fit_seconds = 0, predict_seconds = 0;
  double adjusted_accuracy = 0, undecided_rate = 0;
  std::vector<std::pair<std::string, double>> training_statistics;  // means over the folds
  // How a cross-validation's folds were EVC-calibrated; empty when no fold's fit calibrated its training set
  // (a learner without EVC; boosting, whose rounds calibrate their own reweighted copies; a train/test
  // evaluation).
  std::optional<FoldCalibration> evc_calibration;
};

// Repeat r uses seed + r. Folds run in parallel on `threads` threads; results do not depend on it.
EvaluationResult cross_validate(const Dataset& data, const LearnerParams& params, int folds, int repeats,
                                std::uint64_t seed, int threads, bool keep_predictions = false,
                                FoldCalibration calibration = FoldCalibration::per_fold);
// Every row of `data` predicted by a model of `params` fitted without the row's fold (cross_validate's
// stratified folds of repeat 0, `seed`), measured as one test set: metrics pooled over the rows rather than
// averaged over folds, y, proba and decided in the rows' order, and the fold models' rule points with rule
// number 0 (none is a rule of a model fitted on every row). rules and mean_rule_length are the folds' means.
FoldResult out_of_fold_predictions(const Dataset& data, const LearnerParams& params, int folds, std::uint64_t seed,
                                   int threads);
// `test` must be read against the training data's schema.
EvaluationResult train_test(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                            bool keep_predictions = false);

}  // namespace candor
