#include "candor/model/combine.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/model/rule_model.hpp"

namespace candor {

namespace {

std::vector<double> normalised(std::vector<double> v, const std::vector<double>& fallback) {
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  if (!(sum > 0)) return fallback;
  for (auto& x : v) x /= sum;
  return v;
}

// CN2 (Clark and Boswell 1991): the class counts (whole training set) of the firing rules summed.
std::vector<double> count_sum(const CombineInput& in) {
  std::vector<double> sum(in.prior.size(), 0.0);
  for (const Rule* r : in.firing)
    for (std::size_t c = 0; c < sum.size(); ++c) sum[c] += r->training_counts[c];
  return normalised(sum, in.prior);
}

// The summed counts as an m-estimate towards the prior: a few covered examples cannot claim certainty.
std::vector<double> m_count_sum(const CombineInput& in) {
  std::vector<double> sum(in.prior.size(), 0.0);
  for (const Rule* r : in.firing)
    for (std::size_t c = 0; c < sum.size(); ++c) sum[c] += r->training_counts[c];
  return smoothed(sum, in.prior, in.m);
}

// The mean of the firing rules' distributions, each built from the rule's own (corrected) probability.
std::vector<double> probability_sum(const CombineInput& in) {
  std::vector<double> sum(in.prior.size(), 0.0);
  for (const Rule* r : in.firing) {
    const auto d = rule_distribution(*r, r->training_counts, in.prior, in.share_m);
    for (std::size_t c = 0; c < sum.size(); ++c) sum[c] += d[c];
  }
  return normalised(sum, in.prior);
}

// The firing rule of highest probability decides alone (Orange 2's classifier for EVC rules); ties go to
// the earlier rule.
std::vector<double> best_rule(const CombineInput& in) {
  const Rule* best = nullptr;
  for (const Rule* r : in.firing)
    if (!best || r->probability > best->probability) best = r;
  return best ? rule_distribution(*best, best->training_counts, in.prior, in.share_m) : in.prior;
}

// Naive Bayes over rules, the form of paper 001's eq. (5): prior_c times the product of the firing rules'
// lifts. A rule for class y with probability p multiplies y by p / prior_y and every other class by
// (1 - p) / (1 - prior_y): it speaks about its own class only. Computed in log space; p is kept at least
// one pseudo-example away from 0 and 1 so that a relative frequency of 1 cannot veto a class.
std::vector<double> lift_product(const CombineInput& in) {
  const std::size_t k = in.prior.size();
  std::vector<double> log_p(k);
  for (std::size_t c = 0; c < k; ++c) log_p[c] = in.prior[c] > 0 ? std::log(in.prior[c]) : -INFINITY;
  const double eps = 1.0 / (in.n_train + 2.0);
  for (const Rule* r : in.firing) {
    const double py = in.prior[static_cast<std::size_t>(r->klass)];
    if (!(py > 0 && py < 1)) continue;
    Rule clamped = *r;
    clamped.probability = std::clamp(r->probability, eps, 1.0 - eps);
    const auto d = rule_distribution(clamped, r->training_counts, in.prior, in.share_m);
    for (std::size_t c = 0; c < k; ++c)
      if (in.prior[c] > 0) log_p[c] += std::log(d[c] / in.prior[c]);
  }
  const double top = *std::max_element(log_p.begin(), log_p.end());
  std::vector<double> p(k);
  for (std::size_t c = 0; c < k; ++c) p[c] = std::exp(log_p[c] - top);
  return normalised(p, in.prior);
}

}  // namespace

const std::vector<Combination>& combination_table() {
  static const std::vector<Combination> table{
      {"counts", "CN2's sum of the firing rules' class counts on the training set (Clark and Boswell 1991)",
       count_sum},
      {"m-counts", "the summed counts as an m-estimate towards the training prior, m set by --m", m_count_sum},
      {"probability-sum",
       "the mean of the firing rules' class distributions, each rule's own probability for its class (EVC-corrected "
       "with evc) and the rest shared by its counts",
       probability_sum},
      {"best-rule", "the firing rule of highest probability decides (Orange 2's classifier for EVC rules)", best_rule},
      {"lift-product",
       "naive Bayes over rules (paper 001, eq. 5): the prior times each firing rule's lift p / prior for its class "
       "and (1 - p) / (1 - prior) for the others",
       lift_product},
  };
  return table;
}

const Combination& find_combination(const std::string& name) {
  for (const auto& c : combination_table())
    if (name == c.name) return c;
  std::string known;
  for (const auto& c : combination_table()) known += (known.empty() ? "" : ", ") + std::string(c.name);
  throw std::invalid_argument("unknown combination '" + name + "' (known: " + known + ")");
}

std::vector<double> smoothed(const std::vector<double>& counts, const std::vector<double>& prior, double m) {
  const double sum = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (!(sum + m > 0)) return prior;
  std::vector<double> p(counts.size());
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (counts[c] + m * prior[c]) / (sum + m);
  return p;
}

std::vector<double> rule_distribution(const Rule& r, const std::vector<double>& counts, const std::vector<double>& prior,
                                      double share_m) {
  const std::size_t k = prior.size();
  if (k == 1) return {1.0};
  std::vector<double> rest = smoothed(counts, prior, share_m);
  rest[static_cast<std::size_t>(r.klass)] = 0;
  rest = normalised(rest, std::vector<double>(k, 1.0 / static_cast<double>(k - 1)));
  std::vector<double> p(k);
  for (std::size_t c = 0; c < k; ++c) p[c] = static_cast<int>(c) == r.klass ? r.probability : (1 - r.probability) * rest[c];
  return p;
}

std::vector<double> mix_with_prior(std::vector<double> p, const std::vector<double>& prior, double n_train, double w) {
  if (!(w > 0)) return p;
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (n_train * p[c] + w * prior[c]) / (n_train + w);
  return p;
}

}  // namespace candor
