// CN2 covering, the two learners of the registry's cn2 entries. Ordered (Clark and Niblett 1989): find the
// best rule over all classes, remove every example it covers, repeat; the rules form a decision list.
// Unordered (Clark and Boswell 1991): for each class, find the best rule for that class, remove the positive
// examples it covers (negatives stay) or, with probabilistic covering, keep them until a better rule covers
// them; repeat until no positives are left, no rule qualifies or the stopping criterion says so.
#include "candor/learners/cn2/cn2.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/coverage/coverage_index.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/search/beam_search.hpp"

namespace candor {

namespace {

// ABCN2's probabilistic covering (Možina et al.; Orange 2's CovererAndRemover_Prob): examples are never
// removed. Each example of the class remembers the best probability of a rule covering it so far, and the
// search returns only rules that improve (cover with a higher probability) at least --min-new-positives
// of them (at least one), and at least --min-new-share of the class examples they cover.
void fit_probabilistic_covering(const CoverageIndex& index, const LearnerParams& params, const RuleSettings& settings,
                                const QualityMeasure& quality, const QualityMeasure& estimator, SearchOptions options,
                                int target, RuleModel& model) {
  const std::size_t max_rules = rule_limit(params);
  const Bitset all(index.rows(), true);
  SearchMemo memo;  // every search runs on all rows
  options.memo = &memo;
  std::vector<double> best(index.rows(), 0.0);
  for (int c = 0; c < static_cast<int>(model.training_counts.size()); ++c) {
    if (target >= 0 && c != target) continue;
    if (!(model.training_counts[static_cast<std::size_t>(c)] > 0)) continue;
    const double needed = std::max(params.rule_covering.min_new_positives, std::numeric_limits<double>::min());
    options.accept = [&](const FoundRule& f) {
      const RuleStats stats =
          make_rule_stats(f.counts, model.training_counts, c, static_cast<int>(f.conditions.size()));
      const double p = estimator.probability(stats);
      double improved = 0;
      for (auto row : (f.covered & index.class_rows(c)).members())
        if (best[row] < p) improved += index.data().weights[row];
      return improved >= needed &&
             improved >= params.rule_covering.min_new_share * f.counts[static_cast<std::size_t>(c)];
    };
    while (model.rules.size() < max_rules) {
      auto found = find_best_rule(index, all, c, quality, options);
      if (!found) break;
      Rule rule = make_rule(*found, index, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(settings, rule, model.training_counts)) break;
      for (auto row : (found->covered & index.class_rows(c)).members())
        best[row] = std::max(best[row], rule.probability);
      model.rules.push_back(std::move(rule));
    }
  }
}

}  // namespace

RuleModel fit_cn2_ordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                          const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  SearchOptions options = search_options(params, settings, threads);
  SearchMemo memo;  // every search runs on the rows the earlier rules left
  options.memo = &memo;
  const std::size_t max_rules = rule_limit(params);
  const int target = target_class(data, params);
  CoverageIndex index(data, threads, options.numeric_bins);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::decision_list;
  Bitset active(data.rows(), true);
  while (model.rules.size() < max_rules) {
    auto totals = index.class_counts(active);
    if (single_class(totals)) break;  // the default rule already classifies what is left
    auto found = find_best_rule(index, active, target, quality, options);
    if (!found) break;
    Rule rule = make_rule(*found, index, estimator, model.kind, totals);
    if (!passes_prior_test(settings, rule, totals)) break;
    model.rules.push_back(std::move(rule));
    active.subtract(found->covered);
  }
  model.default_counts = index.class_counts(active);
  return model;
}

