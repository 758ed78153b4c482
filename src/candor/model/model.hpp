#pragma once
// What the model kinds share beyond the public interface (candor/model.hpp): the model-kind registry the model
// file loader reads (load_model() hands the document to the kind named by its "model" entry), the readers and
// writers of the entries every file shares, and a rule's shape. A new kind of model is one class deriving from
// Model plus one line in model_kind_table() (model.cpp).
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
#include "candor/data.hpp"
#include "candor/model.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"

namespace candor {

// One rule of a model as conditions, for comparing rules across fits (eval/stability.hpp): the conditions
// (numeric bounds as le/gt, nominal tests as eq/ne), the attributes a tree's missing-value branch tests, and
// the class it concludes (-1 where it names none, as a LogitBoost leaf).
struct RuleShape {
  std::vector<Condition> conditions;
  std::vector<int> missing;
  int klass = -1;
};

// StabilityResampling (candor/model.hpp) by name.
inline constexpr Named<StabilityResampling> kStabilityResamplingNames[] = {
    {"bootstrap", StabilityResampling::bootstrap},
    {"subsample", StabilityResampling::subsample},
    {"folds", StabilityResampling::folds}};

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

}  // namespace candor
