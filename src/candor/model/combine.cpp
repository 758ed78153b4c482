#include "candor/model/combine.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/model/rule_model.hpp"
#include "candor/util/names.hpp"

namespace candor {

namespace {

std::vector<double> normalised(std::vector<double> v, const std::vector<double>& fallback) {
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  if (!(sum > 0)) return fallback;
  for (auto& x : v) x /= sum;
  return v;
}

// The distribution of a rule for class `klass` with probability p: p for its class, 1 - p shared by the
// other classes in proportion to `counts` smoothed towards the prior with `share_m` (equal shares when
// those are all 0).
std::vector<double> class_distribution(int klass, double p, const std::vector<double>& counts,
                                       const std::vector<double>& prior, double share_m) {
  const std::size_t k = prior.size();
  if (k == 1) return {1.0};
  std::vector<double> rest = smoothed(counts, prior, share_m);
  rest[static_cast<std::size_t>(klass)] = 0;
  rest = normalised(rest, std::vector<double>(k, 1.0 / static_cast<double>(k - 1)));
  std::vector<double> out(k);
  for (std::size_t c = 0; c < k; ++c) out[c] = static_cast<int>(c) == klass ? p : (1 - p) * rest[c];
  return out;
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
// lifts d_r(c) / prior_c, d_r the rule's class distribution (rule_distribution: its probability p for its
// class y, the rest by its smoothed counts). With two classes that is p / prior_y for y and
// (1 - p) / (1 - prior_y) for the other. Multiplying every class by the rule's own share of it, rather
// than all other classes alike by (1 - p) / (1 - prior_y), matters with many classes (car: accuracy 0.866
// against 0.765). Computed in log space; p is kept at least one pseudo-example away from 0 and 1 (and a
// share of 0, possible with --prior-weight 0, counts as that much), so that no single rule can veto a class.
std::vector<double> lift_product(const CombineInput& in) {
  const std::size_t k = in.prior.size();
  std::vector<double> log_p(k);
  for (std::size_t c = 0; c < k; ++c) log_p[c] = in.prior[c] > 0 ? std::log(in.prior[c]) : -INFINITY;
  const double eps = 1.0 / (in.n_train + 2.0);
  for (const Rule* r : in.firing) {
    const double py = in.prior[static_cast<std::size_t>(r->klass)];
    if (!(py > 0 && py < 1)) continue;
    const auto d = class_distribution(r->klass, std::clamp(r->probability, eps, 1.0 - eps), r->training_counts,
                                      in.prior, in.share_m);
    for (std::size_t c = 0; c < k; ++c)
      if (in.prior[c] > 0) log_p[c] += std::log((d[c] > 0 ? d[c] : eps * in.prior[c]) / in.prior[c]);
  }
  const double top = *std::max_element(log_p.begin(), log_p.end());
  std::vector<double> p(k);
  for (std::size_t c = 0; c < k; ++c) p[c] = std::exp(log_p[c] - top);
  return normalised(p, in.prior);
}

}  // namespace

const std::vector<Combination>& combination_table() {
  static const std::vector<Combination> table{
      {"counts", "CN2's sum of the firing rules' class counts on the training set (Clark and Boswell 1991)", count_sum,
       CombinationKind::counts},
      {"m-counts", "the summed counts as an m-estimate towards the training prior, m set by --m", m_count_sum,
       CombinationKind::m_counts},
      {"probability-sum",
       "the mean of the firing rules' class distributions, each rule's own probability for its class (EVC-corrected "
       "with evc) and the rest shared by its counts",
       probability_sum, CombinationKind::probability_sum},
      {"best-rule", "the firing rule of highest probability decides (Orange 2's classifier for EVC rules)", best_rule,
       CombinationKind::best_rule},
      {"lift-product",
       "naive Bayes over rules (paper 001, eq. 5): the prior times each firing rule's lift, its share of each "
       "class (its probability for its own, its smoothed counts for the rest) over the class's prior",
       lift_product, CombinationKind::lift_product},
  };
  return table;
}

const Combination& find_combination(const std::string& name) {
  for (const auto& c : combination_table())
    if (name == c.name) return c;
  throw std::invalid_argument(unknown_name_message("combination", name, combination_names()));
}

std::vector<std::string> combination_names() {
  std::vector<std::string> out;
  for (const auto& c : combination_table()) out.emplace_back(c.name);
  return out;
}

std::vector<double> smoothed(const std::vector<double>& counts, const std::vector<double>& prior, double m) {
  const double sum = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (!(sum + m > 0)) return prior;
  std::vector<double> p(counts.size());
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (counts[c] + m * prior[c]) / (sum + m);
  return p;
}

std::vector<double> rule_distribution(const Rule& r, const std::vector<double>& counts,
                                      const std::vector<double>& prior, double share_m) {
  return class_distribution(r.klass, r.probability, counts, prior, share_m);
}

std::vector<double> mix_with_prior(std::vector<double> p, const std::vector<double>& prior, double n_train, double w) {
  if (!(w > 0)) return p;
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (n_train * p[c] + w * prior[c]) / (n_train + w);
  return p;
}

}  // namespace candor