RuleModel fit_cn2_unordered(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  const SearchOptions options = search_options(params, settings, threads);
  const std::size_t max_rules = rule_limit(params);
  const int target = target_class(data, params);
  CoverageIndex index(data, threads, options.numeric_bins);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::rule_set;
  model.default_counts = model.training_counts;
  if (params.rule_covering.covering == Covering::probabilistic) {
    fit_probabilistic_covering(index, params, settings, quality, estimator, options, target, model);
    return model;
  }
  const Bitset all(data.rows(), true);
  SearchOptions search = options;
  SearchMemo memo;  // each class's searches run on ever fewer rows
  search.memo = &memo;
  for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) {
    if (target >= 0 && c != target) continue;
    Bitset active = all;
    while (model.rules.size() < max_rules) {
      if (!(active & index.class_rows(c)).any()) break;
      auto found = find_best_rule(index, active, c, quality, search);
      if (!found) break;
      Rule rule = make_rule(*found, index, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(settings, rule, model.training_counts)) break;
      // Every covered example of the class in `active` is new: earlier rules' positives left the search.
      const double fresh = found->counts[static_cast<std::size_t>(c)];
      if (fresh < params.rule_covering.min_new_share * rule.training_counts[static_cast<std::size_t>(c)]) break;
      model.rules.push_back(std::move(rule));
      active.subtract(found->covered & index.class_rows(c));
    }
  }
  return model;
}

std::string cn2_unordered_refuses_rows(const LearnerParams& params) {
  const std::string one_process = " needs every row in one process";
  if (params.rule_covering.covering == Covering::probabilistic)
    return params.learner + " with --covering probabilistic" + one_process + " (each row's best probability so far)";
  if (const std::string why = resamples_refuse_rows(params); !why.empty()) return why;
  if (params.rule_search.numeric_bins == 0)
    return params.learner + " with --numeric-bins 0" + one_process + " (exact cuts need every distinct value)";
  return "";
}

RuleModel fit_cn2_unordered(FitRows& rows, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  if (const std::string why = cn2_unordered_refuses_rows(params); !why.empty()) throw std::invalid_argument(why);
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  SearchOptions search = search_options(params, settings, threads);
  search.shortest_thresholds = false;  // moved below, on every row
  const std::size_t max_rules = rule_limit(params);
  const Schema& schema = rows.schema();
  const int target = target_class(schema, params);
  const NumericBinning binning = rows.binning(search.numeric_bins);
  rows.index_with(binning);
  // The search holds the schema and the bins, and no row.
  Dataset layout;
  layout.schema = schema;
  layout.columns.resize(schema.attributes.size());
  const CoverageIndex index(layout, 1, binning);
  RuleModel model = empty_model(schema, rows.source(), rows.rows(), rows.class_counts(), params, settings);
  model.kind = ModelKind::rule_set;
  model.default_counts = model.training_counts;
  for (int c = 0; c < static_cast<int>(schema.class_attribute.values.size()); ++c) {
    if (target >= 0 && c != target) continue;
    std::vector<std::vector<Condition>> removed;  // the class's rules so far: their covered rows of c left
    search.count_rules = [&](const std::vector<std::vector<Condition>>& rules) {
      return rows.rule_histograms(c, removed, rules);
    };
    while (model.rules.size() < max_rules) {
      auto found = find_best_rule(index, Bitset(), c, quality, search);
      if (!found) break;
      shorten_thresholds(rows, {&found->conditions});
      const std::vector<RuleReply> counted =
          rows.rule_queries({RuleQuery{readable_conditions(found->conditions, schema), c, {}}});
      Rule rule = make_rule(*found, schema, counted[0].sums.counts, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(settings, rule, model.training_counts)) break;
      const double fresh = found->counts[static_cast<std::size_t>(c)];
      if (fresh < params.rule_covering.min_new_share * rule.training_counts[static_cast<std::size_t>(c)]) break;
      model.rules.push_back(std::move(rule));
      removed.push_back(found->conditions);
    }
  }
  return model;
}

void cn2_ordered_paper_settings(LearnerParams& p) { p.heuristics.quality = "entropy"; }

void cn2_unordered_paper_settings(LearnerParams& p) { p.heuristics.quality = "laplace"; }

}  // namespace candor
