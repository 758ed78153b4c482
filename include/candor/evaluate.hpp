#pragma once
// candor's public API: evaluation. Stratified k-fold cross-validation (seeded, repeatable), train/test
// evaluation, a fitted model measured on test data, and the stability of a learner's rules under resampling.
// Every figure is the same on any thread count.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "candor/data.hpp"
#include "candor/learner.hpp"
#include "candor/model.hpp"

namespace candor {

struct Metrics {
  double accuracy = 0;
  // Binary: the area under the ROC curve of the second class's probability (ties count one half).
  // Multiclass: one-vs-rest AUC of each class weighted by its frequency; classes absent from the labels
  // are left out. NaN when fewer than two classes occur.
  double auc = 0;
  // Brier score. Two classes: mean of (p - y)^2 for the second class, scikit-learn's brier_score_loss
  // (0 best, 1 worst); more classes: mean over examples of sum_c (p_c - [y = c])^2 (0 best, 2 worst).
  double brier = 0;
  // Expected calibration error of the top-label confidence: examples binned by max_c p_c into 10 equal
  // bins of [0, 1]; the mean over examples of |accuracy - mean confidence| of their bin.
  double ece = 0;
  // The ECE exactly calibrated predictions would show on the same rows (the mean over draws of labels from the
  // predicted probabilities): the level below which `ece` cannot tell a model apart, high on few rows.
  double ece_floor = 0;
  // Mean of -ln p_y, with p_y clipped to [1e-15, 1] so that a confident mistake costs ln(1e15) = 34.5.
  double log_loss = 0;
};

// How the folds of a cross-validation get their EVC calibration: each from its own training set (per_fold,
// as the papers' experiments do), or one calibration of the whole data for all of them (shared, computed on
// all `threads`; `candor evaluate`'s default). A shared calibration's seconds are spread evenly over the folds'
// fit_seconds.
enum class FoldCalibration { shared, per_fold };

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
EvaluationResult cross_validate(const Dataset& data, const Learner& learner, int folds, int repeats, std::uint64_t seed,
                                int threads, bool keep_predictions = false,
                                FoldCalibration calibration = FoldCalibration::per_fold);
// Fits on `train`, predicts `test` (read against the training data's schema: LoadOptions::schema) and measures.
EvaluationResult train_test(const Dataset& train, const Dataset& test, const Learner& learner, int threads,
                            bool keep_predictions = false);
// A fitted model measured on `test` (read against the model's schema: LoadOptions::schema).
FoldResult evaluate_model(const Model& model, const Dataset& test, bool keep_predictions = false);

// "bootstrap", "subsample" or "folds"; throws std::invalid_argument naming them otherwise.
StabilityResampling parse_stability_resampling(const std::string& name);
const char* stability_resampling_name(StabilityResampling r);

struct StabilityOptions {
  int resamples = 20;  // B, at least 2
  StabilityResampling resampling = StabilityResampling::bootstrap;
  std::uint64_t seed = 1;
  int quantiles = 10;  // q of the threshold snapping, at least 2
  int threads = 0;     // 0: every core
};

// The learner fitted on `options.resamples` resamples of `data` and once on all of it: how alike their rules
// and predictions are (StabilityRecord, in candor/model.hpp, defines each figure).
StabilityRecord measure_stability(const Dataset& data, const Learner& learner, const StabilityOptions& options);

}  // namespace candor
