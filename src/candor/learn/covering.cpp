// Pieces every covering learner shares (learn/covering.hpp).
#include "candor/learn/covering.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"
#include "candor/learn/learner.hpp"
#include "candor/stats/binomial_interval.hpp"

namespace candor {

const std::vector<ParamInfo>& rule_search_params() {
  static const std::vector<ParamInfo> table{
      {"search", named_field<kSearchNames, &LearnerParams::rule_search, &RuleSearchOptions::search>(),
       "greedy (beam width 1), beam (--beam-width) or layered (widths 1, 2, 4, ... --max-beam-width, the rule "
       "with the lowest r_w; laplace-covering only); default: layered for laplace-covering, greedy for "
       "decision-list, beam for CN2",
       "rule"},
      {"beam_width", field<&LearnerParams::rule_search, &RuleSearchOptions::beam_width>(),
       "rules kept in the beam at each refinement level", "rule", at_least(1)},
      {"max_beam_width", field<&LearnerParams::rule_search, &RuleSearchOptions::max_beam_width>(),
       "layered search: the widest beam tried", "rule", at_least(1), &reads_when<&LearnerInfo::layered_search>},
      {"max_rule_length", field<&LearnerParams::rule_search, &RuleSearchOptions::max_rule_length>(),
       "most conditions in a rule (0: the learner's default, 5 for CN2, no limit for laplace-covering and "
       "decision-list)",
       "rule", at_least(0)},
      {"min_covered", field<&LearnerParams::rule_search, &RuleSearchOptions::min_covered>(),
       "fewest training examples (rows) a rule must cover", "rule", at_least(1)},
      {"numeric_bins", field<&LearnerParams::rule_search, &RuleSearchOptions::numeric_bins>(),
       "cut a numeric attribute of more distinct values than this only between as many quantile bins of its "
       "training values (of a spread sample of 200,000 rows on larger data), a threshold midway between the largest "
       "value of one bin and the smallest of the next "
       "holding rows of the rule refined "
       "(0: between any two distinct values; at most 65535). A search then counts a rule's rows by bin instead of "
       "keeping them in value order: less memory and time on large data, and on the corpus the same accuracy as "
       "exact cuts",
       "rule", in_range(0, 65535)},
      {"alpha", field<&LearnerParams::rule_search, &RuleSearchOptions::alpha>(),
       "CN2 significance test of a rule against the class prior; a rule is accepted only when significant at "
       "this level (1: no test)",
       "rule", in_range(0, 1, true)},
      {"parent_alpha", field<&LearnerParams::rule_search, &RuleSearchOptions::parent_alpha>(),
       "the same test against the class distribution of the rule's parent (1: no test)", "rule", in_range(0, 1, true)},
      {"not_equal", field<&LearnerParams::rule_search, &RuleSearchOptions::not_equal>(),
       "also generate nominal conditions A != v (gradient-rules, and so rule-logistic's default gradient candidates, "
       "always do)"},
  };
  return table;
}

const std::vector<ParamInfo>& rule_covering_params() {
  static const std::vector<ParamInfo> table{
      {"max_rules", field<&LearnerParams::rule_covering, &RuleCoveringOptions::max_rules>(),
       "stop after this many rules in all (0: no limit)", "rule", at_least(0)},
      {"target", field<&LearnerParams::rule_covering, &RuleCoveringOptions::target>(),
       "learn rules for this class value only (empty: every class)"},
      {"stop",
       named_field<kStoppingNames, &LearnerParams::rule_covering, &RuleCoveringOptions::stop>(),
       "stopping criterion: none (learn until no examples of the class are left or no rule qualifies) or "
       "prior (Orange 2's Stopping_Apriori, ABCN2's q > prior: accept a rule only when its probability, the "
       "quality measure's estimate or the EVC-corrected one, exceeds its class's prior, the training prior "
       "for a rule set and the share among the examples left for a decision list; the first rule that does "
       "not ends learning for its class, for a decision list the list); default: prior for the CN2 learners, "
       "none for laplace-covering and decision-list",
       "rule",
       {},
       &reads_when<&LearnerInfo::stopping>},
      {"min_new_positives", field<&LearnerParams::rule_covering, &RuleCoveringOptions::min_new_positives>(),
       "stopping: a rule must cover at least this many (weighted) examples of its class not yet covered by "
       "an earlier rule (ABCN2's min_improved); the search only returns such rules",
       "rule", at_least(0), &reads_when<&LearnerInfo::stopping>},
      {"min_new_share", field<&LearnerParams::rule_covering, &RuleCoveringOptions::min_new_share>(),
       "stopping: at least this share of the examples of its class a rule covers must be new (not covered "
       "by an earlier rule; ABCN2's min_improved_perc); the first rule below it ends learning for its class",
       "rule", in_range(0, 1), &reads_when<&LearnerInfo::stopping>},
      {"covering",
       named_field<kCoveringNames, &LearnerParams::rule_covering, &RuleCoveringOptions::covering>(),
       "cn2-unordered: remove (covered examples of the class leave the search) or probabilistic (ABCN2: an "
       "example stays until a rule whose probability exceeds its current best covers it; each rule must "
       "improve at least --min-new-positives examples)",
       "rule",
       {},
       &reads_when<&LearnerInfo::probabilistic_covering>},
  };
  return table;
}

SearchOptions search_options(const LearnerParams& p, const RuleSettings& settings, int threads) {
  SearchOptions o;
  o.beam_width = settings.beam_width;
  o.max_rule_length = settings.max_rule_length;
  o.min_covered = static_cast<std::size_t>(p.rule_search.min_covered);
  o.numeric_bins = static_cast<std::size_t>(p.rule_search.numeric_bins);
  o.min_positives = p.rule_covering.min_new_positives;
  o.kinds.not_equal = settings.not_equal;
  o.alpha = p.rule_search.alpha;
  o.parent_alpha = p.rule_search.parent_alpha;
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

// On an attribute of two declared values A != v is A = w on any data (both need a known value): the rule
// reads the clearer spelling. The search offers both, and keeps its ties as they were.
std::vector<Condition> readable_conditions(std::vector<Condition> conditions, const Schema& schema) {
  for (Condition& c : conditions) {
    const Attribute& a = schema.attributes[static_cast<std::size_t>(c.attribute)];
    if (c.op != Op::ne || !a.is_nominal() || a.values.size() != 2) continue;
    c.op = Op::eq;
    c.value = 1 - c.value;
  }
  return conditions;
}

// The estimate users read is of P(class | rule fires) where the model uses the rule: among the examples
// that reach it for a decision list (those left by earlier rules: the search's rows, `totals`), among all
// training examples for a rule set (`totals` = the training set's class counts).
Rule make_rule(const FoundRule& found, const CoverageIndex& index, const QualityMeasure& estimate, ModelKind kind,
               const std::vector<double>& totals) {
  const std::vector<Condition> readable = readable_conditions(found.conditions, index.data().schema);
  return make_rule(found, index.data().schema, index.class_counts(index.covered(readable)), estimate, kind, totals);
}

Rule make_rule(const FoundRule& found, const Schema& schema, std::vector<double> training_counts,
               const QualityMeasure& estimate, ModelKind kind, const std::vector<double>& totals) {
  Rule r;
  r.conditions = readable_conditions(found.conditions, schema);
  r.klass = found.target;
  r.class_counts = found.counts;
  r.quality = found.quality;
  r.training_counts = std::move(training_counts);
  const bool list = kind != ModelKind::rule_set;
  RuleStats stats = make_rule_stats(list ? r.class_counts : r.training_counts, totals, r.klass,
                                    static_cast<int>(r.conditions.size()));
  r.probability = estimate.probability(stats);
  r.interval = probability_interval(estimate, stats, r.probability);
  return r;
}

bool passes_prior_test(const RuleSettings& settings, const Rule& rule, const std::vector<double>& totals) {
  if (settings.stop != Stopping::prior) return true;
  double sum = 0;
  for (double c : totals) sum += c;
  return sum > 0 && rule.probability > totals[static_cast<std::size_t>(rule.klass)] / sum;
}

std::string resamples_refuse_rows(const LearnerParams& params) {
  const std::string one_process = " needs every row in one process (its resamples)";
  if (params.stable.resamples > 0) return params.learner + " with --stable-resamples" + one_process;
  if (resolve_rule_settings(params).correct == Correction::bootstrap)
    return params.learner + " with --correct bootstrap" + one_process;
  return "";
}

std::size_t rule_limit(const LearnerParams& params) {
  return params.rule_covering.max_rules > 0 ? static_cast<std::size_t>(params.rule_covering.max_rules) : SIZE_MAX;
}

bool single_class(const std::vector<double>& counts) {
  int nonzero = 0;
  for (double c : counts) nonzero += c > 0;
  return nonzero <= 1;
}

int target_class(const Dataset& data, const LearnerParams& params) { return target_class(data.schema, params); }

int target_class(const Schema& schema, const LearnerParams& params) {
  if (params.rule_covering.target.empty()) return -1;
  const int target = schema.class_attribute.value_index(params.rule_covering.target);
  if (target < 0)
    throw std::invalid_argument("target class '" + params.rule_covering.target + "' is not a value of the class '" +
                                schema.class_attribute.name + "'");
  return target;
}

RuleModel empty_model(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                      const CoverageIndex& index) {
  return empty_model(data.schema, data.source, data.rows(), index.class_counts(Bitset(data.rows(), true)), params,
                     settings);
}

RuleModel empty_model(const Schema& schema, const std::string& source, std::size_t rows,
                      std::vector<double> class_counts, const LearnerParams& params, const RuleSettings& settings) {
  RuleModel model;
  model.learner = params_to_json(with_rule_settings(params, settings));  // the model records what was used
  model.schema = schema;
  model.training_rows = rows;
  model.training_source = source;
  model.training_counts = std::move(class_counts);
  return model;
}

}  // namespace candor
