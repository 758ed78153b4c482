#pragma once
// Classification metrics from predicted class probabilities.
#include <vector>

namespace candor {

struct Metrics {
  double accuracy = 0;
  // Binary: the area under the ROC curve of the second class's probability (ties count one half).
  // Multiclass: one-vs-rest AUC of each class weighted by its frequency; classes absent from the labels
  // are left out. NaN when fewer than two classes occur.
  double auc = 0;
  // Multiclass Brier score: mean over examples of sum_c (p_c - [y = c])^2 (0 best, 2 worst).
  double brier = 0;
  // Mean of -ln p_y, with p_y clipped to [1e-15, 1] so that a confident mistake costs ln(1e15) = 34.5.
  double log_loss = 0;
};

// proba[i] is the distribution predicted for example i, y[i] its true class.
Metrics compute_metrics(const std::vector<int>& y, const std::vector<std::vector<double>>& proba);
// Area under the ROC curve of scores for positives (label true) against negatives.
double roc_auc(const std::vector<double>& scores, const std::vector<bool>& positive);

}  // namespace candor
