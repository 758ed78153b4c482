#include "candor/eval/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace candor {

double roc_auc(const std::vector<double>& scores, const std::vector<bool>& positive) {
  const std::size_t n = scores.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
  // Mann-Whitney: sum of the (tie-averaged) ranks of the positives.
  double rank_sum = 0, pos = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && scores[order[j]] == scores[order[i]]) ++j;
    double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t q = i; q < j; ++q)
      if (positive[order[q]]) {
        rank_sum += avg_rank;
        pos += 1;
      }
    i = j;
  }
  double neg = static_cast<double>(n) - pos;
  if (pos == 0 || neg == 0) return NAN;
  return (rank_sum - pos * (pos + 1) / 2.0) / (pos * neg);
}

const char* brier_kind(std::size_t classes) {
  return classes == 2 ? "binary (p - y)^2" : "multiclass sum over classes";
}

namespace {

// The bin of a top-label confidence among `bins` equal bins of [0, 1]; a confidence of 1 is in the last.
// `ece` and its floor bin alike.
std::size_t confidence_bin(double top, int bins) {
  return static_cast<std::size_t>(std::clamp(static_cast<int>(top * bins), 0, bins - 1));
}

}  // namespace

std::vector<ReliabilityBin> reliability_bins(const std::vector<int>& y, const std::vector<std::vector<double>>& proba,
                                             int bins) {
  std::vector<ReliabilityBin> out(static_cast<std::size_t>(bins));
  for (int b = 0; b < bins; ++b) {
    out[b].lo = static_cast<double>(b) / bins;
    out[b].hi = static_cast<double>(b + 1) / bins;
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    const auto& p = proba[i];
    const auto top = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
    const std::size_t b = confidence_bin(p[top], bins);
    out[b].count += 1;
    out[b].mean_predicted += p[top];
    out[b].observed += static_cast<std::size_t>(y[i]) == top ? 1.0 : 0.0;
  }
  for (auto& bin : out)
    if (bin.count > 0) {
      bin.mean_predicted /= bin.count;
      bin.observed /= bin.count;
    }
  return out;
}

double calibrated_ece(const std::vector<std::vector<double>>& proba, int bins) {
  if (proba.empty()) return 0;
  std::vector<std::vector<double>> confidences(static_cast<std::size_t>(bins));
  for (const auto& p : proba) {
    const double top = *std::max_element(p.begin(), p.end());
    confidences[confidence_bin(top, bins)].push_back(top);
  }
  constexpr std::size_t kExactUpTo = 4096;
  double sum = 0;
  std::vector<double> pmf;
  for (const auto& c : confidences) {
    if (c.empty()) continue;
    const double expected_right = std::accumulate(c.begin(), c.end(), 0.0);  // the count's mean
    if (c.size() > kExactUpTo) {
      double variance = 0;
      for (double q : c) variance += q * (1 - q);
      sum += std::sqrt(variance) * std::sqrt(2 / std::numbers::pi);
      continue;
    }
    // pmf[k]: the probability that k of the examples seen so far have their top label right.
    pmf.assign(c.size() + 1, 0.0);
    pmf[0] = 1;
    for (std::size_t i = 0; i < c.size(); ++i) {
      for (std::size_t k = i + 1; k > 0; --k) pmf[k] = pmf[k] * (1 - c[i]) + pmf[k - 1] * c[i];
      pmf[0] *= 1 - c[i];
    }
    double deviation = 0;
    for (std::size_t k = 0; k <= c.size(); ++k) deviation += pmf[k] * std::abs(static_cast<double>(k) - expected_right);
    sum += deviation;
  }
  return sum / static_cast<double>(proba.size());
}

Metrics compute_metrics(const std::vector<int>& y, const std::vector<std::vector<double>>& proba) {
  Metrics m;
  const std::size_t n = y.size();
  if (n == 0) return m;
  const std::size_t k = proba[0].size();
  double correct = 0, brier = 0, loss = 0;
  std::vector<double> freq(k, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = proba[i];
    std::size_t pred = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
    correct += pred == static_cast<std::size_t>(y[i]);
    for (std::size_t c = 0; c < k; ++c) {
      double t = c == static_cast<std::size_t>(y[i]) ? 1.0 : 0.0;
      brier += (p[c] - t) * (p[c] - t);
    }
    loss -= std::log(std::clamp(p[y[i]], 1e-15, 1.0));
    freq[y[i]] += 1;
  }
  m.accuracy = correct / static_cast<double>(n);
  m.brier = brier / static_cast<double>(n);
  if (k == 2) m.brier /= 2;  // both classes' terms are equal: scikit-learn's (p - y)^2
  for (const auto& bin : reliability_bins(y, proba))
    m.ece += bin.count / static_cast<double>(n) * std::abs(bin.observed - bin.mean_predicted);
  m.ece_floor = calibrated_ece(proba);
  m.log_loss = loss / static_cast<double>(n);
  std::vector<double> scores(n);
  std::vector<bool> positive(n);
  if (k == 2) {
    for (std::size_t i = 0; i < n; ++i) {
      scores[i] = proba[i][1];
      positive[i] = y[i] == 1;
    }
    m.auc = roc_auc(scores, positive);
    return m;
  }
  double weighted = 0, weight = 0;
  for (std::size_t c = 0; c < k; ++c) {
    if (freq[c] == 0 || freq[c] == static_cast<double>(n)) continue;
    for (std::size_t i = 0; i < n; ++i) {
      scores[i] = proba[i][c];
      positive[i] = y[i] == static_cast<int>(c);
    }
    weighted += freq[c] * roc_auc(scores, positive);
    weight += freq[c];
  }
  m.auc = weight > 0 ? weighted / weight : NAN;
  return m;
}

std::vector<std::vector<double>> confusion_matrix(const std::vector<int>& y,
                                                  const std::vector<std::vector<double>>& proba, std::size_t classes) {
  std::vector<std::vector<double>> counts(classes, std::vector<double>(classes, 0.0));
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] < 0) continue;
    const auto& p = proba[i];
    const auto predicted = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
    counts[static_cast<std::size_t>(y[i])][predicted] += 1;
  }
  return counts;
}

ConfusionSummary summarise_confusion(const std::vector<std::vector<double>>& counts) {
  const std::size_t k = counts.size();
  ConfusionSummary out;
  std::vector<double> row(k, 0.0), col(k, 0.0);
  double n = 0, diagonal = 0;
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t p = 0; p < k; ++p) {
      row[a] += counts[a][p];
      col[p] += counts[a][p];
      n += counts[a][p];
      if (a == p) diagonal += counts[a][p];
    }
  double f1_sum = 0, f1_n = 0;
  for (std::size_t c = 0; c < k; ++c) {
    ClassScores s;
    s.support = row[c];
    s.precision = col[c] > 0 ? counts[c][c] / col[c] : NAN;
    s.recall = row[c] > 0 ? counts[c][c] / row[c] : NAN;
    if (std::isnan(s.precision) || std::isnan(s.recall))
      s.f1 = NAN;
    else
      s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    if (!std::isnan(s.f1)) {
      f1_sum += s.f1;
      f1_n += 1;
    }
    out.classes.push_back(s);
  }
  out.macro_f1 = f1_n > 0 ? f1_sum / f1_n : NAN;
  double expected = 0;
  for (std::size_t c = 0; c < k; ++c) expected += n > 0 ? row[c] * col[c] / (n * n) : 0.0;
  const double observed = n > 0 ? diagonal / n : NAN;
  out.kappa = expected < 1 ? (observed - expected) / (1 - expected) : NAN;
  return out;
}

}  // namespace candor
