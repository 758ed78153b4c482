#pragma once
// candor's public API: models. The interface every learner's model answers to (predict, explain, its rules as
// text and as a table), and reading and writing model files. A model file records its kind under "model" and
// the options it was fitted with under "learner" (candor/learner.hpp); docs/glossary.md describes the file.
#include <cstddef>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "candor/data.hpp"

namespace candor {

// One rule on test data: its probability against the share of its class among the test examples it
// decides (or covers, for models where every covering rule takes part).
struct RulePoint {
  double probability = 0;
  double test_share = 0;
  double decided = 0;  // (weighted) test examples it decides
  // The 95% interval the model states for `probability` (NaN where it states none).
  double low = std::numeric_limits<double>::quiet_NaN(), high = std::numeric_limits<double>::quiet_NaN();
  int rule = 0;  // the rule's number where `candor rules` prints it (a tree's leaf, a PrIL rule); 0: none
};

// One rule of a model as conditions, for comparing rules across fits (the private model/model.hpp defines it).
struct RuleShape;

// How the data is resampled to measure stability: n rows drawn with replacement, half the rows without, or the
// training sets of a stratified B-fold cross-validation (SIRUS's protocol).
enum class StabilityResampling { bootstrap, subsample, folds };

// How stable the learner was on the training data, where `candor fit --stability B` measured it
// (docs/glossary.md defines each figure); rule_frequency has one entry per row of rule_table().
struct StabilityRecord {
  int resamples = 0;
  std::string resampling;  // the StabilityResampling: bootstrap, subsample or folds
  int quantiles = 0;
  double rule_set_stability = 0, rule_set_stability_sd = 0;
  double prediction_agreement = 0;
  double probability_spread = 0;
  double mean_rules = 0;
  std::vector<double> rule_frequency;
};

struct Model {
  // The model file's "learner" object: the options the model was fitted with, every default the learner
  // applied written out (Learner::to_json, candor/learner.hpp). It is provenance, never read to predict: each
  // kind holds what it predicts with as its own typed settings, which the learner sets where it fits the
  // model and the kind writes to its file's "settings" and reads back.
  nlohmann::json learner = nlohmann::json::object();
  Schema schema;
  std::vector<double> training_counts;  // class totals of the training set
  std::size_t training_rows = 0;
  std::string training_source;
  std::optional<StabilityRecord> stability;  // written to the model file only when measured

  virtual ~Model() = default;
  // The model file's "model" entry, its kind: decision-list, rule-set, best-rule-set, rule-logistic, tree,
  // boost or pril.
  virtual std::string kind_name() const = 0;
  // Class probabilities for one row of data read against `schema`; they sum to 1 and lie strictly inside
  // (0, 1) for every class seen in training (the learner's documented smoothing decides how).
  virtual std::vector<double> predict_proba(const Dataset& d, std::size_t row) const = 0;
  // The class of highest probability (ties: the first).
  int predict(const Dataset& d, std::size_t row) const;
  // Whether the model decides a row at all: false for a case it leaves undecided (PrIL, where no rule is
  // reliable enough); predict() still names the most probable class, `candor predict` prints "undecided"
  // and evaluation counts it as wrong in the adjusted accuracy.
  virtual bool decides(const Dataset&, std::size_t) const { return true; }
  // Statistics of the model on its own training data that evaluation reports beside the test metrics
  // (PrIL's adjusted average reliability); empty for most models.
  virtual std::vector<std::pair<std::string, double>> training_statistics() const { return {}; }
  // What decided a prediction, most influential first, as short labels for `candor predict --explain`:
  // rule numbers (1-based) for rule models, "rule 3 +1.20" / "age -0.41" for linear ones, "leaf 4" for
  // trees, "member 3 +0.84" for ensembles; empty when the default decided.
  virtual std::vector<std::string> explain(const Dataset& d, std::size_t row) const = 0;
  // A stability record as the model file's "stability" entry (and `candor evaluate --format json`'s), and back;
  // reading throws std::invalid_argument or nlohmann::json::exception for an entry out of range.
  nlohmann::json stability_json(const StabilityRecord& s);
  StabilityRecord stability_from_json(const nlohmann::json& j);

