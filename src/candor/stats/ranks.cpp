#include "candor/stats/ranks.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace candor {

std::vector<double> average_ranks_of(const std::vector<double>& x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double rank = (static_cast<double>(i + j) / 2) + 1;
    for (std::size_t t = i; t <= j; ++t) r[order[t]] = rank;
    i = j + 1;
  }
  return r;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("spearman: sizes differ");
  const std::size_t n = x.size();
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  auto rx = average_ranks_of(x), ry = average_ranks_of(y);
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n, my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx == 0 || syy == 0) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

double rmse(const std::vector<double>& estimate, const std::vector<double>& truth) {
  if (estimate.size() != truth.size()) throw std::invalid_argument("rmse: sizes differ");
  if (estimate.empty()) return std::numeric_limits<double>::quiet_NaN();
  double s = 0;
  for (std::size_t i = 0; i < estimate.size(); ++i) s += (estimate[i] - truth[i]) * (estimate[i] - truth[i]);
  return std::sqrt(s / static_cast<double>(estimate.size()));
}

std::vector<double> mean_ranks(const std::vector<std::vector<double>>& scores, bool higher_is_better) {
  if (scores.empty()) throw std::invalid_argument("mean_ranks: no data sets");
  const std::size_t k = scores.front().size();
  std::vector<double> total(k, 0.0);
  for (const auto& row : scores) {
    if (row.size() != k) throw std::invalid_argument("mean_ranks: every data set needs a score per learner");
    std::vector<double> key = row;
    if (higher_is_better)
      for (double& v : key) v = -v;
    auto r = average_ranks_of(key);
    for (std::size_t l = 0; l < k; ++l) total[l] += r[l];
  }
  for (double& t : total) t /= static_cast<double>(scores.size());
  return total;
}

FriedmanResult friedman(const std::vector<double>& ranks, std::size_t n_datasets) {
  const double k = static_cast<double>(ranks.size()), n = static_cast<double>(n_datasets);
  if (ranks.size() < 2 || n_datasets < 2) throw std::invalid_argument("friedman needs two learners and two data sets");
  double sum_sq = 0;
  for (double r : ranks) sum_sq += r * r;
  FriedmanResult out;
  out.chi2 = 12 * n / (k * (k + 1)) * (sum_sq - k * (k + 1) * (k + 1) / 4);
  out.p = boost::math::cdf(
      boost::math::complement(boost::math::chi_squared_distribution<double>(k - 1), std::max(0.0, out.chi2)));
  const double denom = n * (k - 1) - out.chi2;
  if (denom > 0) {
    out.iman_davenport_f = (n - 1) * out.chi2 / denom;
    boost::math::fisher_f_distribution<double> f(k - 1, (k - 1) * (n - 1));
    out.p_f = boost::math::cdf(boost::math::complement(f, std::max(0.0, out.iman_davenport_f)));
  } else {
    out.iman_davenport_f = std::numeric_limits<double>::infinity();
    out.p_f = 0;
  }
  return out;
}

double bonferroni_dunn_cd(std::size_t k, std::size_t n_datasets, double alpha) {
  const double kk = static_cast<double>(k), n = static_cast<double>(n_datasets);
  const double q = boost::math::quantile(boost::math::normal_distribution<double>(), 1 - alpha / (2 * (kk - 1)));
  return q * std::sqrt(kk * (kk + 1) / (6 * n));
}

}  // namespace candor
