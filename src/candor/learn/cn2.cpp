#include "candor/learn/cn2.hpp"

#include <algorithm>
#include <stdexcept>

#include "candor/coverage/coverage_index.hpp"
#include "candor/evc/calibration.hpp"
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

// The estimate users read is of P(class | rule fires) where the model uses the rule: among the examples
// that reach it for a decision list (those left by earlier rules: the search's rows, `totals`), among all
// training examples for a rule set (`totals` = the training set's class counts).
Rule make_rule(const FoundRule& found, const CoverageIndex& index, const QualityMeasure& quality, ModelKind kind,
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
  const bool list = kind == ModelKind::decision_list;
  RuleStats stats = make_rule_stats(list ? r.class_counts : r.training_counts, totals, r.klass,
                                    static_cast<int>(r.conditions.size()));
  r.probability = quality.probability(stats);
  return r;
}

bool single_class(const std::vector<double>& counts) {
  int nonzero = 0;
  for (double c : counts) nonzero += c > 0;
  return nonzero <= 1;
}

int target_class(const Dataset& data, const LearnerParams& params) {
  if (params.target.empty()) return -1;
  const int target = data.schema.class_attribute.value_index(params.target);
  if (target < 0) throw std::invalid_argument("target class '" + params.target + "' is not a value of the class '" +
                                              data.schema.class_attribute.name + "'");
  return target;
}

}  // namespace

RuleModel fit(const Dataset& data, const LearnerParams& params, int threads) {
  validate(params);
  QualityParams quality_params{params.m, nullptr};
  if (params.resolved_quality() == "evc") {
    EvcSettings settings{params.evc_permutations, parse_gumbel_fit(params.evc_fit),
                         static_cast<std::uint64_t>(params.seed)};
    std::vector<int> classes;
    const int target = target_class(data, params);
    if (target >= 0) classes.push_back(target);
    quality_params.evc = std::make_shared<EvcCalibration>(
        calibrate_evc(data, search_options(params, threads), settings, classes, threads));
  }
  auto quality = make_quality(params.resolved_quality(), quality_params);
  RuleModel model = fit_with_quality(data, params, *quality, threads);
  if (quality_params.evc) model.evc = *quality_params.evc;
  return model;
}

RuleModel fit_with_quality(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality,
                           int threads) {
  validate(params);
  const SearchOptions options = search_options(params, threads);
  const std::size_t max_rules = params.max_rules > 0 ? static_cast<std::size_t>(params.max_rules) : SIZE_MAX;
  const int target = target_class(data, params);
  CoverageIndex index(data);
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
      auto found = find_best_rule(index, active, target, quality, options);
      if (!found) break;
      model.rules.push_back(make_rule(*found, index, quality, model.kind, totals));
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
        auto found = find_best_rule(index, active, c, quality, options);
        if (!found) break;
        model.rules.push_back(make_rule(*found, index, quality, model.kind, model.training_counts));
        active.subtract(found->covered & index.class_rows(c));
      }
    }
    model.default_counts = model.training_counts;
  }
  return model;
}

}  // namespace candor
