// A model predicts with its own settings (the model file's "settings"), which the learner sets where it fits
// the model. Files written before models recorded them are read through their learner object instead: for
// every learner and the settings each reads, that reader must give the same settings and the same predictions
// as the fitted model, and the learner object must be provenance only.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/model/model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// `j` without its "settings" and its rule model's: a file as candor wrote it before models recorded them.
nlohmann::json as_older_file(nlohmann::json j) {
  j.erase("settings");
  if (j.contains("rule_model")) j["rule_model"].erase("settings");
  return j;
}

void older_files_read_the_same(const Dataset& data, const std::string& options) {
  SCOPED_TRACE(options + " on " + data.source);
  const std::unique_ptr<Model> fitted = fit_model(data, parse_learner_options(options), 2);
  const nlohmann::json written = fitted->to_json();
  ASSERT_TRUE(written.contains("settings"));
  const std::unique_ptr<Model> older = model_from_json(as_older_file(written), "older.json");
  const nlohmann::json again = older->to_json();
  EXPECT_EQ(again["settings"], written["settings"]);
  if (written.contains("rule_model")) {
    EXPECT_EQ(again["rule_model"]["settings"], written["rule_model"]["settings"]);
  }
  for (std::size_t r = 0; r < data.rows(); ++r)
    ASSERT_EQ(older->predict_proba(data, r), fitted->predict_proba(data, r));
  // The learner object is provenance: with it emptied but for the learner's name, the model predicts the same.
  nlohmann::json without_options = written;
  without_options["learner"] = {{"learner", written["learner"]["learner"]}};
  const std::unique_ptr<Model> bare = model_from_json(without_options, "bare.json");
  EXPECT_EQ(bare->to_json()["settings"], written["settings"]);
  for (std::size_t r = 0; r < data.rows(); ++r) ASSERT_EQ(bare->predict_proba(data, r), fitted->predict_proba(data, r));
}

}  // namespace

TEST(ModelSettings, EveryLearnerDefaultReadsBackFromAnOlderFile) {
  const Dataset vote = read_arff(test::repo("data/vote.arff"));
  const Dataset iris = read_arff(test::shared("iris.arff"));
  for (const std::string& learner : learner_names()) {
    older_files_read_the_same(vote, "--learner " + learner);
    older_files_read_the_same(iris, "--learner " + learner);
  }
}

TEST(ModelSettings, EverySettingReadsBackFromAnOlderFile) {
  const Dataset credit = read_arff(test::shared("credit-a.arff"));
  const Dataset iris = read_arff(test::shared("iris.arff"));
  for (const char* options : {
           "--learner cn2-unordered --combine m-counts --m 5",
           "--learner cn2-unordered --combine probability-sum --prior-weight 0",
           "--learner cn2-unordered --quality evc --evc-permutations 10",
           "--learner cn2-unordered --correct evc --evc-permutations 10",
           "--learner cn2-unordered --correct bootstrap --bootstrap-resamples 5",
           "--learner cn2-unordered --stable-resamples 4",
           "--learner decision-list --refine-quality modified-laplace",
           "--learner rule-logistic --features rules+attributes --penalty l1",
           "--learner rule-logistic --rule-penalty none --candidates covering",
           "--learner rule-logistic --features attributes",
           "--learner tree --leaf-estimate counts --prior-weight 2",
           "--learner tree --leaf-estimate laplace",
           "--learner boost --boosting adaboost-m1 --base tree --iterations 1 --leaf-estimate counts",
           "--learner boost --boosting logitboost --iterations 3",
           "--learner boost --base stump --iterations 3 --calibrate smoothing",
           "--learner boost --base stump --iterations 3 --calibrate temperature --multiclass one-vs-rest",
           "--learner pril --risk 0.1",
       }) {
    older_files_read_the_same(credit, options);
    older_files_read_the_same(iris, options);
  }
}
