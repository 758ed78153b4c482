#pragma once
// Evaluation of options as the inside of candor holds them (LearnerParams): the same as candor/evaluate.hpp's
// for a Learner, and the pieces the CLI's report and the experiments use.
#include <cstdint>
#include <optional>
#include <vector>

#include "candor/data.hpp"
#include "candor/data/resampling.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/evaluate.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/util/names.hpp"

namespace candor {

// FoldCalibration (candor/evaluate.hpp) by name.
inline constexpr Named<FoldCalibration> kFoldCalibrationNames[] = {{"shared", FoldCalibration::shared},
                                                                   {"per-fold", FoldCalibration::per_fold}};

// Fits on `train` (with `threads`), predicts `test` (read against the training schema) and measures.
FoldResult evaluate_split(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                          bool keep_predictions = false);
// What a rule covers in `d`: weighted examples n, weighted examples of its class s, and rows.
struct RuleHits {
  double s = 0, n = 0;
  std::size_t rows = 0;
};
RuleHits rule_hits(const Rule& r, const Dataset& d);

// The rule_rmse of FoldResult: the root mean squared difference between probability and test share over
// `points` (rule_points); NaN if there are none.
double rule_probability_rmse(const std::vector<RulePoint>& points);

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
