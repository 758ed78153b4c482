// Top-down hill-climbing separate-and-conquer with separate refinement and selection heuristics (paper
// 003, after Janssen and Fürnkranz's SeCo framework). Each rule starts as the universal rule of the
// majority class of the examples left and predicts the majority class of what it covers (p and n, P and N
// count that class against the others); the refinement heuristic picks the condition to add (greedy, or a
// beam with --search beam), and the selection heuristic picks, among the rules on that refinement path,
// the one added to the list; its covered examples are removed. Learning stops when the examples left are
// of one class (or none are left, or no rule covers any): the universal rule of what is left is the default.
// There is no other stopping or pruning, as in the paper.
#include "candor/learners/decision_list/decision_list.hpp"

#include "candor/learn/covering.hpp"
#include "candor/learn/qualities.hpp"

namespace candor {

RuleModel fit_decision_list(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                            const QualityMeasure& select, int threads, const QualityMeasure* estimate) {
  const auto refine = make_quality(settings.refine_quality, QualityParams{params.heuristics.m, nullptr});
  SearchOptions options = search_options(params, settings, threads);
  options.select_quality = &select;
  options.best_from_beam = true;
  SearchMemo memo;  // every search runs on the rows the earlier rules left
  options.memo = &memo;
  const std::size_t max_rules = rule_limit(params);
  CoverageIndex index(data, threads, options.numeric_bins);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::decision_list;
  Bitset active(data.rows(), true);
  while (model.rules.size() < max_rules) {
    const auto totals = index.class_counts(active);
    if (single_class(totals)) break;
    // target -1: each rule predicts the majority class of what it covers, so the search starts from the
    // universal rule of the majority class and a refinement may turn to another class.
    auto found = find_best_rule(index, active, -1, *refine, options);
    if (!found) break;
    Rule rule = make_rule(*found, index, estimate ? *estimate : select, model.kind, totals);
    rule.quality = found->selection;  // what chose the rule
    if (!passes_prior_test(settings, rule, totals)) break;
    model.rules.push_back(std::move(rule));
    active.subtract(found->covered);
  }
  model.default_counts = index.class_counts(active);
  return model;
}

}  // namespace candor
