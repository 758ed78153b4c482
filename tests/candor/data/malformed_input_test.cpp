// Inputs that once lost rows or meaning without a word: each is now read correctly or refused with
// file, line and reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/learn/fit.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// The message of the InputError `f` throws, or a failure.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

}  // namespace

TEST(MalformedInput, ArffRowOnTheDataLineIsRefusedNotDropped) {
  const std::string text = "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data x,p\ny,q\n";
  const std::string message = input_error([&] { parse_arff(text, "same-line.arff"); });
  EXPECT_NE(message.find("same-line.arff:4"), std::string::npos) << message;
  EXPECT_NE(message.find("data after @data on the same line"), std::string::npos) << message;
  // "@database" is not "@data".
  const std::string unknown = input_error(
      [&] { parse_arff("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@database\nx,p\n", "kw.arff"); });
  EXPECT_NE(unknown.find("kw.arff:4"), std::string::npos) << unknown;
}

TEST(MalformedInput, ByteOrderMarkIsNotPartOfTheFirstName) {
  const Dataset csv = parse_csv(
      "\xEF\xBB\xBF"
      "age,class\n1,p\n2,q\n",
      "bom.csv");
  EXPECT_EQ(csv.schema.attributes[0].name, "age");
  const Dataset arff = parse_arff(
      "\xEF\xBB\xBF"
      "@relation r\n@attribute age numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n",
      "bom.arff");
  EXPECT_EQ(arff.rows(), 2u);
  EXPECT_EQ(arff.schema.attributes[0].name, "age");
}

TEST(MalformedInput, TsvRowOfEmptyCellsIsARowNotABlankLine) {
  // Its class is missing: training data refuses it with its line; prediction data keeps it, all missing.
  const std::string text = "a\tb\tclass\n1\tx\tp\n\t\t\n2\ty\tq\n";
  const std::string message = input_error([&] { parse_csv(text, "empty.tsv", {}, '\t'); });
  EXPECT_NE(message.find("empty.tsv:3"), std::string::npos) << message;
  const Dataset trained = parse_csv("a\tb\tclass\n1\tx\tp\n2\ty\tq\n", "train.tsv", {}, '\t');
  LoadOptions predict;
  predict.schema = &trained.schema;
  predict.require_labels = false;
  const Dataset rows = parse_csv(text, "predict.tsv", predict, '\t');
  ASSERT_EQ(rows.rows(), 3u);  // no row lost: row numbers of predictions stay aligned
  EXPECT_TRUE(rows.is_missing(0, 1));
  EXPECT_EQ(rows.y[1], kMissing);
}

TEST(MalformedInput, ModelFilesWithImpossibleNumbersAreRefused) {
  const Dataset d = read_arff(test::repo("data/vote.arff"));
  LearnerParams cn2;
  cn2.learner = "cn2-unordered";
  const RuleModel m = fit(d, cn2);
  auto refused = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& fragment) {
    nlohmann::json j = m.to_json();
    edit(j);
    const std::string message = input_error([&] { model_from_json(j, "edited.json"); });
    EXPECT_NE(message.find("edited.json"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  };
  refused([](nlohmann::json& j) { j["training"]["rows"] = -5; }, "training rows must be an integer in [0, ");
  refused([](nlohmann::json& j) { j["training"]["rows"] = 2.5; }, "training rows must be an integer");
  // What the model predicts with is its "settings" entry, each problem named by its pointer.
  refused([](nlohmann::json& j) { j["settings"]["prior_weight"] = -1.0; },
          "/settings/prior_weight: prior_weight must be a finite number of at least 0, not -1");
  refused([](nlohmann::json& j) { j["settings"]["m"] = "many"; }, "/settings/m");
  refused([](nlohmann::json& j) { j["settings"]["combine"] = "sum"; }, "/settings/combine");
  refused([](nlohmann::json& j) { j["settings"]["correct"] = "twice"; }, "/settings/correct");
  refused([](nlohmann::json& j) { j["settings"]["extra"] = 1; }, "/settings/extra");
  refused([](nlohmann::json& j) { j["settings"].erase("quality"); }, "/settings");
  // A file written before models recorded their settings: they are read from its learner object.
  auto older = [&](const std::function<void(nlohmann::json&)>& edit) {
    return [edit](nlohmann::json& j) {
      j.erase("settings");
      edit(j);
    };
  };
  refused(older([](nlohmann::json& j) { j["learner"]["prior_weight"] = -1.0; }), "learner parameter 'prior_weight'");
  refused(older([](nlohmann::json& j) { j["learner"]["m"] = "many"; }), "learner parameter 'm'");
  refused(older([](nlohmann::json& j) { j["learner"]["combine"] = "sum"; }), "sum");
  // Otherwise the learner object is provenance only: an edit there changes no prediction.
  nlohmann::json provenance = m.to_json();
  provenance["learner"]["prior_weight"] = 7.0;
  provenance["learner"]["combine"] = "probability-sum";
  const auto same = model_from_json(provenance, "provenance.json");
  for (std::size_t r = 0; r < d.rows(); ++r) EXPECT_EQ(same->predict_proba(d, r), m.predict_proba(d, r));
  refused([](nlohmann::json& j) { j["learner"] = "cn2-unordered"; },
          "\"learner\" must be an object naming its learner");
  // The rest of it is provenance, checked where it is read back as options (`candor rules`, the report):
  // numbers that do not fit an int were converted with undefined behaviour (found by fuzzing).
  nlohmann::json edited = m.to_json();
  edited["learner"]["beam_width"] = 3.1e106;
  const auto loaded = model_from_json(edited, "edited.json");
  EXPECT_THROW(model_options(*loaded), std::invalid_argument);
  try {
    model_options(*loaded);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("learner parameter 'beam_width'"), std::string::npos) << e.what();
  }
  refused([](nlohmann::json& j) { j["rules"][0]["probability"] = 5.0; }, "not in [0, 1]");
  refused([](nlohmann::json& j) { j["rules"][0]["training_counts"][0] = -1.0; }, "non-negative");
  refused([](nlohmann::json& j) { j["class"]["values"] = nlohmann::json::array(); }, "the class has no values");
  refused([](nlohmann::json& j) { j["version"] = 2; }, "unsupported model version 2");
}

