#pragma once
// Calibration shown, not claimed: what `candor evaluate --plot DIR` writes.
//
// DIR/reliability.csv: the reliability diagram of the top-label confidence over all test predictions
// (10 equal bins: lo, hi, count, mean predicted, observed accuracy; ECE is their count-weighted mean gap).
// DIR/rules.csv: for every rule that decided test examples in some fold, its probability against the share
// of its class among those examples (repeat, fold, probability, test share, decided).
// DIR/plots.json and, when matplotlib is there, DIR/calibration.png with both panels (scripts/plot.py).
// With a rule budget curve: DIR/rule_budget.csv (max_rules, rules, accuracy, log_loss; max_rules 0 is the
// learner without a budget) and DIR/rule_budget.png, accuracy and log loss against the mean number of rules.
#include <string>
#include <vector>

#include "candor/eval/evaluate.hpp"

namespace candor {

// The same evaluation of a learner with its rules capped at `max_rules` (--max-rules; 0: no cap).
struct RuleBudgetPoint {
  int max_rules = 0;
  double rules = 0;  // mean over the folds of the rules the models kept
  double accuracy = 0, log_loss = 0;
};

// The budgets a curve is evaluated at: 1, 2, 5, 10, 20, 50, ... while below `unbudgeted_rules`, the mean
// number of rules the learner keeps without one (a cap at or above it changes little).
std::vector<int> rule_budgets(double unbudgeted_rules);

// `r` must come from cross_validate/train_test with keep_predictions. `budget`, when not empty, adds the rule
// budget curve. Returns whether the PNGs were drawn.
bool write_calibration_report(const EvaluationResult& r, const std::string& dir, const std::string& title, bool draw,
                              const std::vector<RuleBudgetPoint>& budget = {});

}  // namespace candor
