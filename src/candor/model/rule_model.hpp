#pragma once
// Rule models: a decision list (first firing rule decides) or an unordered rule set (the class
// distributions of all firing rules are summed, Clark and Boswell 1991), each ending in a default rule.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"
#include "candor/evc/laws.hpp"
#include "candor/model/model.hpp"
#include "candor/util/names.hpp"

namespace candor {

struct Combination;  // model/combine.hpp

struct Rule {
  std::vector<Condition> conditions;
  int klass = 0;
  // Class counts of the covered examples among those the rule was learned from (for a decision list the
  // examples left by earlier rules; for a rule set the target's uncovered examples plus all others).
  std::vector<double> class_counts;
  // Class counts of the covered examples in the whole training set; a rule set votes with these.
  std::vector<double> training_counts;
  double quality = 0;
  // The learner's estimate of P(klass | rule fires): the quality measure's own estimate for probability
  // measures (precision, Laplace, m-estimate, and evc's extreme value corrected relative frequency), the
  // relative frequency otherwise: on class_counts for a decision list (the examples that reach the rule),
  // on training_counts for a rule set (every training example).
  double probability = 0;
  // The 95% interval of `probability`, from the Clopper-Pearson interval [f_lo, f_hi] of the relative
  // frequency it was computed from: the lower end is the same estimate at f_lo (the count of the rule's class
  // moved there, the covered weight kept), so EVC corrects it for the search; the upper end is f_hi, since a
  // search only flatters a frequency. Every estimate candor reports rises with the count, so the interval
  // holds the probability (learn/covering.hpp: probability_interval).
  std::pair<double, double> interval{0.0, 1.0};
  // Stable rules (--stable-resamples): the share of the resamples whose rule sets held this rule, SIRUS's
  // p_n (learn/stable_rules.hpp); 0 in a model without stable rules.
  double stable_frequency = 0;
  // rule-logistic's --candidates covering+additive: found by the second learner (gradient rules of one
  // condition), not by covering; its quality and probability are corrected by RuleModel::additive_evc, the laws
  // of that learner's own search.
  bool additive = false;

  double covered() const;
  // "found in 85% of resamples" for a stable rule, empty otherwise: `candor rules`' words for
  // stable_frequency.
  std::string stable_frequency_text() const;
  bool covers(const Dataset& d, std::size_t row) const {
    for (const auto& c : conditions)
      if (!c.covers(d, row)) return false;
    return true;
  }
};

// --correct bootstrap (learn/bootstrap_correction.hpp): the shrinkage towards the class prior, fitted on how
// the rules of bootstrap resamples fared on the rows each resample left out. A rule of class c with s of its
// n examples of c and L conditions gets (s + m_L prior_c) / (n + m_L).
struct BootstrapShrinkage {
  int resamples = 0;
  // m_by_length[L-1]: the m of rules with L conditions, fitted on rules_by_length[L-1] resample rules; a
  // length without enough rules (or beyond the list) uses pooled_m, fitted on every resample rule.
  std::vector<double> m_by_length;
  std::vector<std::size_t> rules_by_length;
  double pooled_m = 0;
  std::size_t pooled_rules = 0;
  double m_for_length(std::size_t length) const;
};
nlohmann::json bootstrap_shrinkage_json(const BootstrapShrinkage& b);
// Throws std::invalid_argument naming the field for a malformed record.
BootstrapShrinkage bootstrap_shrinkage_from_json(const nlohmann::json& j);

// decision_list: the first firing rule decides. rule_set: the firing rules vote with their training counts.
// best_rule: the firing rule of highest quality decides (ties: the earlier rule), as a decision list's rule.
enum class ModelKind { decision_list, rule_set, best_rule };

// What a rule's probability is: its quality measure's estimate (or relative frequency), corrected for the
// search by EVC (the model holds its calibration), or by bootstrap shrinkage (--correct bootstrap).
enum class RuleEstimate { measure, evc, bootstrap };

// What a rule model predicts with, and what its text says its figures are: a rule set's combination
// (model/combine.hpp), the m of the m-estimate family the m-counts combination reads, the prior's
// pseudo-examples mixed into every prediction, the measure that ranked the rules ("" where none did) and how
// the rules' probabilities were corrected for the search. The model file's "settings" entry, under the names
// of the options that set them (--combine, --m, --prior-weight, --quality, --correct).
struct RuleModelSettings {
  std::string combine = "counts";
  double m = 22.466;
  double prior_weight = 1;
  std::string quality;
  RuleEstimate estimate = RuleEstimate::measure;
  bool operator==(const RuleModelSettings&) const = default;
};
// --correct's names for RuleEstimate: none (the measure's own estimate), evc, bootstrap.
inline constexpr Named<RuleEstimate> kRuleEstimateNames[] = {
    {"none", RuleEstimate::measure}, {"evc", RuleEstimate::evc}, {"bootstrap", RuleEstimate::bootstrap}};
// The settings as the model file's "settings" entry (a rule set's combination only for a rule set), and back;
// reading throws JsonEntryError naming the entry.
nlohmann::json rule_model_settings_json(const RuleModelSettings& s, ModelKind kind);
RuleModelSettings rule_model_settings_from_json(const nlohmann::json& j, ModelKind kind);

struct RuleModel : Model {
  ModelKind kind = ModelKind::rule_set;
  std::vector<Rule> rules;
  std::vector<double> default_counts;  // examples the default rule was learned from
  // The Gumbel laws rule probabilities were corrected with (quality evc only).
  std::optional<EvcCalibration> evc;
  // The Gumbel laws the additive rules (Rule::additive) were corrected with: a one-condition search's, not
  // covering's (rule-logistic's covering+additive under EVC only).
  std::optional<EvcCalibration> additive_evc;
  // The shrinkage rule probabilities were corrected with (--correct bootstrap only).
  std::optional<BootstrapShrinkage> bootstrap;
  // What the model predicts with: its model file's "settings", set where the learner fits it and read back
  // with the file (use() looks a rule set's combination up once).
  RuleModelSettings settings;
  void use(RuleModelSettings s);
  // The combination use() looked up (null for the other kinds, and for a rule set built by hand without use():
  // predict_proba then looks settings.combine up by name).
  const Combination* combination = nullptr;