TEST(MalformedInput, DirectoriesAndHugeNumbersAreInputErrors) {
  const auto dir = test::temp_dir() / "a-directory.arff";
  std::filesystem::create_directories(dir);
  EXPECT_NE(input_error([&] { read_arff(dir.string()); }).find("is a directory"), std::string::npos);
  EXPECT_NE(input_error([&] { load_model(dir.string()); }).find("is a directory"), std::string::npos);
  const std::string huge = test::write_temp("huge.json", "{\"format\": \"candor-model\", \"version\": 1e400}");
  EXPECT_NE(input_error([&] { load_model(huge); }).find("not valid JSON"), std::string::npos);
}

TEST(MalformedInput, ANearlyNumericCsvColumnIsReadAsNominalWithAWarning) {
  std::string text = "x,word,class\n";
  for (int i = 0; i < 20; ++i)
    text += (i == 7 ? std::string("nan") : std::to_string(i)) + "," + (i % 2 ? "a" : "b") + "," + (i % 2 ? "p" : "q") +
            "\n";
  std::vector<std::string> warnings;
  LoadOptions options;
  options.warnings = &warnings;
  const Dataset d = parse_csv(text, "typo.csv", options);
  EXPECT_TRUE(d.schema.attributes[0].is_nominal());  // the policy: one non-number makes a column nominal
  ASSERT_EQ(warnings.size(), 1u);                    // ... and says so; the genuinely nominal column does not warn
  EXPECT_NE(warnings[0].find("typo.csv:9: column 'x'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("'nan' is not a number (19 of its 20 cells are)"), std::string::npos) << warnings[0];
}

TEST(MalformedInput, ValuesAModelNeverSawAreReportedWhenPredicting) {
  const Dataset train =
      parse_arff("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\ny,q\nx,p\n", "train.arff");
  std::vector<std::string> warnings;
  LoadOptions options;
  options.schema = &train.schema;
  options.require_labels = false;
  options.warnings = &warnings;
  // A numeric column where the model has names: every value unseen, reported with its line.
  parse_arff("@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n", "numbers.arff", options);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("numbers.arff:5: attribute 'a': 2 of 2 values were never seen in training (first '1'"),
            std::string::npos)
      << warnings[0];
  warnings.clear();
  parse_arff("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\ny,q\n", "same.arff", options);
  EXPECT_TRUE(warnings.empty());  // known values: nothing to say
}

TEST(MalformedInput, WeightsWhoseSumOverflowsAreRefused) {
  const std::string text =
      "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p,{1e308}\ny,q,{1e308}\nx,q\n";
  const std::string message = input_error([&] { parse_arff(text, "heavy.arff"); });
  EXPECT_NE(message.find("heavy.arff:6: example weights are too large"), std::string::npos) << message;
}

TEST(MalformedInput, ASparseIndexGivenTwiceIsRefused) {
  const std::string text =
      "@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n{0 1, 1 q}\n{0 2, 0 3, 1 p}\n";
  const std::string message = input_error([&] { parse_arff(text, "sparse.arff"); });
  EXPECT_NE(message.find("sparse.arff:6: sparse index 0 is given twice"), std::string::npos) << message;
}

TEST(MalformedInput, EchoedValuesAreShortAndPrintable) {
  const std::string huge(100000, 'z');
  const std::string text = "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\n" + huge + ",p\nx\x01y,q\n";
  const std::string message = input_error([&] { parse_arff(text, "echo.arff"); });
  EXPECT_LT(message.size(), InputError::kLongestReason + 200);
  EXPECT_NE(message.find("more bytes)"), std::string::npos) << message.substr(0, 200);
  const std::string control = input_error(
      [&] { parse_arff("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx\x01y,p\n", "ctl.arff"); });
  EXPECT_EQ(control.find('\x01'), std::string::npos);
  EXPECT_NE(control.find("\\x01"), std::string::npos) << control;
}

TEST(MalformedInput, OneNumberWrittenTwoWaysInANominalColumnIsReported) {
  std::vector<std::string> warnings;
  LoadOptions options;
  options.warnings = &warnings;
  const Dataset d = parse_csv("x,class\na,1\nb,1.0\nc,2\n", "labels.csv", options);
  EXPECT_EQ(d.num_classes(), 3u);  // texts are values: the policy stays, and is said
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("column 'class' has the values '1' and '1.0'"), std::string::npos) << warnings[0];
}
