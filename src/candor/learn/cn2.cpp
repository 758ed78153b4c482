#include "candor/learn/cn2.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "candor/coverage/coverage_index.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/covering.hpp"
#include "candor/search/beam_search.hpp"

namespace candor {

namespace {

// ABCN2's probabilistic covering (Možina et al.; Orange 2's CovererAndRemover_Prob): examples are never
// removed. Each example of the class remembers the best probability of a rule covering it so far, and the
// search returns only rules that improve (cover with a higher probability) at least --min-new-positives
// of them (at least one), and at least --min-new-share of the class examples they cover.
void fit_probabilistic_covering(const CoverageIndex& index, const LearnerParams& params, const QualityMeasure& quality,
                                const QualityMeasure& estimator, SearchOptions options, int target, RuleModel& model) {
  const std::size_t max_rules = rule_limit(params);
  const Bitset all(index.rows(), true);
  std::vector<double> best(index.rows(), 0.0);
  for (int c = 0; c < static_cast<int>(model.training_counts.size()); ++c) {
    if (target >= 0 && c != target) continue;
    if (!(model.training_counts[static_cast<std::size_t>(c)] > 0)) continue;
    const double needed = std::max(params.min_new_positives, std::numeric_limits<double>::min());
    options.accept = [&](const FoundRule& f) {
      const RuleStats stats = make_rule_stats(f.counts, model.training_counts, c, static_cast<int>(f.conditions.size()));
      const double p = estimator.probability(stats);
      double improved = 0;
      for (auto row : (f.covered & index.class_rows(c)).members())
        if (best[row] < p) improved += index.data().weights[row];
      return improved >= needed && improved >= params.min_new_share * f.counts[static_cast<std::size_t>(c)];
    };
    while (model.rules.size() < max_rules) {
      auto found = find_best_rule(index, all, c, quality, options);
      if (!found) break;
      Rule rule = make_rule(*found, index, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(params, rule, model.training_counts)) break;
      for (auto row : (found->covered & index.class_rows(c)).members()) best[row] = std::max(best[row], rule.probability);
      model.rules.push_back(std::move(rule));
    }
  }
}

}  // namespace

RuleModel fit(const Dataset& data, const LearnerParams& params, int threads) {
  validate(params);
  QualityParams quality_params{params.m, nullptr};
  if (params.uses_evc()) {
    EvcSettings settings{params.evc_permutations, parse_gumbel_fit(params.evc_fit),
                         static_cast<std::uint64_t>(params.seed)};
    std::vector<int> classes;
    const int target = target_class(data, params);
    if (target >= 0) classes.push_back(target);
    quality_params.evc = std::make_shared<EvcCalibration>(
        calibrate_evc_cached(data, search_options(params, threads), settings, classes, threads));
  }
  auto quality = make_quality(params.resolved_quality(), quality_params);
  // --correct evc: the learner ranks by its own measure; EVC estimates the probabilities.
  std::unique_ptr<QualityMeasure> corrector;
  if (params.correct == "evc") corrector = make_quality("evc", quality_params);
  RuleModel model = fit_with_quality(data, params, *quality, threads, corrector.get());
  if (quality_params.evc) model.evc = *quality_params.evc;
  return model;
}

RuleModel fit_with_quality(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality,
                           int threads, const QualityMeasure* estimate) {
  validate(params);
  if (params.learner == "laplace-covering") return fit_laplace_covering(data, params, quality, threads);
  if (params.learner == "decision-list") return fit_decision_list(data, params, quality, threads, estimate);
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  const SearchOptions options = search_options(params, threads);
  const std::size_t max_rules = rule_limit(params);
  const int target = target_class(data, params);
  CoverageIndex index(data);
  RuleModel model = empty_model(data, params, index);
  Bitset all(data.rows(), true);

  if (params.learner == "cn2-ordered") {
    model.kind = ModelKind::decision_list;
    Bitset active = all;
    while (model.rules.size() < max_rules) {
      auto totals = index.class_counts(active);
      if (single_class(totals)) break;  // the default rule already classifies what is left
      auto found = find_best_rule(index, active, target, quality, options);
      if (!found) break;
      Rule rule = make_rule(*found, index, estimator, model.kind, totals);
      if (!passes_prior_test(params, rule, totals)) break;
      model.rules.push_back(std::move(rule));
      active.subtract(found->covered);
    }
    model.default_counts = index.class_counts(active);
  } else if (params.covering == "probabilistic") {
    model.kind = ModelKind::rule_set;
    fit_probabilistic_covering(index, params, quality, estimator, options, target, model);
    model.default_counts = model.training_counts;
  } else {
    model.kind = ModelKind::rule_set;
    for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) {
      if (target >= 0 && c != target) continue;
      Bitset active = all;
      while (model.rules.size() < max_rules) {
        if (!(active & index.class_rows(c)).any()) break;
        auto found = find_best_rule(index, active, c, quality, options);
        if (!found) break;
        Rule rule = make_rule(*found, index, estimator, model.kind, model.training_counts);
        if (!passes_prior_test(params, rule, model.training_counts)) break;
        // Every covered example of the class in `active` is new: earlier rules' positives left the search.
        const double fresh = found->counts[static_cast<std::size_t>(c)];
        if (fresh < params.min_new_share * rule.training_counts[static_cast<std::size_t>(c)]) break;
        model.rules.push_back(std::move(rule));
        active.subtract(found->covered & index.class_rows(c));
      }
    }
    model.default_counts = model.training_counts;
  }
  return model;
}

}  // namespace candor