  // Class probabilities for one row of data read against `schema` (model/combine.hpp). A decision list
  // and a best-rule set use their deciding rule: `probability` for the rule's class and the rest shared by
  // the other classes in proportion to the rule's counts. A rule set combines its firing rules by
  // `combine`. With no firing rule, the default distribution. Every result is mixed with the prior as
  // `prior_weight` pseudo-examples (default 1), so it lies strictly inside (0, 1) for every
  // class seen in training; prior weight 0 gives the raw distributions of the papers' experiments.
  std::vector<double> predict_proba(const Dataset& d, std::size_t row) const override;
  // 0-based indices of the rules that decide the prediction: the first firing rule of a decision list,
  // every firing rule of a rule set, the best firing rule of a best-rule set; empty when the default rule
  // decides.
  std::vector<std::size_t> deciding_rules(const Dataset& d, std::size_t row) const;
  // The default rule's class counts smoothed towards the prior (Laplace's rule, m = share_m()).
  std::vector<double> default_distribution() const;
  // The m that smooths the default rule's and a deciding rule's class shares: prior weight x classes.
  double share_m() const;
  double mean_rule_length() const override;
  std::size_t rule_count() const override { return rules.size(); }
  // "decision-list", "rule-set" or "best-rule-set".
  std::string kind_name() const override;
  // deciding_rules as 1-based numbers.
  std::vector<std::string> explain(const Dataset& d, std::size_t row) const override;
  std::string text(const std::string& learner) const override;  // format_rules
  // Every rule: conditions, class, covered and class counts (on estimated_on), quality, probability and its
  // 95% Clopper-Pearson interval.
  nlohmann::json rule_table() const override;
  std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const override;
  std::vector<RuleShape> rule_shapes() const override;
  nlohmann::json to_json() const override;
  // A rule model from its model file (kinds decision-list, rule-set, best-rule-set); throws
  // std::invalid_argument or nlohmann::json::exception for a malformed one.
  static RuleModel from_json(const nlohmann::json& j);
  // Each rule deciding at least one labelled test example (deciding_rules): its probability against the
  // share of its class among the examples it decides.
  std::vector<RulePoint> rule_points(const Dataset& test) const override;
  // The class counts a rule's probability is estimated on: training_counts for a rule set, class_counts
  // (the examples that reached the rule) otherwise.
  const std::vector<double>& estimated_on(const Rule& r) const;
  // The 95% Clopper-Pearson interval of the rule's relative frequency on estimated_on(r): how sure its
  // counts alone make it, before any estimate or correction (Rule::interval is the probability's).
  std::pair<double, double> frequency_interval(const Rule& r) const;
};

// The rules a model file holds, for callers that need a rule model; throws InputError naming `path` for
// any other kind.
RuleModel load_rule_model(const std::string& path);
// The rules as text a person can read, with their statistics; `learner` names the learner and its settings.
std::string format_rules(const RuleModel& m, const std::string& learner);
std::string format_rule(const Rule& r, const Schema& schema);
// The EVC laws a model's rule probabilities were corrected with, one line per class; `of` names the rules
// they corrected where a model holds more than one calibration.
std::string format_evc_calibration(const EvcCalibration& evc, const Schema& schema, const std::string& of = "");
// Every calibration a rule model holds (evc, and additive_evc for its additive rules), for `candor rules`.
std::string format_evc_calibrations(const RuleModel& m);
// The shrinkage of --correct bootstrap, one line.
std::string format_bootstrap_shrinkage(const BootstrapShrinkage& b);

}  // namespace candor