  // The model as text a person can read (`candor rules`), headed by `learner`: the one line naming the
  // learner and its settings (model_text() passes Learner::describe() of the options it was fitted with).
  virtual std::string text(const std::string& learner) const = 0;
  // The whole model file (kind, learner, schema and the kind's own entries).
  virtual nlohmann::json to_json() const = 0;
  // Rules in the model (for a linear model over rules: its rule features) and their mean length.
  virtual std::size_t rule_count() const = 0;
  virtual double mean_rule_length() const = 0;
  // Each rule holding a probability estimate that decides (or covers) at least one example of `test`: the
  // estimate against the share of the rule's class there. Empty for models whose rules make no claim.
  virtual std::vector<RulePoint> rule_points(const Dataset& test) const = 0;
  // The training class distribution.
  std::vector<double> prior() const;
  // The model's rules as rows for a table (the Python package's rules_): each an object with "rule" (the
  // conditions as text), "class", "covered" (training weight), "class_counts", "probability" where the model
  // states one, and the kind's own columns (quality, weight, reliability, member, ...). Empty for models
  // without rules.
  virtual nlohmann::json rule_table() const { return nlohmann::json::array(); }
  // For every row of `d`, the rows of rule_table() (0-based) that took part in its prediction: the deciding
  // rules of a rule model, every rule a logistic model's row has, the leaves a tree routes it to, each
  // member's leaf in an ensemble, PrIL's deciding rule. Empty lists for models without rules.
  virtual std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const {
    return std::vector<std::vector<std::size_t>>(d.rows());
  }
  // The rows of rule_table() as conditions, in the same order; empty for models without rules.
  virtual std::vector<RuleShape> rule_shapes() const;
  // How much each row of rule_table() moves the predictions, for attribute_importances(): by default the
  // share of the training weight the rule covers times the distance of its probability from its class's
  // prior (a rule that states no probability, an ensemble member's cell or a PrIL rule: its covered share
  // alone). A linear model over rules weighs them as its text ranks them (|weight| x sd of the rule feature).
  virtual std::vector<double> rule_importances() const;
  // Each attribute's own importance beside its rules' (a rules+attributes model's attribute columns, as its
  // text ranks them); empty by default.
  virtual std::vector<double> attribute_column_importances() const { return {}; }
  // Rules the learner found that the model then left out (a logistic model's rules of weight 0 on every
  // logit), and the sentence saying so where there are any; 0 and empty for the other kinds.
  virtual std::size_t rules_dropped() const { return 0; }
  virtual std::string dropped_rules_sentence() const { return ""; }
};

// rule_table() with each rule's "frequency" across resamples where the model records its stability.
nlohmann::json rule_table_with_stability(const Model& m);
// The table `candor rules --format csv|markdown|json` prints and Python's rules_ holds: rule_table_with_stability()
// with a 1-based "id" (the rule numbers of `candor rules`, explain() and `predict --explain`) where the kind's
// rows carry none.
nlohmann::json numbered_rule_table(const Model& m);
// The columns of such a table in the order they are shown: id, member, rule, class, covered, class_counts,
// training_covered, training_counts, probability, then every other column in alphabetical order.
std::vector<std::string> rule_table_columns(const nlohmann::json& rows);

// Each attribute's share of the model's importance (scikit-learn's feature_importances_; they sum to 1, or
// are all 0 for a model without rules or weights): every rule's importance (rule_importances()) shared
// equally by the attributes its conditions test, plus the attribute's own (attribute_column_importances()).
std::vector<double> attribute_importances(const Model& m);

// Throws InputError naming `source` when the document is not a valid candor model of a known kind.
std::unique_ptr<Model> model_from_json(nlohmann::json j, const std::string& source);
// The same from a model file's text; a JSON syntax error names its line.
std::unique_ptr<Model> model_from_text(const std::string& text, const std::string& source);
void save_model(const Model& m, const std::string& path);
std::unique_ptr<Model> load_model(const std::string& path);

// A stability record as the model file's "stability" entry (and `candor evaluate --format json`'s), and back;
// reading throws std::invalid_argument or nlohmann::json::exception for an entry out of range.
nlohmann::json stability_json(const StabilityRecord& s);
StabilityRecord stability_from_json(const nlohmann::json& j);

// The model as text a person can read (`candor rules`): text() headed by the line describing its learner.
std::string model_text(const Model& m);
// The learner's name (the learner object's "learner"), for provenance (an export's heading).
std::string learner_name(const Model& m);

}  // namespace candor
