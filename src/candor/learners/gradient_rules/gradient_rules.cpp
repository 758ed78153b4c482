#include "candor/learners/gradient_rules/gradient_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "candor/coverage/bitset.hpp"
#include "candor/coverage/coverage_index.hpp"
#include "candor/evc/laws.hpp"
#include "candor/evc/measures.hpp"
#include "candor/evc/rule_correction.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/progress.hpp"
#include "candor/util/random.hpp"

namespace candor {

namespace {

// The Newton step's regulariser: a rule covering few rows of little curvature moves the scores at most
// R / 1, as in the gradient-boosted rules of ENDER.
constexpr double kStepRegulariser = 1.0;

struct Candidate {
  FoundRule found;
  RuleSums sums;       // over every row it covers
  double step = 0;     // R / (H + 1)
  bool known = false;  // it covers the rows of a kept rule of its class
};

std::vector<std::size_t> every_row(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t r = 0; r < n; ++r) out[r] = r;
  return out;
}

// The EVC calibration the rules' probabilities are corrected with (--correct evc, or --quality evc or m-evc).
const EvcCalibration* evc_calibration(const QualityMeasure& quality, const QualityMeasure* estimate) {
  for (const QualityMeasure* m : {estimate, &quality}) {
    if (const auto* evc = dynamic_cast<const measures::Evc*>(m)) return evc->calibration.get();
    if (const auto* evc = dynamic_cast<const measures::MEvc*>(m)) return evc->calibration.get();
  }
  return nullptr;
}

// --gradient-prune. A search on residual weights keeps adding conditions while each cuts away a few rows whose
// residuals happen to sum below zero: on a concept of two age bands, a round after the bands were found returned
// "age <= 39.5 AND commission <= 73722 AND hvalue <= 1285300 AND loan <= 492180". Each prefix of a rule is
// therefore scored over every row by its score statistic against the rules so far, S = R^2 / H (the covered
// rows' summed residual squared over their summed curvature: chi2(1) for one rule fixed in advance, since R has
// mean 0 and variance H where the scores are right), and set against the EVC law of the best LRS of its length
// on permuted data, as EVC corrects a rule's LRS. The rule is cut to the prefix least likely to be a search's
// chance find (the smallest upper tail; the shortest among equals), so that each condition pays for the search
// that chose it, and its quality becomes that prefix's corrected statistic. With `drop`, a rule whose every
// prefix corrects to 0 (a search of noise finds as much) is dropped. Each prefix's sums are asked of the rows
// together, at the thresholds searched (before any is moved into its gap).
void prune_by_evc(FitRows& rows, std::vector<FoundRule>& found, const EvcCalibration& evc, bool drop) {
  std::vector<RuleQuery> prefixes;
  for (const FoundRule& f : found)
    for (std::size_t length = 1; length <= f.conditions.size(); ++length)
      prefixes.push_back(
          RuleQuery{{f.conditions.begin(), f.conditions.begin() + static_cast<std::ptrdiff_t>(length)}, f.target, {}});
  const std::vector<RuleReply> replies = rows.rule_queries(prefixes);
  std::vector<FoundRule> kept;
  std::size_t at = 0;
  for (FoundRule& f : found) {
    double least_tail = 1;  // log P(law > S) of the best prefix; 1: none has a positive R
    std::size_t best_length = 0;
    double corrected = 0;
    for (std::size_t length = 1; length <= f.conditions.size(); ++length, ++at) {
      const RuleSums& sums = replies[at].sums;
      if (!(sums.gradient > 0 && sums.curvature > 0)) continue;
      const GumbelLaw& law = evc.law(f.target, static_cast<int>(length));
      const double statistic = sums.gradient * sums.gradient / sums.curvature;
      const double tail = law.log_upper_tail(statistic);
      if (tail < least_tail) {
        least_tail = tail;
        best_length = length;
        corrected = evc_corrected_statistic(statistic, law);
      }
    }
    if (best_length == 0 || (drop && !(corrected > 0))) {
      if (!drop) kept.push_back(std::move(f));  // no prefix raises its class over every row: the step skips it
      continue;
    }
    f.conditions.resize(best_length);
    f.quality = f.selection = corrected;
    kept.push_back(std::move(f));
  }
  found = std::move(kept);
}

}  // namespace

