#pragma once
// Turning rules into class probabilities. A decision list and a best-rule set are decided by one rule
// (rule_distribution); an unordered rule set combines every firing rule by one entry of combination_table().
//
// Contract: no probability is 0 or 1 unless the training data justify it. Every prediction is finally mixed
// with the training prior as w = --prior-weight pseudo-examples (mix_with_prior; default 1), so every class
// seen in training keeps a probability of at least w prior_c / (N + w), and a class never seen in training
// keeps 0. With w = 0 (the papers' experiments) the raw distributions are returned unchanged.
#include <span>
#include <string>
#include <vector>

namespace candor {

struct Rule;

// What a combination sees: the firing rules (in model order), the training prior (normalised), the total
// training weight N, the m of the m-estimate family (RuleModel::m) and the m that smooths a rule's shares of the
// other classes (rule_distribution).
struct CombineInput {
  std::span<const Rule* const> firing;
  const std::vector<double>& prior;
  double n_train = 0;
  double m = 0;
  double share_m = 0;
};
using CombineFn = std::vector<double> (*)(const CombineInput& in);

// Which combination an entry is, for code that writes it out in another form (export/model_program.cpp).
enum class CombinationKind { counts, m_counts, probability_sum, best_rule, lift_product };
struct Combination {
  const char* name;
  const char* description;
  CombineFn combine;  // a distribution over the classes (sums to 1), before mix_with_prior
  CombinationKind kind;
};
// Every combination `--combine` takes, for the parameter check, `candor params` and docs/reference.md.
const std::vector<Combination>& combination_table();
// Throws std::invalid_argument naming the known combinations when `name` is unknown.
const Combination& find_combination(const std::string& name);
// The names of combination_table(), in its order.
std::vector<std::string> combination_names();

// (counts_c + m prior_c) / (sum + m): counts smoothed towards the prior; the prior itself when sum + m is 0.
std::vector<double> smoothed(const std::vector<double>& counts, const std::vector<double>& prior, double m);

// One rule's class distribution: its `probability` for its class; the rest shared among the other classes
// in proportion to `counts` smoothed towards the prior with `share_m` (models use prior weight x number of
// classes, so a class the rule never covered keeps a share); equal shares when those counts are all 0.
std::vector<double> rule_distribution(const Rule& r, const std::vector<double>& counts,
                                      const std::vector<double>& prior, double share_m);

// (N p + w prior) / (N + w): the prediction mixed with the prior as w pseudo-examples.
std::vector<double> mix_with_prior(std::vector<double> p, const std::vector<double>& prior, double n_train,
                                   double w = 1);

}  // namespace candor
