#include "candor/learn/cn2.hpp"

#include <algorithm>
#include <stdexcept>

#include "candor/coverage/coverage_index.hpp"
#include "candor/search/beam_search.hpp"

namespace candor {
namespace {

SearchOptions search_options(const LearnerParams& p, int threads) {
  SearchOptions o;
  o.beam_width = p.beam_width;
  o.max_rule_length = p.max_rule_length;
  o.min_covered = static_cast<std::size_t>(p.min_covered);
  o.kinds.not_equal = p.not_equal;
  o.alpha = p.alpha;
  o.parent_alpha = p.parent_alpha;
  o.threads = threads;
  return o;
}

Rule make_rule(const FoundRule& found, const CoverageIndex& index, const QualityMeasure& quality,
               const std::vector<double>& learning_totals) {
  Rule r;
  r.conditions = found.conditions;
  r.klass = found.target;
  r.class_counts = found.counts;
  r.quality = found.quality;
  RuleStats stats = make_rule_stats(r.class_counts, learning_totals, r.klass, static_cast<int>(r.conditions.size()));
  r.probability = quality.probability(stats);
  Bitset all(index.rows(), true);
  Bitset covered = all;
  for (const auto& c : r.conditions) covered = index.covered(c, covered);
  r.training_counts = index.class_counts(covered);
  return r;
}

bool single_class(const std::vector<double>& counts) {
  int nonzero = 0;
  for (double c : counts) nonzero += c > 0;
  return nonzero <= 1;
}

}  // namespace

RuleModel fit(const Dataset& data, const LearnerParams& params, int threads) {
  validate(params);
  auto quality = make_quality(params.resolved_quality(), QualityParams{params.m});
  CoverageIndex index(data);
  const SearchOptions options = search_options(params, threads);
  const std::size_t max_rules = params.max_rules > 0 ? static_cast<std::size_t>(params.max_rules) : SIZE_MAX;

  int target = -1;
  if (!params.target.empty()) {
    target = data.schema.class_attribute.value_index(params.target);
    if (target < 0) throw std::invalid_argument("target class '" + params.target + "' is not a value of the class '" +
                                                data.schema.class_attribute.name + "'");
  }

  RuleModel model;
  model.params = params;
  model.params.quality = params.resolved_quality();  // the model records what was used
  model.schema = data.schema;
  model.training_rows = data.rows();
  model.training_source = data.source;
  Bitset all(data.rows(), true);
  model.training_counts = index.class_counts(all);

  if (params.learner == "cn2-ordered") {
    model.kind = ModelKind::decision_list;
    Bitset active = all;
    while (model.rules.size() < max_rules) {
      auto totals = index.class_counts(active);
      if (single_class(totals)) break;  // the default rule already classifies what is left
      auto found = find_best_rule(index, active, target, *quality, options);
      if (!found) break;
      model.rules.push_back(make_rule(*found, index, *quality, totals));
      active.subtract(found->covered);
    }
    model.default_counts = index.class_counts(active);
  } else {
    model.kind = ModelKind::rule_set;
    for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) {
      if (target >= 0 && c != target) continue;
      Bitset active = all;
      while (model.rules.size() < max_rules) {
        if (!(active & index.class_rows(c)).any()) break;
        auto totals = index.class_counts(active);
        auto found = find_best_rule(index, active, c, *quality, options);
        if (!found) break;
        model.rules.push_back(make_rule(*found, index, *quality, totals));
        active.subtract(found->covered & index.class_rows(c));
      }
    }
    model.default_counts = model.training_counts;
  }
  return model;
}

}  // namespace candor
