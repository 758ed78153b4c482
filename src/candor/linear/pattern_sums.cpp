#include "candor/linear/pattern_sums.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "candor/linear/penalised_logistic.hpp"

namespace candor {

namespace {

void merge_all(std::vector<ExactSum>& into, const std::vector<ExactSum>& from) {
  if (into.size() != from.size()) throw std::invalid_argument("pattern sums: sums of another length");
  for (std::size_t i = 0; i < into.size(); ++i) into[i].merge(from[i]);
}

std::size_t class_of(const RowPatterns& patterns, std::size_t q, std::size_t classes) {
  const int y = patterns.y[q];
  if (y < 0 || static_cast<std::size_t>(y) >= classes) throw std::invalid_argument("pattern sums: a class out of range");
  return static_cast<std::size_t>(y);
}

}  // namespace

void PatternWeights::merge(const PatternWeights& other) {
  merge_all(classes, other.classes);
  if (rules.size() != other.rules.size()) throw std::invalid_argument("pattern sums: sums of another rule list");
  for (std::size_t k = 0; k < rules.size(); ++k) merge_all(rules[k], other.rules[k]);
}

PatternWeights pattern_weights(const RowPatterns& patterns, std::size_t classes) {
  PatternWeights out;
  out.classes.resize(classes);
  out.rules.assign(patterns.covered.size(), std::vector<ExactSum>(classes));
  for (std::size_t q = 0; q < patterns.y.size(); ++q) out.classes[class_of(patterns, q, classes)].add(patterns.w[q]);
  for (std::size_t k = 0; k < patterns.covered.size(); ++k)
    for (std::uint32_t q : patterns.covered[k]) out.rules[k][class_of(patterns, q, classes)].add(patterns.w[q]);
  return out;
}

void RuleLossSums::merge(const RuleLossSums& other) {
  loss.merge(other.loss);
  merge_all(intercepts, other.intercepts);
  merge_all(rules, other.rules);
}

RuleLossSums rule_loss(const RowPatterns& patterns, std::size_t classes, const RuleLossQuery& q) {
  const std::size_t rules = patterns.covered.size();
  if (q.logits < 1 || (q.logits > 1 && static_cast<std::size_t>(q.logits) != classes) ||
      q.intercepts.size() != static_cast<std::size_t>(q.logits))
    throw std::invalid_argument("rule loss: an intercept per logit, one logit or one per class");
  if (q.rule_logit.size() != rules || q.rule_sign.size() != rules || q.rules.size() != rules)
    throw std::invalid_argument("rule loss: a logit, sign and weight per rule of the patterns");
  if (q.positive >= static_cast<int>(classes) || (q.positive >= 0 && q.logits != 1) ||
      (q.positive < 0 && q.logits == 1 && classes != 2))
    throw std::invalid_argument("rule loss: a binary problem's label 1 is one class");
  const auto L = static_cast<std::size_t>(q.logits);
  for (int j : q.rule_logit)
    if (j < 0 || static_cast<std::size_t>(j) >= L) throw std::invalid_argument("rule loss: a rule's logit out of range");

  // Each pattern's logits, its rules added in rule order, as the solver over rows adds them.
  const std::size_t n = patterns.y.size();
  std::vector<double> eta(n * L);
  for (std::size_t i = 0; i < n; ++i) std::copy(q.intercepts.begin(), q.intercepts.end(), eta.begin() + i * L);
  for (std::size_t k = 0; k < rules; ++k) {
    const double add = q.rule_sign[k] * q.rules[k];
    const auto j = static_cast<std::size_t>(q.rule_logit[k]);
    for (std::uint32_t i : patterns.covered[k]) {
      if (i >= n) throw std::invalid_argument("rule loss: a rule covers a pattern past the patterns");
      eta[i * L + j] += add;
    }
  }
  // eta becomes each pattern's residuals p_ij - y_ij (of one row of it); every term enters its sum times the
  // pattern's weight, exactly.
  RuleLossSums out;
  out.intercepts.resize(L);
  out.rules.resize(rules);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = class_of(patterns, i, classes);
    const std::size_t label = q.positive < 0 ? c : (c == static_cast<std::size_t>(q.positive) ? 1 : 0);
    const double w = patterns.w[i];
    double* e = eta.data() + i * L;
    if (L == 1) {
      out.loss.add_product(w, softplus(e[0]) - (label == 1 ? e[0] : 0.0));
      e[0] = sigmoid(e[0]) - (label == 1 ? 1.0 : 0.0);
    } else {
      const double m = *std::max_element(e, e + L);
      const double label_logit = e[label];
      double sum = 0;
      for (std::size_t j = 0; j < L; ++j) {
        e[j] = std::exp(e[j] - m);
        sum += e[j];
      }
      out.loss.add_product(w, m + std::log(sum) - label_logit);
      for (std::size_t j = 0; j < L; ++j) e[j] = e[j] / sum - (j == label ? 1.0 : 0.0);
    }
    for (std::size_t j = 0; j < L; ++j) out.intercepts[j].add_product(w, e[j]);
  }
  for (std::size_t k = 0; k < rules; ++k) {
    const auto j = static_cast<std::size_t>(q.rule_logit[k]);
    for (std::uint32_t i : patterns.covered[k]) out.rules[k].add_product(patterns.w[i], eta[i * L + j]);
  }
  return out;
}

}  // namespace candor
