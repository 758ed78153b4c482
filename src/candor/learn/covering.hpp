#pragma once
// What the covering learners (learners/cn2/, learners/laplace_covering/, learners/decision_list/, learners/best_rule/)
// share.
#include <string>
#include <vector>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/names.hpp"

namespace candor {

// The search settings of `p` and its resolved `settings` (beam width from --search and --beam-width;
// significance tests).
SearchOptions search_options(const LearnerParams& p, const RuleSettings& settings, int threads);

// A model rule from a search result. Its probability is `estimate`'s (the quality measure's, or EVC's with
// --correct evc) on the examples
// where the model uses the rule: those the search ran on (`totals`, a decision list or a best-rule set)
// or, for a rule set, the whole training set (`totals` = training class counts).
// Rule::interval for a rule whose probability p is estimate.probability(stats).
std::pair<double, double> probability_interval(const QualityMeasure& estimate, const RuleStats& stats, double p);
Rule make_rule(const FoundRule& found, const CoverageIndex& index, const QualityMeasure& estimate, ModelKind kind,
               const std::vector<double>& totals);
// The same, with the rule's training counts (those of its readable conditions over every training row) counted
// elsewhere, for rows that are not in one index.
Rule make_rule(const FoundRule& found, const Schema& schema, std::vector<double> training_counts,
               const QualityMeasure& estimate, ModelKind kind, const std::vector<double>& totals);
// The conditions as a model shows them: A != v of a two-valued nominal attribute as A = (its other value).
std::vector<Condition> readable_conditions(std::vector<Condition> conditions, const Schema& schema);

// The prior test (--stop prior): whether rule.probability exceeds the share of the rule's class in `totals`
// (the class counts its probability was estimated against). Always true when the test is off.
bool passes_prior_test(const RuleSettings& settings, const Rule& rule, const std::vector<double>& totals);

// Why a rule learner's resamples (--stable-resamples, --correct bootstrap) keep a fit of `params` from rows held
// elsewhere (learn/fit_rows.hpp): each resample draws from every row. Empty when it has none.
std::string resamples_refuse_rows(const LearnerParams& params);

// params.max_rules as a count (0, no limit, as the largest count).
std::size_t rule_limit(const LearnerParams& params);

// Whether at most one class has examples.
bool single_class(const std::vector<double>& counts);

// The class index of params.target, -1 when none; throws std::invalid_argument for an unknown value.
int target_class(const Dataset& data, const LearnerParams& params);
int target_class(const Schema& schema, const LearnerParams& params);

// A model with no rules yet: parameters (with `settings`, what was used), schema, training counts.
RuleModel empty_model(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                      const CoverageIndex& index);
RuleModel empty_model(const Schema& schema, const std::string& source, std::size_t rows,
                      std::vector<double> class_counts, const LearnerParams& params, const RuleSettings& settings);

}  // namespace candor
