#pragma once
// Calibration shown, not claimed: what `candor evaluate --plot DIR` writes.
//
// DIR/reliability.csv: the reliability diagram of the top-label confidence over all test predictions
// (10 equal bins: lo, hi, count, mean predicted, observed accuracy; ECE is their count-weighted mean gap).
// DIR/rules.csv: for every rule that decided test examples in some fold, its probability against the share
// of its class among those examples (repeat, fold, probability, test share, decided).
// DIR/plots.json and, when matplotlib is there, DIR/calibration.png with both panels (scripts/plot.py).
#include <string>

#include "candor/eval/evaluate.hpp"

namespace candor {

// `r` must come from cross_validate/train_test with keep_predictions. Returns whether the PNG was drawn.
bool write_calibration_report(const EvaluationResult& r, const std::string& dir, const std::string& title, bool draw);

}  // namespace candor
