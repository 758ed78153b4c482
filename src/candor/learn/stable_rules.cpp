#include "candor/learn/stable_rules.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/quantiles.hpp"
#include "candor/evc/general.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/random.hpp"

namespace candor {

const std::vector<ParamInfo>& stable_params() {
  static const std::vector<ParamInfo> table{
      {"stable_resamples", field<&LearnerParams::stable, &StableOptions::resamples>(),
       "stable rules (cn2-unordered, rule-logistic): 0 off; else fit the learner on this many bootstrap "
       "resamples and keep the rules, and first conditions of rules, found in at least --stable-frequency of "
       "them, compared on the training data's --stable-quantiles quantiles (as SIRUS keeps a forest's frequent "
       "paths; --stable-thresholds, --stable-size; docs/stability.md); their counts and probabilities are those "
       "of all the training data",
       "rule", at_least(0), &reads_stable_rules},
      {"stable_frequency", field<&LearnerParams::stable, &StableOptions::frequency>(),
       "stable rules: the share of the resamples a rule must appear in to be kept", "rule", in_range(0, 1, true),
       &reads_stable_rules},
      {"stable_quantiles", field<&LearnerParams::stable, &StableOptions::quantiles>(),
       "stable rules: the q-quantiles of the training data on which rules are counted (--stable-thresholds "
       "searched) or to which thresholds are restricted (quantiles)",
       "rule", at_least(2), &reads_stable_rules},
      {"stable_thresholds",
       named_field<kStableThresholdNames, &LearnerParams::stable, &StableOptions::thresholds>(),
       "stable rules: searched (the resamples' searches cut the data as it is; a rule is counted with each "
       "threshold snapped to the nearest quantile, and a kept rule cuts at the median of the thresholds its "
       "resamples found, so that a cut between two quantiles stays where the classes part) or quantiles (the "
       "searches see the data snapped to the quantiles, so every threshold is one, as in SIRUS)",
       "rule",
       {},
       &reads_stable_rules},
      {"stable_size",
       named_field<kStableSizeNames, &LearnerParams::stable, &StableOptions::size>(),
       "stable rules: learner (at most as many rules as the learner keeps without stable rules on the same "
       "data, the most frequent first, ties to the most important: rule-logistic keeps that many of its "
       "weighted stable rules and fits their weights again) or frequent (every frequent rule) (default: "
       "learner; frequent for rule-logistic's --candidates covering+additive, the stable mode's, whose "
       "one-condition rules would crowd out covering's under the learner's count, docs/stability.md)",
       "rule",
       {},
       &reads_stable_rules},
  };
  return table;
}

StableSize resolved_stable_size(const LearnerParams& p) { return p.stable.size.value_or(StableSize::learner); }

namespace {

// Per numeric attribute, the values a replaced column can hold: the grid and the largest value.
std::vector<std::vector<double>> snapped_values(const Dataset& data, const std::vector<std::vector<double>>& grid) {
  std::vector<std::vector<double>> out(data.num_attributes());
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    if (data.attribute(a).is_nominal() || grid[a].empty()) continue;
    double top = grid[a].back();
    for (double x : data.columns[a].values)
      if (!std::isnan(x)) top = std::max(top, x);
    out[a] = grid[a];
    if (top > out[a].back()) out[a].push_back(top);
  }
  return out;
}

using ConditionKey = std::tuple<int, int, int, double>;
using RuleKey = std::pair<int, std::vector<ConditionKey>>;  // class, conditions in canonical order

// The largest value a replaced column can hold at or below t (the cut lies between two of them).
double at_or_below(double t, const std::vector<double>& values) {
  const auto above = std::upper_bound(values.begin(), values.end(), t);
  return above != values.begin() ? *(above - 1) : t;
}

// A resample's rule as a key: its class and its conditions in a canonical order, each numeric threshold as
// snap(attribute, threshold) writes it; `thresholds` receives the rule's own thresholds in the key's order.
template <class Snap>
RuleKey rule_key(const Rule& r, Snap&& snap, std::vector<double>& thresholds) {
  std::vector<std::pair<ConditionKey, double>> conditions;
  for (const Condition& c : r.conditions) {
    const double t = c.op == Op::le || c.op == Op::gt ? snap(c.attribute, c.threshold) : c.threshold;
    conditions.emplace_back(ConditionKey{c.attribute, static_cast<int>(c.op), c.value, t}, c.threshold);
  }
  std::sort(conditions.begin(), conditions.end());
  RuleKey key{r.klass, {}};
  thresholds.clear();
  for (const auto& [k, t] : conditions) {
    key.second.push_back(k);
    thresholds.push_back(t);
  }
  return key;
}

}  // namespace

Dataset snap_to_quantiles(const Dataset& data, const std::vector<std::vector<double>>& grid) {
  const auto values = snapped_values(data, grid);
  Dataset out = data;
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    const auto& v = values[a];
    if (v.empty()) continue;
    for (double& x : out.columns[a].values) {
      if (std::isnan(x)) continue;
      const auto at = std::lower_bound(v.begin(), v.end(), x);  // never end: the last value is the largest
      x = *at;
    }
  }
  return out;
}

