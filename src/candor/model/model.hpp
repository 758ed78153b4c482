#pragma once
// The model interface every learner returns, and the model-kind registry the model file loader reads.
// A model file records its kind under "model"; load_model() hands the document to that kind's reader.
// A new kind of model is one class deriving from Model plus one line in model_kind_table() (model.cpp).
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data/dataset.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"

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

// One rule of a model as conditions, for comparing rules across fits (eval/stability.hpp): the conditions
// (numeric bounds as le/gt, nominal tests as eq/ne), the attributes a tree's missing-value branch tests, and
// the class it concludes (-1 where it names none, as a LogitBoost leaf).
struct RuleShape {
  std::vector<Condition> conditions;
  std::vector<int> missing;
  int klass = -1;
};

// How the data is resampled to measure stability (eval/stability.hpp): n rows drawn with replacement, half the
// rows without, or the training sets of a stratified B-fold cross-validation (SIRUS's protocol).
enum class StabilityResampling { bootstrap, subsample, folds };
inline constexpr Named<StabilityResampling> kStabilityResamplingNames[] = {
    {"bootstrap", StabilityResampling::bootstrap},
    {"subsample", StabilityResampling::subsample},
    {"folds", StabilityResampling::folds}};

// How stable the learner was on the training data, where `candor fit --stability B` measured it
// (eval/stability.hpp defines each figure); rule_frequency has one entry per row of rule_table().
struct StabilityRecord {
  int resamples = 0;
  std::string resampling;  // a name of kStabilityResamplingNames
  int quantiles = 0;
  double rule_set_stability = 0, rule_set_stability_sd = 0;
  double prediction_agreement = 0;
  double probability_spread = 0;
  double mean_rules = 0;
  std::vector<double> rule_frequency;
};

struct Model {
  // The model file's "learner" object: the options the model was fitted with, every default the learner
  // applied written out (learn/params.hpp: params_to_json). It is provenance, never read to predict: each
  // kind holds what it predicts with as its own typed settings, which the learner sets where it fits the
  // model and the kind writes to its file's "settings" and reads back. model/ knows no learner; learn/ turns
  // this object back into options.
  nlohmann::json learner = nlohmann::json::object();
  Schema schema;
  std::vector<double> training_counts;  // class totals of the training set
  std::size_t training_rows = 0;
  std::string training_source;
  std::optional<StabilityRecord> stability;  // written to the model file only when measured

  virtual ~Model() = default;
  // The model file's "model" entry: a name of model_kind_table().
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
  // The model as text a person can read (`candor rules`), headed by `learner`: the one line naming the
  // learner and its settings (learn/params.hpp: model_text() passes describe() of the options).
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
  virtual std::vector<RuleShape> rule_shapes() const { return {}; }
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

// A stability record as the model file's "stability" entry (and `candor evaluate --format json`'s), and back;
// reading throws std::invalid_argument or nlohmann::json::exception for an entry out of range.
nlohmann::json stability_json(const StabilityRecord& s);
StabilityRecord stability_from_json(const nlohmann::json& j);

// rule_table() with each rule's "frequency" across resamples where the model records its stability.
nlohmann::json rule_table_with_stability(const Model& m);
// The table `candor rules --format csv|markdown|json` prints and Python's rules_ holds: rule_table_with_stability()
// with a 1-based "id" (the rule numbers of `candor rules`, explain() and `predict --explain`) where the kind's
// rows carry none.
nlohmann::json numbered_rule_table(const Model& m);
// The columns of such a table in the order they are shown: id, member, rule, class, covered, class_counts,
// training_covered, training_counts, probability, then every other column in alphabetical order.
std::vector<std::string> rule_table_columns(const nlohmann::json& rows);

// The entries of a model's "settings" (what the kind predicts with, which its own to_json writes and from_json
// reads back): a finite number in [low, high], or a name of `names`. Both throw JsonEntryError naming the entry.
double settings_number(const nlohmann::json& settings, const char* key, double low, double high);
template <class E, std::size_t N>
E settings_name(const nlohmann::json& settings, const char* key, const Named<E> (&names)[N]) {
  const std::string text = json_get<std::string>(settings, key);
  return read_entry(settings.at(key), [&] { return parse_named(names, key, text); });
}

// The settings of a model file written before models recorded their own, read from its learner object (the
// options it was fitted with): `fallback` where the object does not hold the option (files written before the
// option existed). Throws std::invalid_argument naming the learner parameter when it has the wrong type or,
// for a number, lies outside [low, high] or is not finite. Only the kinds' readers of such files use them.
double learner_number(const nlohmann::json& learner, const char* key, double fallback, double low, double high);
std::string learner_text(const nlohmann::json& learner, const char* key, const std::string& fallback);
// The learner's name (the learner object's "learner"), for provenance (an export's heading).
std::string learner_name(const Model& m);

// Each attribute's share of the model's importance (scikit-learn's feature_importances_; they sum to 1, or
// are all 0 for a model without rules or weights): every rule's importance (rule_importances()) shared
// equally by the attributes its conditions test, plus the attribute's own (attribute_column_importances()).
std::vector<double> attribute_importances(const Model& m);

// Records what `m` was fitted on: the training data's schema, class totals, rows and source.
void record_training(Model& m, const Dataset& data);

// The entries every model file shares: format, version, kind, learner parameters, training summary,
// attributes and class.
nlohmann::json model_header_json(const Model& m);
// Reads those entries into `m`: the learner object as it is (an object naming its learner; learn/ checks
// the options where it reads them). `own` names the entries the model kind's writer adds beside them: any
// other entry of the file's top level is an UnknownJsonEntry. Throws std::invalid_argument or
// nlohmann::json::exception for a malformed document.
void read_model_header(const nlohmann::json& j, Model& m, std::initializer_list<KnownEntry> own);

struct ModelKindInfo {
  const char* name;         // the model file's "model" entry
  const char* description;  // for the documentation
  // Builds the model from a whole model file; throws std::invalid_argument or nlohmann::json::exception.
  std::unique_ptr<Model> (*from_json)(const nlohmann::json& j);
};
const std::vector<ModelKindInfo>& model_kind_table();

// Throws InputError naming `source` when the document is not a valid candor model of a known kind.
std::unique_ptr<Model> model_from_json(nlohmann::json j, const std::string& source);
// The same from a model file's text; a JSON syntax error names its line.
std::unique_ptr<Model> model_from_text(const std::string& text, const std::string& source);
void save_model(const Model& m, const std::string& path);
std::unique_ptr<Model> load_model(const std::string& path);

}  // namespace candor
