#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>

#include "test_util.hpp"

using namespace candor;

namespace {
struct CliResult {
  int code;
  std::string out;
};
// Runs the candor binary; stderr joins stdout unless `quiet_stderr`.
CliResult run(const std::string& args, bool quiet_stderr = false) {
  std::string cmd = std::string(CANDOR_CLI_PATH) + " " + args + (quiet_stderr ? " 2>/dev/null" : " 2>&1");
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}
CliResult run_stdout(const std::string& args) { return run(args, true); }
}  // namespace

TEST(Cli, BadInputExitsWithTwoAndNamesFileLineReason) {
  std::string bad = test::write_temp("bad.arff", "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\nz,q\n");
  CliResult r = run("fit " + bad + " -o /dev/null");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(bad + ":6: value 'z' is not declared"), std::string::npos) << r.out;
  r = run("evaluate /nonexistent.arff");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot open"), std::string::npos);
  r = run("fit " + test::repo("data/vote.arff") + " -o /dev/null --quality gini");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown quality measure 'gini'"), std::string::npos) << r.out;
  EXPECT_EQ(run("fit").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  std::string not_model = test::write_temp("notmodel.json", "{\"format\": \"other\"}");
  r = run("rules " + not_model);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not a candor model"), std::string::npos) << r.out;
}

TEST(Cli, FitRulesPredictExplain) {
  std::string model = test::write_temp("vote-model.json", "");
  CliResult r = run("fit " + test::repo("data/vote.arff") + " -o " + model + " --beam-width 3");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(model));
  EXPECT_EQ(j["format"], "candor-model");
  EXPECT_EQ(j["learner"]["beam_width"], 3);
  EXPECT_EQ(j["learner"]["quality"], "laplace");
  ASSERT_GT(j["rules"].size(), 0u);
  for (const auto& rule : j["rules"])
    for (const char* key : {"class", "conditions", "covered", "class_counts", "quality", "probability"})
      EXPECT_TRUE(rule.contains(key)) << key;

  CliResult rules = run_stdout("rules " + model);
  ASSERT_EQ(rules.code, 0);
  EXPECT_NE(rules.out.find("1. IF "), std::string::npos);
  EXPECT_NE(rules.out.find("DEFAULT"), std::string::npos);

  CliResult pred = run_stdout("predict " + model + " " + test::repo("data/vote.arff") + " --proba --explain");
  ASSERT_EQ(pred.code, 0);
  std::istringstream lines(pred.out);
  std::string header, first;
  std::getline(lines, header);
  EXPECT_EQ(header, "row,predicted,actual,\"p(democrat)\",\"p(republican)\",rules");
  std::getline(lines, first);
  EXPECT_EQ(first.rfind("1,", 0), 0u);
  int rows = 1;
  for (std::string l; std::getline(lines, l);) ++rows;
  EXPECT_EQ(rows, 435);
}

TEST(Cli, EvaluateJsonHasTheDocumentedKeys) {
  CliResult r = run_stdout("evaluate " + test::repo("data/vote.arff") + " --folds 5 --format json --threads 2");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"accuracy", "auc", "brier", "log_loss", "rules", "mean_rule_length", "fit_seconds", "folds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["folds"].size(), 5u);
  EXPECT_GT(j["accuracy"].template get<double>(), 0.9);
  // Same seed, other thread count: same numbers.
  auto j1 = nlohmann::json::parse(run_stdout("evaluate " + test::repo("data/vote.arff") + " --folds 5 --format json --threads 1").out);
  EXPECT_EQ(j["accuracy"], j1["accuracy"]);
  EXPECT_EQ(j["log_loss"], j1["log_loss"]);
}

TEST(Cli, EvaluateWithTestFile) {
  CliResult r = run_stdout("evaluate " + test::shared("monks-3.train.arff") + " --test " + test::shared("monks-3.test.arff") +
                     " --learner cn2-ordered --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["folds"][0]["test_rows"], 432);
}

TEST(Cli, EvcFitPrintsItsCalibration) {
  std::string model = test::write_temp("vote-evc.json", "");
  CliResult r = run("fit " + test::repo("data/vote.arff") + " -o " + model +
                    " --quality evc --evc-permutations 10 --evc-fit ml --seed 5 --threads 2");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(model));
  EXPECT_EQ(j["evc"]["permutations"], 10);
  EXPECT_EQ(j["evc"]["fit"], "ml");
  EXPECT_EQ(j["evc"]["seed"], 5);
  EXPECT_EQ(j["evc"]["laws"]["democrat"].size(), 5u);
  CliResult rules = run_stdout("rules " + model);
  EXPECT_NE(rules.out.find("EVC calibration: 10 class permutations (seed 5), Gumbel fit ml"), std::string::npos)
      << rules.out;
  r = run("fit " + test::repo("data/vote.arff") + " -o /dev/null --quality evc --evc-fit median");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown Gumbel fit 'median'"), std::string::npos) << r.out;
  EXPECT_EQ(run("fit " + test::repo("data/vote.arff") + " -o /dev/null --quality evc --evc-permutations 0").code, 2);
}

// The experiments run end to end and write their tables; on the chi2 experiment EVC removes the
// optimism the uncorrected best chi2 has when true qualities vary (paper 000, Fig. 5).
TEST(Cli, EvcExperimentsWriteTheirTables) {
  const std::string out = test::write_temp("exp-placeholder", "") + "-dir";
  CliResult r = run_stdout("experiment evc-chi2 --no-plots --permutations 30 --threads 2 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream summary(out + "/summary.csv");
  ASSERT_TRUE(summary.good());
  std::map<std::string, double> rmse;  // "scenario/method" -> RMSE
  std::string line;
  std::getline(summary, line);
  while (std::getline(summary, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
    ASSERT_EQ(cells.size(), 5u) << line;
    rmse[cells[0] + "/" + cells[1]] = std::stod(cells[3]);
  }
  EXPECT_LT(rmse.at("normal/EVC"), rmse.at("normal/uncorrected"));
  EXPECT_LT(rmse.at("same-quality/pessimistic"), rmse.at("same-quality/uncorrected"));
  EXPECT_TRUE(std::filesystem::exists(out + "/points.md"));
  EXPECT_TRUE(std::filesystem::exists(out + "/plots.json"));

  r = run_stdout("experiment evc-uci --no-plots --permutations 10 --datasets iris vote --datasets-dir " +
                 test::datasets_dir() + " --out " + out + "-uci");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("| RMSE | 2 |"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out + "-uci/table3.csv"));
  EXPECT_EQ(run("experiment no-such-thing").code, 2);
}
