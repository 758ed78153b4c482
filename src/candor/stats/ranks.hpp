#pragma once
// Rank statistics for comparing estimates and learners (Demšar 2006, JMLR 7:1-30).
#include <string>
#include <vector>

namespace candor {

// Ranks 1..n of x in ascending order, ties given their average rank.
std::vector<double> average_ranks_of(const std::vector<double>& x);

// Spearman's rank correlation (Pearson correlation of average ranks); NaN when either side is constant or
// there are fewer than two pairs.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// Root mean squared difference; NaN for empty input.
double rmse(const std::vector<double>& estimate, const std::vector<double>& truth);

// Average rank of each learner over data sets: scores[d][l] for data set d and learner l; rank 1 is the
// best (the highest score when higher_is_better), ties share their average rank.
std::vector<double> mean_ranks(const std::vector<std::vector<double>>& scores, bool higher_is_better);

struct FriedmanResult {
  double chi2 = 0;  // Friedman's statistic, df k - 1
  double p = 1;
  double iman_davenport_f = 0;  // F with (k - 1, (k - 1)(N - 1)) df
  double p_f = 1;
};
// Friedman test on average ranks of k learners over n data sets.
FriedmanResult friedman(const std::vector<double>& mean_ranks, std::size_t n_datasets);

// Bonferroni-Dunn critical difference of average ranks against a control (two-tailed, alpha).
double bonferroni_dunn_cd(std::size_t k, std::size_t n_datasets, double alpha = 0.05);

}  // namespace candor
