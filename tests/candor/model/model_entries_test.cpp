// Every entry of a model file is one candor writes: an entry it does not write (a typo, a hand edit) is
// refused with its JSON pointer rather than ignored. Each reader checks the objects it reads against the
// entries their writer writes; these tests hold the readers to the writers, for every model kind and the
// optional parts of each.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/eval/stability.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/learn/fit.hpp"
#include "candor/model/model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// The pointer of every object of `j` below `pointer`, but for the learner's options (kept as they are, for
// provenance) and the EVC laws (keyed by class: an unknown class is its own error).
void object_pointers(const nlohmann::json& j, const nlohmann::json::json_pointer& pointer,
                     std::vector<nlohmann::json::json_pointer>& out) {
  if (j.is_object()) {
    if (!pointer.empty() && pointer.back() == "learner") return;
    if (pointer.empty() || pointer.back() != "laws") out.push_back(pointer);
    for (const auto& [key, value] : j.items()) object_pointers(value, pointer / key, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) object_pointers(j[i], pointer / i, out);
  }
}

std::string reading_error(const nlohmann::json& j) {
  try {
    model_from_json(j, "edited.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// What kind of object sits at `pointer`: its path with list positions left out, and its entries (a leaf and
// a split are both tree nodes).
std::string object_kind(const nlohmann::json& document, const nlohmann::json::json_pointer& pointer) {
  std::string text = pointer.to_string();
  for (char& c : text)
    if (c >= '0' && c <= '9') c = '*';
  for (const auto& [key, value] : document[pointer].items()) text += " " + key;
  return text;
}

// Fits `options` on `data`, reads the written model back, and adds an entry to one object of each kind in
// turn: every one is refused, named by its pointer.
void every_object_checks_its_entries(const Dataset& data, const std::string& options, bool with_stability = false) {
  SCOPED_TRACE(options);
  const LearnerParams params = parse_learner_options(options);
  std::unique_ptr<Model> model = fit_model(data, params);
  if (with_stability) {
    StabilityOptions stability;
    stability.resamples = 2;
    model->stability = measure_stability(data, params, stability, model.get());
  }
  const nlohmann::json written = model->to_json();
  EXPECT_EQ(model_from_json(written, "written.json")->to_json(), written);
  std::vector<nlohmann::json::json_pointer> objects;
  object_pointers(written, nlohmann::json::json_pointer(), objects);
  std::set<std::string> kinds;
  for (const auto& pointer : objects) {
    if (!kinds.insert(object_kind(written, pointer)).second) continue;
    nlohmann::json edited = written;
    edited[pointer]["probabilty"] = 0.5;
    const std::string message = reading_error(edited);
    EXPECT_NE(message.find("edited.json: malformed model: unknown entry " + pointer.to_string() + "/probabilty"),
              std::string::npos)
        << pointer.to_string() << ": " << message;
  }
  EXPECT_GE(kinds.size(), 6u);
}

}  // namespace

TEST(ModelEntries, EveryRuleModelObjectChecksItsEntries) {
  const Dataset vote = read_arff(test::repo("data/vote.arff"));
  const Dataset iris = read_arff(test::shared("iris.arff"));
  every_object_checks_its_entries(vote, "--learner cn2-unordered --stable-resamples 3", true);
  every_object_checks_its_entries(iris, "--learner cn2-unordered --correct bootstrap --bootstrap-resamples 3");
  every_object_checks_its_entries(iris, "--learner cn2-ordered");
  every_object_checks_its_entries(vote, "");
  every_object_checks_its_entries(iris, "--learner rule-logistic --features rules+attributes --lambda-search model");
  every_object_checks_its_entries(iris, "--learner pril");
}

TEST(ModelEntries, EveryTreeAndEnsembleObjectChecksItsEntries) {
  const Dataset iris = read_arff(test::shared("iris.arff"));
  const Dataset vote = read_arff(test::repo("data/vote.arff"));
  every_object_checks_its_entries(iris, "--learner tree --leaf-estimate bootstrap");
  every_object_checks_its_entries(vote, "--learner boost --boosting adaboost-m1 --base stump --iterations 2");
  every_object_checks_its_entries(iris, "--learner boost --boosting kbs --iterations 2 --calibrate smoothing");
  every_object_checks_its_entries(iris, "--learner boost --boosting kbs --multiclass one-vs-rest --iterations 2");
  every_object_checks_its_entries(iris, "--learner boost --boosting adaboost-m1 --iterations 2 --calibrate discount");
  every_object_checks_its_entries(iris, "--learner boost --boosting logitboost --iterations 2");
}

TEST(ModelEntries, AnEntryWrittenForOtherObjectsOnlyIsUnknownHere) {
  const Dataset iris = read_arff(test::shared("iris.arff"));
  nlohmann::json tree = fit_model(iris, parse_learner_options("--learner tree"))->to_json();
  nlohmann::json& nodes = tree["tree"]["nodes"];
  std::size_t leaf = 0;
  while (nodes[leaf]["split"] != "leaf") ++leaf;
  nodes[leaf]["threshold"] = 1.5;  // a numeric split's, not a leaf's
  EXPECT_NE(reading_error(tree).find("unknown entry /tree/nodes/" + std::to_string(leaf) + "/threshold"),
            std::string::npos);
  nlohmann::json kbs =
      fit_model(iris, parse_learner_options("--learner boost --boosting kbs --iterations 2"))->to_json();
  kbs["members"][1]["vote_weight"] = 1.0;  // AdaBoost.M1's, not KBS's
  EXPECT_NE(reading_error(kbs).find("unknown entry /members/1/vote_weight"), std::string::npos);
}
