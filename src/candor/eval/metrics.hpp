#pragma once
// Classification metrics from predicted class probabilities.
#include <cstddef>
#include <vector>

#include "candor/evaluate.hpp"

namespace candor {

// "binary (p - y)^2" for two classes, "multiclass sum over classes" otherwise.
const char* brier_kind(std::size_t classes);

// One bin of a reliability diagram: examples whose predicted probability lies in [lo, hi).
struct ReliabilityBin {
  double lo = 0, hi = 0;
  double count = 0;  // examples in the bin
  double mean_predicted = 0;
  double observed = 0;  // share of them whose top label is right
};
// Reliability of the top-label confidence over `bins` equal bins (what `ece` summarises); a predicted
// probability of 1 goes into the last bin.
std::vector<ReliabilityBin> reliability_bins(const std::vector<int>& y, const std::vector<std::vector<double>>& proba,
                                             int bins = 10);

// The expected ECE of predictions that are exactly calibrated: `ece` of these predictions, averaged over
// labels drawn from them, so that each example's top label is right with the probability it is given. That
// is consistency resampling's floor (Broecker and Smith, Weather and Forecasting 2007), computed exactly
// instead of by drawing: within a bin the right top labels are a Poisson-binomial count S of mean mu (the
// bin's summed confidence), and the bin adds E|S - mu| / n. The count's distribution is built exactly for
// bins of up to 4,096 examples, and taken as normal beyond (E|S - mu| = sd sqrt(2 / pi)).
double calibrated_ece(const std::vector<std::vector<double>>& proba, int bins = 10);

// proba[i] is the distribution predicted for example i, y[i] its true class.
Metrics compute_metrics(const std::vector<int>& y, const std::vector<std::vector<double>>& proba);
// counts[a][p]: how many examples of actual class a were predicted as class p (the class of highest
// probability, the first on ties, as `accuracy` counts), over `classes` classes; unlabelled rows (y < 0) are
// left out.
std::vector<std::vector<double>> confusion_matrix(const std::vector<int>& y,
                                                  const std::vector<std::vector<double>>& proba, std::size_t classes);

// What a confusion matrix says per class and overall. Precision of class c: the share of the examples
// predicted c that are c (NaN when none was predicted c); recall: the share of the examples of c predicted c
// (NaN when c has none); F1: their harmonic mean (0 when both are 0, NaN when either is undefined).
// Cohen's kappa: (p_o - p_e) / (1 - p_e), p_o the share on the diagonal, p_e = sum_c row_c col_c / n^2 the
// agreement expected by chance (NaN when p_e is 1). macro_f1: the mean F1 over the classes where it is
// defined.
struct ClassScores {
  double precision = 0, recall = 0, f1 = 0, support = 0;
};
struct ConfusionSummary {
  std::vector<ClassScores> classes;
  double macro_f1 = 0;
  double kappa = 0;
};
ConfusionSummary summarise_confusion(const std::vector<std::vector<double>>& counts);

// Area under the ROC curve of scores for positives (label true) against negatives.
double roc_auc(const std::vector<double>& scores, const std::vector<bool>& positive);

}  // namespace candor
