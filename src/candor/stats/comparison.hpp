#pragma once
// Comparing learners over data sets from a results table: any CSV (or .tsv) with a `dataset` column, a `learner`
// column and one column per metric (candor's experiment results, or results from another tool). Rows of the
// same data set and learner (folds, repeats) are averaged first. Missing-value policy: an empty cell, `?`,
// `n/a`, `nan` or `NA` is a missing value; a data set where some learner has no value of the metric is
// left out of the comparison and listed in `incomplete`.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "candor/stats/post_hoc.hpp"
#include "candor/stats/ranks.hpp"

namespace candor {

struct ResultsMatrix {
  std::string metric;
  std::vector<std::string> learners;        // in order of first appearance
  std::vector<std::string> datasets;        // complete data sets, in order of first appearance
  std::vector<std::vector<double>> scores;  // scores[d][l]: mean over the rows of data set d, learner l
  std::vector<std::string> incomplete;      // data sets left out
};
// Throws InputError naming the file and line for a missing column, a malformed line or a non-number.
// Non-empty `only_learners` / `only_datasets` keep just those rows, in that order (a listed data set with
// no rows counts as incomplete).
ResultsMatrix read_results(const std::string& path, const std::string& metric,
                           const std::vector<std::string>& only_learners = {},
                           const std::vector<std::string>& only_datasets = {});

// Whether a larger value of a metric candor knows is better (accuracy, auc, adjusted_accuracy,
// adjusted_average_reliability: yes; undecided_rate, brier, log_loss,
// rule_rmse, error, rules, mean_rule_length, *_seconds: no); nullopt for other names.
std::optional<bool> metric_higher_is_better(const std::string& metric);

struct PairComparison {
  std::size_t a = 0, b = 0;  // learner indices; wins count where a is better than b
  SignTestResult sign;
  WilcoxonResult wilcoxon;  // r_plus: the ranks of the data sets where a is better
};

struct Comparison {
  std::string metric;
  bool higher_is_better = true;
  double alpha = 0.05;
  std::vector<std::string> learners;
  std::vector<std::string> datasets;
  std::vector<std::string> incomplete;
  std::vector<double> mean_scores;    // per learner, over the compared data sets
  std::vector<double> average_ranks;  // 1 = best
  FriedmanResult friedman;            // meaningful with two learners and two data sets
  double nemenyi_cd = 0;
  std::vector<std::vector<std::size_t>> nemenyi_groups;  // learners Nemenyi cannot separate (cd_groups)
  std::optional<std::size_t> control;
  double bonferroni_dunn_cd = 0;
  std::vector<std::size_t> same_as_control;  // learners within the Bonferroni-Dunn CD of the control
  std::vector<PairComparison> pairs;         // every pair; with a control, the control against each other learner
};
// Needs two learners and two data sets. `control` empty: no control; otherwise a learner's name.
Comparison compare_learners(const ResultsMatrix& results, bool higher_is_better, double alpha,
                            const std::string& control);

// JSON: "metric", "higher_is_better", "alpha", "datasets", "incomplete", "mean_scores" and
// "average_ranks" ({learner: value}), "friedman" {"chi2", "p", "iman_davenport_F", "p_F"}, "nemenyi"
// {"cd", "groups"}, "bonferroni_dunn" {"control", "cd", "same_as_control"} (with a control) and "pairs".
nlohmann::json comparison_json(const Comparison& c);

}  // namespace candor
