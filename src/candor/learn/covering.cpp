// Pieces every covering learner shares (learn/covering.hpp).
#include "candor/learn/covering.hpp"

#include <cstdint>
#include <stdexcept>

#include "candor/learn/learner.hpp"
#include "candor/stats/binomial_interval.hpp"

namespace candor {

SearchOptions search_options(const LearnerParams& p, int threads) {
  SearchOptions o;
  o.beam_width = p.search_width();
  o.max_rule_length = p.resolved_max_rule_length();
  o.min_covered = static_cast<std::size_t>(p.min_covered);
  o.min_positives = p.min_new_positives;
  o.kinds.not_equal = p.not_equal;
  o.alpha = p.alpha;
  o.parent_alpha = p.parent_alpha;
  o.threads = threads;
  return o;
}

std::pair<double, double> probability_interval(const QualityMeasure& estimate, const RuleStats& stats, double p) {
  const double s = stats.s(), n = stats.n;
  if (!(n > 0)) return {0.0, 1.0};
  const auto [f_lo, f_hi] = clopper_pearson(s, n);
  // The estimate with the rule's class holding `count` of the n covered: the other classes share the rest
  // in their proportions (all of it to one of them when the rule is pure).
  auto estimate_at = [&](double count) {
    std::vector<double> covered(stats.covered.begin(), stats.covered.end());
    const double others = n - s, rest = n - count;
    for (std::size_t c = 0; c < covered.size(); ++c) {
      if (static_cast<int>(c) == stats.target) continue;
      covered[c] = others > 0 ? covered[c] * rest / others : 0.0;
    }
    if (!(others > 0))
      for (std::size_t c = 0; c < covered.size(); ++c)
        if (static_cast<int>(c) != stats.target) {
          covered[c] = rest;
          break;
        }
    covered[static_cast<std::size_t>(stats.target)] = count;
    RuleStats at = stats;
    at.covered = covered;
    return estimate.probability(at);
  };
  // The search can only have flattered the frequency: the truth of a rule picked as the best of many lies
  // lower, never higher, so the raw upper end stays a valid bound while the lower end takes the estimate's
  // correction (EVC's for the search; the m-estimate's shrinkage). Both ends are clamped around p: the
  // estimate at the lower end is computed to its root finder's tolerance, and an estimate may lie above
  // the raw frequency (Laplace, m-estimate below the prior).
  return {std::min(p, estimate_at(f_lo * n)), std::max(p, f_hi)};
}

// The estimate users read is of P(class | rule fires) where the model uses the rule: among the examples
// that reach it for a decision list (those left by earlier rules: the search's rows, `totals`), among all
// training examples for a rule set (`totals` = the training set's class counts).
Rule make_rule(const FoundRule& found, const CoverageIndex& index, const QualityMeasure& estimate, ModelKind kind,
               const std::vector<double>& totals) {
  Rule r;
  r.conditions = found.conditions;
  r.klass = found.target;
  r.class_counts = found.counts;
  r.quality = found.quality;
  Bitset all(index.rows(), true);
  Bitset covered = all;
  for (const auto& c : r.conditions) covered = index.covered(c, covered);
  r.training_counts = index.class_counts(covered);
  const bool list = kind != ModelKind::rule_set;
  RuleStats stats = make_rule_stats(list ? r.class_counts : r.training_counts, totals, r.klass,
                                    static_cast<int>(r.conditions.size()));
  r.probability = estimate.probability(stats);
  r.interval = probability_interval(estimate, stats, r.probability);
  return r;
}

bool passes_prior_test(const LearnerParams& params, const Rule& rule, const std::vector<double>& totals) {
  if (parse_named(kStoppingNames, "--stop value", params.resolved_stop()) != Stopping::prior) return true;
  double sum = 0;
  for (double c : totals) sum += c;
  return sum > 0 && rule.probability > totals[static_cast<std::size_t>(rule.klass)] / sum;
}

std::size_t rule_limit(const LearnerParams& params) {
  return params.max_rules > 0 ? static_cast<std::size_t>(params.max_rules) : SIZE_MAX;
}

bool single_class(const std::vector<double>& counts) {
  int nonzero = 0;
  for (double c : counts) nonzero += c > 0;
  return nonzero <= 1;
}

int target_class(const Dataset& data, const LearnerParams& params) {
  if (params.target.empty()) return -1;
  const int target = data.schema.class_attribute.value_index(params.target);
  if (target < 0)
    throw std::invalid_argument("target class '" + params.target + "' is not a value of the class '" +
                                data.schema.class_attribute.name + "'");
  return target;
}

RuleModel empty_model(const Dataset& data, const LearnerParams& params, const CoverageIndex& index) {
  LearnerParams used = params;  // the model records what was used
  used.quality = params.resolved_quality();
  used.search = params.resolved_search();
  used.max_rule_length = params.resolved_max_rule_length();
  // A decision list or best-rule set has no combination to record: its first firing rule decides.
  if (*rule_learner(params).combine) used.combine = params.resolved_combine();
  used.stop = params.resolved_stop();
  used.m_scale = params.resolved_m_scale();
  used.correct = params.resolved_correct();
  if (find_learner(params.learner).separate_heuristics) {
    used.refine_quality = params.resolved_refine_quality();
    used.select_quality = params.resolved_quality();
  }
  RuleModel model;
  model.learner = params_to_json(used);
  model.schema = data.schema;
  model.training_rows = data.rows();
  model.training_source = data.source;
  model.training_counts = index.class_counts(Bitset(data.rows(), true));
  return model;
}

}  // namespace candor