RuleModel fit_stable_rules(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                           const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  const auto grid = quantile_grid(data, params.stable.quantiles);
  const auto values = snapped_values(data, grid);
  const bool searched = params.stable.thresholds == StableThresholds::searched;
  const Dataset snapped = searched ? Dataset{} : snap_to_quantiles(data, grid);

  LearnerParams raw = params;
  raw.stable.resamples = 0;
  raw.correct = Correction::none;
  raw.rule_covering.max_rules = 0;
  const std::size_t n = data.rows(), b_count = static_cast<std::size_t>(params.stable.resamples);
  Rng rng(stream_seed(static_cast<std::uint64_t>(params.seed), 0x57AB1EULL));
  std::vector<std::vector<std::size_t>> samples(b_count);
  for (auto& rows : samples) rows = bootstrap_rows(n, rng);
  // Per resample, each key found once, with the thresholds its searches chose for it (the first rule giving
  // the key), in the key's condition order: a searched threshold is their median.
  std::vector<std::map<RuleKey, std::vector<double>>> found(b_count);
  // Searched thresholds are counted at the nearest grid value, as the stability measure compares rules; on
  // the quantiles, every cut is written at the grid value below it.
  auto snap = [&](int attribute, double t) {
    const auto a = static_cast<std::size_t>(attribute);
    return searched ? snap_to_grid(t, grid[a]) : at_or_below(t, values[a]);
  };
  parallel_for(b_count, threads, [&](std::size_t b) {
    const RuleModel m = fit_rules((searched ? data : snapped).subset(samples[b]), raw, 1);
    // Every prefix of a rule (its conditions in the order the search added them), as SIRUS counts every
    // node of a tree's paths: a rule's first conditions recur across resamples far more often than the
    // whole rule, whose last conditions depend on which rows earlier rules covered.
    Rule prefix;
    std::vector<double> thresholds;
    for (const Rule& r : m.rules) {
      prefix.klass = r.klass;
      prefix.conditions.clear();
      for (const Condition& c : r.conditions) {
        prefix.conditions.push_back(c);
        RuleKey key = rule_key(prefix, snap, thresholds);
        found[b].try_emplace(std::move(key), thresholds);
      }
    }
  });
  std::map<RuleKey, std::size_t> frequency;
  for (const auto& keys : found)
    for (const auto& [key, thresholds] : keys) ++frequency[key];
  const double needed = params.stable.frequency * static_cast<double>(b_count);
  CoverageIndex index(data, threads);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::rule_set;
  model.default_counts = model.training_counts;

  // The frequent candidates as rules on all the data: searched thresholds at the lower median of those the
  // resamples holding the rule chose (a threshold one of them cut at, in the rule's quantile cell).
  struct Candidate {
    FoundRule found;
    std::size_t count;
  };
  std::vector<Candidate> frequent;
  const Bitset all(data.rows(), true);
  std::vector<double> at;
  for (const auto& [key, count] : frequency) {
    if (static_cast<double>(count) < needed - 1e-9) continue;
    Candidate c{FoundRule{}, count};
    FoundRule& f = c.found;
    f.target = key.first;
    Bitset covered = all;
    for (std::size_t i = 0; i < key.second.size(); ++i) {
      const auto& [attribute, op, value, threshold] = key.second[i];
      Condition condition{attribute, static_cast<Op>(op), value, threshold};
      if (searched && (condition.op == Op::le || condition.op == Op::gt)) {
        at.clear();
        for (const auto& keys : found)
          if (const auto it = keys.find(key); it != keys.end()) at.push_back(it->second[i]);
        std::sort(at.begin(), at.end());
        condition.threshold = at[(at.size() - 1) / 2];
      }
      f.conditions.push_back(condition);
      covered = index.covered(condition, covered);
    }
    if (!covered.any()) continue;
    f.counts = index.class_counts(covered);
    const RuleStats stats =
        make_rule_stats(f.counts, model.training_counts, f.target, static_cast<int>(f.conditions.size()));
    f.quality = f.selection = quality.evaluate(stats);
    f.covered = std::move(covered);
    frequent.push_back(std::move(c));
  }
  // Most frequent first; among equals the best by the learner's measure, then the map's (canonical) order,
  // so the result never depends on threads.
  std::stable_sort(frequent.begin(), frequent.end(), [](const Candidate& a, const Candidate& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.found.quality > b.found.quality;
  });

  std::size_t max_rules = rule_limit(params);
  if (resolved_stable_size(params) == StableSize::learner) {
    LearnerParams own = params;
    own.stable.resamples = 0;
    max_rules = std::min(max_rules, fit_with_quality(data, own, quality, threads, estimate).rules.size());
  }
  std::vector<std::pair<int, const Bitset*>> kept;  // class and covered rows of each kept rule
  for (const Candidate& c : frequent) {
    if (model.rules.size() >= max_rules) break;
    const FoundRule& f = c.found;
    const bool redundant = std::any_of(kept.begin(), kept.end(),
                                       [&](const auto& k) { return k.first == f.target && *k.second == f.covered; });
    if (redundant) continue;
    Rule rule = make_rule(f, index, estimator, model.kind, model.training_counts);
    if (!passes_prior_test(settings, rule, model.training_counts)) continue;
    kept.emplace_back(f.target, &f.covered);
    rule.stable_frequency = static_cast<double>(c.count) / static_cast<double>(b_count);
    model.rules.push_back(std::move(rule));
  }
  return model;
}

}  // namespace candor
