// The covering learner of paper 002, section 4 (Quinlan and Cameron-Jones 1995): for each class in turn,
// find the rule with the lowest Laplace error L(n, e) = (e + k - 1) / (n + k) among the class's uncovered
// items and all items of other classes (greedy, beam or layered search, with the paper's safe pruning),
// mark the class items it covers as covered, and repeat while uncovered items of the class remain. An item
// is classified by the matching rule of lowest L, the training majority when none matches.
#include "candor/learners/laplace_covering/laplace_covering.hpp"

#include "candor/learn/covering.hpp"
#include "candor/search/layered_search.hpp"

namespace candor {

RuleModel fit_laplace_covering(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                               const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  SearchOptions options = search_options(params, settings, threads);
  options.prune = true;
  SearchMemo memo;  // each class's searches (and a layered search's widths) run on ever fewer rows
  options.memo = &memo;
  const std::size_t max_rules = rule_limit(params);
  const int target = target_class(data, params);
  const bool layered = settings.search == SearchKind::layered;
  CoverageIndex index(data, threads, options.numeric_bins);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::best_rule;
  const Bitset all(data.rows(), true);
  for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) {
    if (target >= 0 && c != target) continue;
    Bitset active = all;
    while (model.rules.size() < max_rules && (active & index.class_rows(c)).any()) {
      std::optional<FoundRule> found =
          layered ? layered_search(index, active, c, quality, options, params.rule_search.max_beam_width).best
                  : find_best_rule(index, active, c, quality, options);
      if (!found) break;
      model.rules.push_back(
          make_rule(*found, index, estimate ? *estimate : quality, model.kind, index.class_counts(active)));
      active.subtract(found->covered & index.class_rows(c));
    }
  }
  model.default_counts = model.training_counts;
  return model;
}

}  // namespace candor
