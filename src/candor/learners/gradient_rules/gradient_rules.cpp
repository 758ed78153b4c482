#include "candor/learners/gradient_rules/gradient_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "candor/coverage/bitset.hpp"
#include "candor/coverage/coverage_index.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/progress.hpp"
#include "candor/util/random.hpp"

namespace candor {

namespace {

// The Newton step's regulariser: a rule covering few rows of little curvature moves the scores at most
// R / 1, as in the gradient-boosted rules of ENDER.
constexpr double kStepRegulariser = 1.0;

// Softmax of one row's scores into `p`.
void row_probabilities(const double* scores, std::size_t classes, double* p) {
  const double top = *std::max_element(scores, scores + classes);
  double sum = 0;
  for (std::size_t c = 0; c < classes; ++c) sum += p[c] = std::exp(scores[c] - top);
  for (std::size_t c = 0; c < classes; ++c) p[c] /= sum;
}

struct Candidate {
  FoundRule found;
  double step = 0;  // R / (H + 1)
};

}  // namespace

RuleModel fit_gradient_rules(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                             const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  const GradientRuleOptions& o = params.options<GradientRuleOptions>();
  SearchOptions options = search_options(params, settings, threads);
  // A row's weight is its residual, a fraction of its example weight: a least weight of covered positives
  // given in examples would mean something else on every round.
  options.min_positives = 0;
  const std::size_t n = data.rows(), classes = data.num_classes();
  const int target = target_class(data, params);
  const std::size_t max_rules = rule_limit(params);
  // The index of every row, cut as the rounds' samples are: each round searches an index of its own sample
  // alone (building it costs its rows; filtering the whole index down to them cost the whole index per class),
  // with the same bins.
  const NumericBinning binning =
      options.numeric_bins > 0 ? numeric_binning(data, options.numeric_bins) : NumericBinning{};
  CoverageIndex index(data, threads, binning);
  RuleModel model = empty_model(data, params, settings, index);
  model.kind = ModelKind::rule_set;
  model.default_counts = model.training_counts;

  // Scores start at the log of the training class shares (smoothed by one example each): the intercepts.
  double total = 0;
  for (double t : model.training_counts) total += t + 1;
  std::vector<double> start(classes);
  for (std::size_t c = 0; c < classes; ++c) start[c] = std::log((model.training_counts[c] + 1) / total);
  std::vector<double> scores(n * classes), p(n * classes);
  for (std::size_t r = 0; r < n; ++r) std::copy(start.begin(), start.end(), scores.begin() + r * classes);

  const bool sampling = o.sample > 0 && n > static_cast<std::size_t>(o.sample);
  // A sampled search's thresholds are shortened on every row its rule's other conditions cover, not on the
  // sample's alone.
  SearchOptions sample_options = options;
  sample_options.shortest_thresholds = false;
  Rng rng(static_cast<std::uint64_t>(params.seed));
  std::vector<Bitset> kept_rows;  // the training rows each kept rule covers, in model.rules' order
  Progress progress("fit: gradient rules", "rounds", static_cast<std::size_t>(o.rounds), true);
  for (int round = 0; round < o.rounds && model.rules.size() < max_rules; ++round, progress.step()) {
    for (std::size_t r = 0; r < n; ++r) row_probabilities(&scores[r * classes], classes, &p[r * classes]);
    const std::vector<std::size_t> rows =
        sampling ? sample_rows(n, static_cast<std::size_t>(o.sample), rng) : std::vector<std::size_t>{};
    const Dataset sample = sampling ? data.subset(rows) : Dataset{};
    const std::optional<CoverageIndex> sample_index =
        sampling ? std::optional<CoverageIndex>(std::in_place, sample, threads, binning) : std::nullopt;
    const CoverageIndex& searched = sampling ? *sample_index : index;
    const std::size_t m = searched.rows();
    const Bitset all(m, true);
    std::vector<double> residual(m);     // each searched row's weight in the search for one class's rule
    std::vector<Candidate> found_rules;  // the best rule of each class, where one raises its class's score
    for (std::size_t c = 0; c < classes; ++c) {
      if (target >= 0 && static_cast<int>(c) != target) continue;
      if (!(model.training_counts[c] > 0)) continue;
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t r = sampling ? rows[i] : i;
        const double pc = p[r * classes + c];
        residual[i] = data.y[r] == kMissing ? 0.0 : data.weights[r] * (data.y[r] == static_cast<int>(c) ? 1 - pc : pc);
      }
      const CoverageIndex residuals(searched, searched.data().y, residual);
      auto found = find_best_rule(residuals, all, static_cast<int>(c), quality, sampling ? sample_options : options);
      if (!found) continue;
      if (sampling) {
        if (options.shortest_thresholds) shorten_thresholds(found->conditions, index);
        found->covered = index.covered(found->conditions);  // every row it covers
      }
      double R = 0, H = 0;
      found->covered.for_each([&](std::size_t r) {
        if (data.y[r] == kMissing) return;
        const double pc = p[r * classes + c];
        R += data.weights[r] * ((data.y[r] == static_cast<int>(c) ? 1.0 : 0.0) - pc);
        H += data.weights[r] * pc * (1 - pc);
      });
      if (!(R > 0)) continue;  // a rule of class c only raises its class's score
      found_rules.push_back(Candidate{std::move(*found), R / (H + kStepRegulariser)});
    }
    if (found_rules.empty()) break;
    for (Candidate& candidate : found_rules) {
      const std::size_t c = static_cast<std::size_t>(candidate.found.target);
      candidate.found.covered.for_each([&](std::size_t r) { scores[r * classes + c] += o.shrinkage * candidate.step; });
      // A rule of the same class covering the same rows as a kept one (found again, or the same rows by other
      // conditions) adds nothing the model could weigh apart from it: the logistic model would split one
      // weight between the two.
      bool known = false;
      for (std::size_t k = 0; k < model.rules.size() && !known; ++k)
        known = model.rules[k].klass == candidate.found.target && kept_rows[k] == candidate.found.covered;
      if (known || model.rules.size() >= max_rules) continue;
      // The rule as a rule set holds it: its class counts and probability on the training rows, unweighted.
      // With --stop prior a rule whose probability does not beat its class's prior is not kept (it moved the
      // scores all the same): it claims nothing a reader could use.
      candidate.found.counts = index.class_counts(candidate.found.covered);
      Rule rule = make_rule(candidate.found, index, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(settings, rule, model.training_counts)) continue;
      model.rules.push_back(std::move(rule));
      kept_rows.push_back(std::move(candidate.found.covered));
    }
  }
  return model;
}

}  // namespace candor
