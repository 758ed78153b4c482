#pragma once
// Resampling: stratified k-fold cross-validation (seeded, repeatable) and train/test evaluation.
#include <cstdint>
#include <vector>

#include "candor/data/dataset.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/learn/params.hpp"

namespace candor {

// Splits rows into k folds with each class spread as evenly as possible: the rows of each class are
// shuffled with `seed` and dealt to the folds in turn, continuing from class to class. Returns the test
// rows of each fold, ascending.
std::vector<std::vector<std::size_t>> stratified_folds(const std::vector<int>& y, int k, std::uint64_t seed);

struct FoldResult {
  int repeat = 0;
  int fold = 0;
  Metrics metrics;
  std::size_t rules = 0;
  double mean_rule_length = 0;
  double fit_seconds = 0;
  double predict_seconds = 0;
  std::size_t test_rows = 0;
};

struct EvaluationResult {
  std::vector<FoldResult> folds;
  // Means over folds (AUC over the folds where it is defined).
  Metrics mean;
  double rules = 0, mean_rule_length = 0, fit_seconds = 0, predict_seconds = 0;
};

// Repeat r uses seed + r. Folds run in parallel on `threads` threads; results do not depend on it.
EvaluationResult cross_validate(const Dataset& data, const LearnerParams& params, int folds, int repeats,
                                std::uint64_t seed, int threads);
// `test` must be read against the training data's schema.
EvaluationResult train_test(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads);

}  // namespace candor