std::string gradient_rules_refuses_rows(const LearnerParams& params) { return resamples_refuse_rows(params); }

RuleModel fit_gradient_rules(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                             const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  LocalRows rows(data, threads);
  return fit_gradient_rules(rows, params, settings, quality, threads, estimate);
}

RuleModel fit_gradient_rules(FitRows& rows, const LearnerParams& params, const RuleSettings& settings,
                             const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  const QualityMeasure& estimator = estimate ? *estimate : quality;
  const GradientRuleOptions& o = params.options<GradientRuleOptions>();
  SearchOptions options = search_options(params, settings, threads);
  // A row's weight is its residual, a fraction of its example weight: a least weight of covered positives
  // given in examples would mean something else on every round.
  options.min_positives = 0;
  const Schema& schema = rows.schema();
  const std::size_t n = rows.rows(), classes = schema.class_attribute.values.size();
  const int target = target_class(schema, params);
  const std::size_t max_rules = rule_limit(params);
  const EvcCalibration* evc = o.prune != GradientPrune::none ? evc_calibration(quality, estimate) : nullptr;
  if (o.prune != GradientPrune::none && !evc)
    throw std::invalid_argument("--gradient-prune " + std::string(name_of(kGradientPruneNames, o.prune)) +
                                " cuts rules by EVC's laws: it needs --correct evc (the default), or --quality "
                                "evc or m-evc");
  // Each round searches an index of its own rows (a sample, or every row of small data), cut by the bins of
  // every row; what a rule covers of every row, its sums and its thresholds' gaps come from the rows' own
  // index (FitRows), which is all a fit across workers could ask of them.
  const NumericBinning binning = options.numeric_bins > 0 ? rows.binning(options.numeric_bins) : NumericBinning{};
  rows.index_with(binning);
  RuleModel model = empty_model(schema, rows.source(), n, rows.class_counts(), params, settings);
  model.kind = ModelKind::rule_set;
  model.default_counts = model.training_counts;

  // Scores start at the log of the training class shares (smoothed by one example each): the intercepts.
  double total = 0;
  for (double t : model.training_counts) total += t + 1;
  std::vector<double> start(classes);
  for (std::size_t c = 0; c < classes; ++c) start[c] = std::log((model.training_counts[c] + 1) / total);
  rows.start_scores(start);

  const bool sampling = o.sample > 0 && n > static_cast<std::size_t>(o.sample);
  // The thresholds are shortened on every row the rule's other conditions cover, not on the searched rows alone.
  SearchOptions searched_options = options;
  searched_options.shortest_thresholds = false;
  Rng rng(static_cast<std::uint64_t>(params.seed));
  std::vector<std::vector<Condition>> kept_conditions;  // as found, of each kept rule, in model.rules' order
  Progress progress("fit: gradient rules", "rounds", static_cast<std::size_t>(o.rounds), true);
  // Without sampling every round searches every row: they are brought once.
  const std::vector<std::size_t> all_rows = sampling ? std::vector<std::size_t>{} : every_row(n);
  std::optional<Dataset> every;
  std::optional<CoverageIndex> every_index;
  if (!sampling) {
    every.emplace(rows.gather(all_rows));
    every_index.emplace(*every, threads, binning);
  }
  for (int round = 0; round < o.rounds && model.rules.size() < max_rules; ++round, progress.step()) {
    std::vector<double> p;  // the searched rows' class probabilities under the rules so far
    std::optional<Dataset> sample;
    std::optional<CoverageIndex> sample_index;
    if (sampling) {
      const std::vector<std::size_t> drawn = sample_rows(n, static_cast<std::size_t>(o.sample), rng);
      sample.emplace(rows.gather(drawn, &p));
      rows.index_gathered(sample_index, *sample, drawn, binning, threads);
    } else {
      p = rows.probabilities(all_rows);
    }
    const CoverageIndex& searched = sampling ? *sample_index : *every_index;
    const Dataset& searched_rows = searched.data();
    const std::size_t m = searched.rows();
    const Bitset all(m, true);
    std::vector<double> residual(m);  // each searched row's weight in the search for one class's rule
    std::vector<FoundRule> found;     // the best rule of each class
    for (std::size_t c = 0; c < classes; ++c) {
      if (target >= 0 && static_cast<int>(c) != target) continue;
      if (!(model.training_counts[c] > 0)) continue;
      for (std::size_t i = 0; i < m; ++i) {
        const double pc = p[i * classes + c];
        const int y = searched_rows.y[i];
        residual[i] = y == kMissing ? 0.0 : searched_rows.weights[i] * (y == static_cast<int>(c) ? 1 - pc : pc);
      }
      const CoverageIndex residuals(searched, searched_rows.y, residual);
      auto rule = find_best_rule(residuals, all, static_cast<int>(c), quality, searched_options);
      if (!rule) continue;
      rule->covered = Bitset();  // of the searched rows: every row's are the rows' own
      found.push_back(std::move(*rule));
    }
    if (evc) {
      const bool stop = o.prune == GradientPrune::stop;
      prune_by_evc(rows, found, *evc, stop);
      if (stop && found.empty()) break;  // what every class's search found now, a search of noise finds as well
    }
    // What the rows are asked of the round's rules, each question for every class's rule at once: the gaps of
    // their thresholds, condition by condition in their order (each gap with the earlier conditions moved), then
    // their sums and whether they cover the rows of a kept rule of their class.
    if (options.shortest_thresholds) {
      std::vector<std::vector<Condition>*> moved;
      for (FoundRule& f : found) moved.push_back(&f.conditions);
      shorten_thresholds(rows, moved);
    }
    std::vector<RuleQuery> queries;
    for (const FoundRule& f : found) queries.push_back(RuleQuery{f.conditions, f.target, {}});
    std::vector<RuleReply> replies = rows.rule_queries(queries);
    // A rule of the same class covering the same rows as a kept one (found again, or the same rows by other
    // conditions) adds nothing the model could weigh apart from it: the logistic model would split one weight
    // between the two. Rows alike have counts alike (exact sums), so only kept rules of the rule's very counts
    // are compared row by row, in a second query that most rounds need not send: comparing every kept rule
    // had cost a tenth of a 100,000-row fit.
    std::vector<RuleQuery> same;
    std::vector<std::size_t> asked;
    for (std::size_t k = 0; k < found.size(); ++k) {
      RuleQuery q{found[k].conditions, found[k].target, {}};
      for (std::size_t j = 0; j < model.rules.size(); ++j)
        if (model.rules[j].klass == q.klass && model.rules[j].training_counts == replies[k].sums.counts)
          q.others.push_back(kept_conditions[j]);
      if (q.others.empty()) continue;
      same.push_back(std::move(q));
      asked.push_back(k);
    }
    if (!same.empty()) {
      const std::vector<RuleReply> compared = rows.rule_queries(same);
      for (std::size_t q = 0; q < asked.size(); ++q) replies[asked[q]].same = compared[q].same;
    }
    std::vector<Candidate> found_rules;  // the rules that raise their class's score
    for (std::size_t k = 0; k < found.size(); ++k) {
      const RuleSums& sums = replies[k].sums;
      if (!(sums.gradient > 0)) continue;  // a rule of class c only raises its class's score
      const double step = sums.gradient / (sums.curvature + kStepRegulariser);
      const bool known = std::find(replies[k].same.begin(), replies[k].same.end(), 1) != replies[k].same.end();
      found_rules.push_back(Candidate{std::move(found[k]), sums, step, known});
    }
    if (found_rules.empty()) break;
    std::vector<ScoreStep> steps;
    for (const Candidate& candidate : found_rules)
      steps.push_back(ScoreStep{candidate.found.conditions, candidate.found.target, o.shrinkage * candidate.step});
    rows.add_scores(steps);
    for (Candidate& candidate : found_rules) {
      if (candidate.known || model.rules.size() >= max_rules) continue;
      // The rule as a rule set holds it: its class counts and probability on the training rows, unweighted.
      // With --stop prior a rule whose probability does not beat its class's prior is not kept (it moved the
      // scores all the same): it claims nothing a reader could use.
      candidate.found.counts = candidate.sums.counts;
      Rule rule =
          make_rule(candidate.found, schema, candidate.sums.counts, estimator, model.kind, model.training_counts);
      if (!passes_prior_test(settings, rule, model.training_counts)) continue;
      model.rules.push_back(std::move(rule));
      kept_conditions.push_back(candidate.found.conditions);
    }
  }
  rows.end_search();
  return model;
}

}  // namespace candor
