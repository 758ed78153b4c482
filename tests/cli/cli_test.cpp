#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "candor/evc/rule_correction.hpp"
#include "candor/experiments/grid.hpp"
#include "candor/experiments/weka.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/stats/binomial_interval.hpp"
#include "candor/util/process.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {
std::string read_text(const std::string& path);
struct CliResult {
  int code;
  std::string out;
};
// Runs the candor binary with the words of `args` (test::split_words); stderr joins stdout unless
// `quiet_stderr`.
CliResult run(const std::string& args, bool quiet_stderr = false) {
  std::vector<std::string> argv{CANDOR_CLI_PATH};
  for (auto& w : test::split_words(args)) argv.push_back(std::move(w));
  ProcessOptions o;
  o.capture_stdout = true;
  if (quiet_stderr)
    o.stderr_path = "/dev/null";
  else
    o.stderr_to_stdout = true;
  const ProcessResult r = run_process(argv, o);
  return {r.exit_code, r.output};
}
CliResult run_stdout(const std::string& args) { return run(args, true); }
}  // namespace

TEST(Cli, BadInputExitsWithTwoAndNamesFileLineReason) {
  std::string bad =
      test::write_temp("bad.arff", "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\nz,q\n");
  CliResult r = run("fit " + bad + " -o /dev/null");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(bad + ":6: value 'z' is not declared"), std::string::npos) << r.out;
  r = run("evaluate /nonexistent.arff");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot open"), std::string::npos);
  r = run("fit " + test::repo("data/vote.arff") + " -o /dev/null --quality gini");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown quality measure 'gini'"), std::string::npos) << r.out;
  for (auto [options, message] :
       {std::pair{"--learner cn2-unordered --combine vote", "unknown combination 'vote'"},
        std::pair{"--stop maybe", "unknown stopping criterion 'maybe'"},
        std::pair{"--learner cn2-ordered --combine counts",
                  "--combine is an option of --learner cn2-unordered (rule sets), not of --learner cn2-ordered"},
        std::pair{"--prior-weight -1", "prior weight must be non-negative"}}) {
    r = run("fit " + test::repo("data/vote.arff") + " -o /dev/null " + options);
    EXPECT_EQ(r.code, 2) << options;
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
  }
  EXPECT_EQ(run("fit").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  std::string not_model = test::write_temp("notmodel.json", "{\"format\": \"other\"}");
  r = run("rules " + not_model);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not a candor model"), std::string::npos) << r.out;
}

TEST(Cli, FitRulesPredictExplain) {
  std::string model = test::write_temp("vote-model.json", "");
  CliResult r = run("fit " + test::repo("data/vote.arff") + " -o " + model + " --learner cn2-unordered --beam-width 3");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(model));
  EXPECT_EQ(j["format"], "candor-model");
  EXPECT_EQ(j["learner"]["beam_width"], 3);
  EXPECT_EQ(j["learner"]["quality"], "m-estimate");  // CN2's defaults: m = sqrt(435), prior test, lift product
  EXPECT_EQ(j["learner"]["correct"], "none");
  EXPECT_NEAR(j["learner"]["m"].get<double>(), std::sqrt(435.0), 1e-9);
  EXPECT_EQ(j["learner"]["stop"], "prior");
  EXPECT_EQ(j["learner"]["combine"], "lift-product");
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
  EXPECT_EQ(header, "row,predicted,actual,p(democrat),p(republican),rules");
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
  for (const char* key : {"accuracy", "auc", "brier", "brier_kind", "log_loss", "ece", "rules", "mean_rule_length",
                          "fit_seconds", "folds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["brier_kind"], "binary (p - y)^2");
  EXPECT_EQ(j["folds"].size(), 5u);
  EXPECT_GT(j["accuracy"].template get<double>(), 0.9);
  // The confusion matrix holds every row once, its diagonal is the accuracy, and it names its classes.
  const auto& confusion = j["confusion"];
  EXPECT_EQ(confusion["classes"], nlohmann::json({"democrat", "republican"}));
  double rows = 0, right = 0;
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t p = 0; p < 2; ++p) {
      rows += confusion["counts"][a][p].get<double>();
      if (a == p) right += confusion["counts"][a][p].get<double>();
    }
  EXPECT_EQ(rows, 435);
  EXPECT_NEAR(right / rows, j["accuracy"].get<double>(), 0.01);  // the mean of 5 fold accuracies
  EXPECT_EQ(confusion["per_class"][0]["support"], 267);
  for (const char* key : {"precision", "recall", "f1"}) EXPECT_TRUE(confusion["per_class"][1].contains(key)) << key;
  EXPECT_GT(confusion["kappa"].get<double>(), 0.8);
  EXPECT_NE(run_stdout("evaluate " + test::repo("data/vote.arff") + " --folds 5").out.find("Confusion matrix"),
            std::string::npos);
  // Same seed, other thread count: same numbers.
  auto j1 = nlohmann::json::parse(
      run_stdout("evaluate " + test::repo("data/vote.arff") + " --folds 5 --format json --threads 1").out);
  EXPECT_EQ(j["accuracy"], j1["accuracy"]);
  EXPECT_EQ(j["log_loss"], j1["log_loss"]);
}

// PrIL leaves cases undecided: they claim no probability, so the reliability diagram leaves them out and its
// title says how many; with the decided ones they make up every test row.
TEST(Cli, ReliabilityDiagramLeavesUndecidedCasesOut) {
  const auto dir = std::filesystem::temp_directory_path() / "candor-tests" / "calibration-pril";
  std::filesystem::remove_all(dir);
  CliResult r = run("evaluate " + test::shared("credit-a.arff") +
                    " --learner pril --reliability 0.8 --folds 5 --plot " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream bins(dir / "reliability.csv");
  std::string line;
  std::getline(bins, line);
  double count = 0;
  while (std::getline(bins, line)) count += std::stod(line.substr(line.find(',', line.find(',') + 1) + 1));
  std::ifstream spec_file(dir / "plots.json");
  const auto spec = nlohmann::json::parse(spec_file);
  const std::string title = spec["figures"][0]["panels"][0]["title"];
  const auto at = title.find(" undecided left out");
  ASSERT_NE(at, std::string::npos) << title;
  const auto start = title.rfind(' ', at - 1) + 1;
  const double undecided = std::stod(title.substr(start, at - start));
  EXPECT_GT(undecided, 0);
  EXPECT_GT(count, 0);
  EXPECT_EQ(count + undecided, 690);
}

TEST(Cli, EvaluatePlotWritesTheReliabilityDiagramAndRulePoints) {
  const auto dir = std::filesystem::temp_directory_path() / "candor-tests" / "calibration";
  std::filesystem::remove_all(dir);
  CliResult r = run("evaluate " + test::shared("credit-a.arff") + " --folds 5 --plot " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ECE"), std::string::npos);
  EXPECT_NE(r.out.find("(binary (p - y)^2)"), std::string::npos);
  // The bins hold every test prediction once (690 rows over the 5 folds); observed shares are in [0, 1].
  std::ifstream bins(dir / "reliability.csv");
  std::string line;
  std::getline(bins, line);
  EXPECT_EQ(line, "lo,hi,count,mean_predicted,observed");
  double count = 0;
  while (std::getline(bins, line)) {
    std::vector<double> v;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 5u);
    count += v[2];
    EXPECT_GE(v[3], v[0] - 1e-9);  // the mean confidence lies in its bin
    EXPECT_LE(v[3], v[1] + 1e-9);
    EXPECT_GE(v[4], 0);
    EXPECT_LE(v[4], 1);
  }
  EXPECT_EQ(count, 690);
  std::ifstream rules(dir / "rules.csv");
  std::getline(rules, line);
  EXPECT_EQ(line, "repeat,fold,rule,probability,test_share,decided,interval_low,interval_high");
  int points = 0;
  std::set<std::pair<int, int>> fold_and_rule;
  while (std::getline(rules, line)) {
    ++points;
    std::vector<double> v;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 8u);
    EXPECT_GE(v[2], 1);  // the rule's number, as `candor rules` prints it: once per fold
    EXPECT_TRUE(fold_and_rule.insert({static_cast<int>(v[1]), static_cast<int>(v[2])}).second) << line;
    EXPECT_LE(v[6], v[3]);  // each rule's interval holds its probability
    EXPECT_GE(v[7], v[3]);
  }
  EXPECT_GT(points, 10);
  EXPECT_TRUE(std::filesystem::exists(dir / "plots.json"));
}

TEST(Cli, RulesShowProbabilityIntervals) {
  std::string model = test::write_temp("vote-correct-evc.json", "");
  ASSERT_EQ(run("fit " + test::repo("data/vote.arff") + " -o " + model +
                " --learner cn2-unordered --correct evc --evc-permutations 20")
                .code,
            0);
  CliResult rules = run_stdout("rules " + model);
  ASSERT_EQ(rules.code, 0);
  EXPECT_NE(rules.out.find("corrected for the search by EVC"), std::string::npos) << rules.out;
  EXPECT_NE(rules.out.find("lower end of the Clopper-Pearson interval of the relative frequency"), std::string::npos);
  // Each rule's interval runs from EVC's correction of the lower Clopper-Pearson end of its training
  // frequency (a rule set estimates on the whole training set) to the upper end, computed here from the
  // parts, and it holds the probability.
  const RuleModel m = load_rule_model(model);
  ASSERT_TRUE(m.evc);
  const double positives_total = m.training_counts[0] + m.training_counts[1];
  for (const Rule& r : m.rules) {
    const double n = r.training_counts[0] + r.training_counts[1],
                 s = r.training_counts[static_cast<std::size_t>(r.klass)];
    const auto [f_lo, f_hi] = clopper_pearson(s, n);
    const GumbelLaw& law = m.evc->law(r.klass, static_cast<int>(r.conditions.size()));
    const double p = m.training_counts[static_cast<std::size_t>(r.klass)];
    EXPECT_NEAR(r.interval.first,
                std::min(r.probability, evc_correct(f_lo * n, n, p, positives_total, law).probability), 1e-9);
    EXPECT_NEAR(r.interval.second, std::max(r.probability, f_hi), 1e-12);
    EXPECT_LE(r.interval.first, r.probability);
    EXPECT_GE(r.interval.second, r.probability);
    EXPECT_LT(r.interval.first, r.interval.second);
    // The correction moves the lower end: the interval is not the raw frequency's.
    EXPECT_LT(r.interval.first, f_lo);
  }
  // A hand-edited interval that leaves its probability out is refused.
  auto j = nlohmann::json::parse(std::ifstream(model));
  j["rules"][0]["interval"] = {0.0, 0.01};
  const std::string edited = test::write_temp("vote-interval-edited.json", j.dump());
  const CliResult refused = run("rules " + edited);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.out.find("does not hold the probability"), std::string::npos) << refused.out;
}

TEST(Cli, EvaluateWithTestFile) {
  CliResult r = run_stdout("evaluate " + test::shared("monks-3.train.arff") + " --test " +
                           test::shared("monks-3.test.arff") + " --learner cn2-ordered --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["folds"][0]["test_rows"], 432);
}

TEST(Cli, EvcFitPrintsItsCalibration) {
  std::string model = test::write_temp("vote-evc.json", "");
  CliResult r = run("fit " + test::repo("data/vote.arff") + " -o " + model +
                    " --learner cn2-unordered --quality evc --evc-permutations 10 --evc-fit ml --seed 5 --threads 2");
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

// tests/data/four_learners_auc.csv: four learners on 14 data sets whose average ranks are those of Demšar
// (2006), section 3.2.2 (3.143, 2.000, 2.893, 1.964): chi2 9.28, F 3.69, Nemenyi CD 1.254 (one group),
// Bonferroni-Dunn CD 1.168 with C4.5 as control, which separates only C4.5+m+cf (3.143 - 1.964 = 1.179).
// Its C4.5 and C4.5+m columns are Demšar's Table 2 (Wilcoxon R+ 93, R- 12).
TEST(Cli, StatsOnAResultsTable) {
  const std::string csv = test::repo("tests/data/four_learners_auc.csv");
  CliResult r = run_stdout("stats friedman " + csv + " --metric auc --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["chi2"].get<double>(), 9.28, 0.005);
  EXPECT_NEAR(j["iman_davenport_F"].get<double>(), 3.69, 0.005);
  EXPECT_NEAR(j["p"].get<double>(), 0.0258, 0.0005);
  EXPECT_LT(j["p_F"].get<double>(), 0.05);
  EXPECT_NEAR(j["average_ranks"]["C4.5+m+cf"].get<double>(), 1.964, 0.001);
  EXPECT_NEAR(j["average_ranks"]["C4.5"].get<double>(), 3.143, 0.001);

  r = run_stdout("stats cd " + csv + " --metric auc --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["test"], "nemenyi");
  EXPECT_NEAR(j["cd"].get<double>(), 1.254, 0.001);
  EXPECT_EQ(j["groups"], nlohmann::json::parse(R"([["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]])"));

  r = run_stdout("stats cd " + csv + " --metric auc --control C4.5 --format json");
  j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["cd"].get<double>(), 1.168, 0.001);
  EXPECT_EQ(j["same_as_control"], nlohmann::json::parse(R"(["C4.5", "C4.5+m", "C4.5+cf"])"));

  r = run_stdout("stats pairwise " + csv + " --metric auc --control C4.5 --format json");
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["pairs"].size(), 3u);
  EXPECT_EQ(j["pairs"][0]["a"], "C4.5");
  EXPECT_EQ(j["pairs"][0]["b"], "C4.5+m");
  EXPECT_DOUBLE_EQ(j["pairs"][0]["wilcoxon_r_plus"].get<double>(), 12);
  EXPECT_DOUBLE_EQ(j["pairs"][0]["wilcoxon_r_minus"].get<double>(), 93);
  EXPECT_EQ(j["pairs"][0]["losses"], 10);

  r = run_stdout("stats ranks " + csv + " --metric auc");
  EXPECT_NE(r.out.find("| C4.5+m+cf | 0.8272 | 1.964 |"), std::string::npos) << r.out;
  // The same table tab-separated (.tsv).
  std::string tsv_text = read_text(csv);
  std::replace(tsv_text.begin(), tsv_text.end(), ',', '\t');
  const std::string tsv = test::write_temp("four_learners_auc.tsv", tsv_text);
  r = run_stdout("stats friedman " + tsv + " --metric auc --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(nlohmann::json::parse(r.out)["chi2"].get<double>(), 9.28, 0.005);
}

// Rows of one data set and learner are averaged (folds); a data set where a learner has no value is left
// out and named; lower-is-better metrics rank the smallest first; bad input exits 2 naming file and line.
TEST(Cli, StatsAveragesFoldsAndReportsBadInput) {
  const std::string csv = test::write_temp("folds.csv",
                                           "dataset,learner,fold,brier,custom\n"
                                           "a,x,0,0.1,1\na,x,1,0.3,1\na,y,0,0.4,2\na,y,1,0.4,2\n"
                                           "b,x,0,0.2,1\nb,y,0,0.1,2\n"
                                           "c,x,0,0.3,1\nc,y,0,0.5,2\n"
                                           "d,x,0,0.3,1\nd,y,0,n/a,2\n");
  CliResult r = run_stdout("stats ranks " + csv + " --metric brier --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  // a: x 0.2 < y 0.4; b: y better; c: x better -> x ranks 1, 2, 1 = 1.333
  EXPECT_NEAR(j["average_ranks"]["x"].get<double>(), 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(j["mean_scores"]["x"].get<double>(), (0.2 + 0.2 + 0.3) / 3, 1e-12);
  EXPECT_EQ(j["incomplete"], nlohmann::json::parse(R"(["d"])"));
  EXPECT_EQ(j["n_datasets"], 3);

  r = run("stats ranks " + csv + " --metric custom");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--higher-is-better or --lower-is-better"), std::string::npos) << r.out;
  EXPECT_EQ(run_stdout("stats ranks " + csv + " --metric custom --higher-is-better").code, 0);
  r = run("stats ranks " + csv + " --metric accuracy");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(csv + ":1: no column 'accuracy'"), std::string::npos) << r.out;
  const std::string bad = test::write_temp("bad-results.csv", "dataset,learner,accuracy\na,x,0.5\na,y,high\n");
  r = run("stats ranks " + bad + " --metric accuracy");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(bad + ":3: 'high' in column 'accuracy' is not a number"), std::string::npos) << r.out;
}

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
// results.csv lines without the timing columns (fit_seconds and predict_seconds, the 16th and 17th),
// sorted: what must not change on a resume.
std::vector<std::string> result_cells(const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(read_text(path));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (line.back() == ',') cells.push_back("");
    cells.erase(cells.begin() + 15, cells.begin() + 17);
    std::string kept;
    for (const auto& c : cells) kept += (kept.empty() ? "" : ",") + c;
    out.push_back(kept);
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

// A grid of three learners on three data sets: every cell lands in results.csv, the folds are those of
// `candor evaluate` with the same seed, an interrupted run (cut-off results file) resumes with identical
// numbers on another thread count, and a changed learner definition under an old name is refused.
TEST(Cli, GridRunsResumesAndSummarises) {
  const std::string out = (std::filesystem::temp_directory_path() / "candor-tests" / "grid").string();
  std::filesystem::remove_all(out);
  const std::string grid = "experiment grid --out " + out + " --datasets-dir " + test::datasets_dir() +
                           " --datasets iris vote " + test::repo("data/vote.arff") +
                           " --folds 3 --seed 4 --no-plots --learner 'laplace=--quality laplace' "
                           "'ordered=--learner cn2-ordered --beam-width 3' 'm=--quality m-estimate --m 10'";
  CliResult r = run(grid + " --threads 2");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto first = result_cells(out + "/results.csv");
  ASSERT_EQ(first.size(), 3u * 3u * 3u);
  EXPECT_NE(r.out.find("grid: 27 cells"), std::string::npos) << r.out;

  // Same folds as candor evaluate: mean accuracy of `ordered` on iris.
  auto j = nlohmann::json::parse(read_text(out + "/comparison_accuracy.json"));
  CliResult ev = run_stdout("evaluate " + test::shared("iris.arff") +
                            " --learner cn2-ordered --beam-width 3 --folds 3 --seed 4 --format json");
  ASSERT_EQ(ev.code, 0);
  double grid_iris = 0;
  std::istringstream means(read_text(out + "/means_accuracy.csv"));
  std::string line;
  while (std::getline(means, line))
    if (line.rfind("iris,", 0) == 0) grid_iris = std::stod(line.substr(line.rfind(',', line.rfind(',') - 1) + 1));
  EXPECT_NEAR(grid_iris, nlohmann::json::parse(ev.out)["accuracy"].get<double>(), 5e-5);
  EXPECT_EQ(j["n_datasets"], 3);
  EXPECT_TRUE(j.contains("chi2") && j.contains("nemenyi") && j["average_ranks"].contains("laplace"));
  EXPECT_NE(read_text(out + "/summary.md").find("## accuracy"), std::string::npos);

  // Interrupt: keep the header and ten cells, plus half of the eleventh line.
  {
    std::istringstream in(read_text(out + "/results.csv"));
    std::string kept, l;
    for (int i = 0; i < 11 && std::getline(in, l); ++i) kept += l + "\n";
    std::getline(in, l);
    kept += l.substr(0, l.size() / 2);
    std::ofstream(out + "/results.csv") << kept;
  }
  r = run(grid + " --threads 1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("10 already in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dropping an incomplete last line"), std::string::npos) << r.out;
  EXPECT_EQ(result_cells(out + "/results.csv"), first);

  // Nothing left to run.
  r = run(grid);
  EXPECT_NE(r.out.find("27 already in"), std::string::npos) << r.out;
  EXPECT_EQ(result_cells(out + "/results.csv"), first);

  // Another learner under an old name.
  r = run("experiment grid --out " + out + " --datasets iris --datasets-dir " + test::datasets_dir() +
          " --folds 3 --seed 4 --learner 'laplace=--quality entropy'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("another learner named 'laplace'"), std::string::npos) << r.out;
  // Bad learner options and a config file with an unknown key.
  r = run("experiment grid --out " + out + "-x --datasets iris --learner 'x=--beam-wdth 3'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("learner 'x'"), std::string::npos) << r.out;
  const std::string cfg = test::write_temp("grid.json", "{\"learners\": {\"a\": \"\"}, \"dataset\": [\"iris\"]}");
  r = run("experiment grid --out " + out + "-y --config " + cfg);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(cfg + ": at /dataset: unknown key 'dataset'"), std::string::npos) << r.out;
}

// The cell-level pieces (what the Python package sends to a Dask cluster) give the lines run_grid writes,
// cell by cell and in any order, and prepare_grid hands out only the cells not yet written.
TEST(Grid, CellsRunOneByOneGiveTheLinesOfTheWholeGrid) {
  const std::string out = (std::filesystem::temp_directory_path() / "candor-tests" / "grid-cells").string();
  std::filesystem::remove_all(out);
  GridSpec grid;
  grid.learners = {make_grid_learner("a", "--quality laplace"), make_grid_learner("b", "--learner tree")};
  grid.datasets = {"iris", "labor"};
  grid.resampling.folds = 3;
  grid.seed = 7;
  GridRunOptions o;
  o.out = out + "/whole";
  o.datasets_dir = test::datasets_dir();
  o.progress = false;
  o.plots = false;
  run_grid(grid, o);

  GridCellRunner runner(grid, test::datasets_dir());
  o.out = out + "/cells";
  std::vector<GridCell> pending = prepare_grid(runner, o);
  ASSERT_EQ(pending.size(), 2u * 2u * 3u);
  EXPECT_EQ(pending.size(), runner.cells().size());
  EXPECT_EQ(pending.front().dataset, "labor");  // most work first: 57 x 16 cells against 150 x 4
  // Half the cells, last first; then the rest.
  for (std::size_t i = pending.size(); i-- > pending.size() / 2;) append_grid_result(o, runner.run(pending[i], 1));
  pending = prepare_grid(runner, o);
  ASSERT_EQ(pending.size(), 6u);
  for (const auto& c : pending) append_grid_result(o, runner.run(c, 2));
  EXPECT_TRUE(prepare_grid(runner, o).empty());
  EXPECT_EQ(result_cells(out + "/cells/results.csv"), result_cells(out + "/whole/results.csv"));
  EXPECT_THROW(runner.run({"iris", "c", 0, 0}, 1), std::invalid_argument);
  EXPECT_THROW(runner.run({"iris", "a", 0, 3}, 1), std::invalid_argument);
  EXPECT_THROW(runner.run({"vote", "a", 0, 0}, 1), std::invalid_argument);
}

// Both experiments of issue 4 end to end on small data: their tables exist with the documented columns and
// rows, and the numbers are what the learners give.
TEST(Cli, OversearchingAndHeuristicsExperimentsRun) {
  const auto dir = std::filesystem::temp_directory_path() / "candor-tests";
  const std::string os = (dir / "oversearching").string(), rh = (dir / "heuristics").string();
  std::filesystem::remove_all(os);
  std::filesystem::remove_all(rh);
  CliResult r = run("experiment oversearching --repeats 2 --datasets iris labor --no-plots --datasets-dir " +
                    test::datasets_dir() + " --out " + os);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string table = read_text(os + "/table3.csv");
  EXPECT_NE(table.find("dataset,error GS %,error LS %,error ES %"), std::string::npos) << table;
  EXPECT_NE(table.find("\nRatio to LS,"), std::string::npos);
  EXPECT_NE(table.find(",1.000,"), std::string::npos);  // LS against itself
  const std::string curves = read_text(os + "/curves.csv");
  EXPECT_NE(curves.find("iris,512,test error,"), std::string::npos);
  EXPECT_NE(curves.find("labor,1,estimated L,"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(os + "/plots.json"));

  r = run("experiment refinement-heuristics --folds 3 --datasets iris labor vote --no-plots --datasets-dir " +
          test::datasets_dir() + " --out " + rh);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(result_cells(rh + "/results.csv").size(), 12u * 3u * 3u);
  const std::string acc = read_text(rh + "/accuracy_table.csv");
  EXPECT_NE(acc.find("lap / mod-lap"), std::string::npos);
  EXPECT_NE(acc.find("\ndata sets won,"), std::string::npos);
  EXPECT_NE(read_text(rh + "/auc_binary.csv").find("\nlabor,"), std::string::npos);  // labor and vote are binary
  EXPECT_EQ(read_text(rh + "/auc_binary.csv").find("\niris,"), std::string::npos);
  // The accuracy of one combination equals candor evaluate's on the same folds.
  CliResult ev = run_stdout("evaluate " + test::shared("vote.arff") +
                            " --learner decision-list --quality laplace --refine-quality modified-laplace --folds 3 "
                            "--format json");
  ASSERT_EQ(ev.code, 0);
  EXPECT_TRUE(nlohmann::json::parse(read_text(rh + "/comparison_accuracy.json")).contains("nemenyi"));
  std::istringstream rows(acc);
  std::string line, header;
  std::getline(rows, header);
  std::vector<std::string> cols;
  {
    std::istringstream h(header);
    for (std::string c; std::getline(h, c, ',');) cols.push_back(c);
  }
  const auto col = std::find(cols.begin(), cols.end(), "lap / mod-lap") - cols.begin();
  while (std::getline(rows, line))
    if (line.rfind("vote,", 0) == 0) {
      std::istringstream l(line);
      std::vector<std::string> cells;
      for (std::string c; std::getline(l, c, ',');) cells.push_back(c);
      EXPECT_NEAR(std::stod(cells[static_cast<std::size_t>(col)]) / 100,
                  nlohmann::json::parse(ev.out)["accuracy"].get<double>(), 5e-5);
    }
}

// `candor fit DATA` with no options: CN2 rules ranked by the m-estimate, their probabilities corrected by EVC,
// combined by a rules-only logistic model at lambda 0.01; the model file, the rules text and the
// predictions say so.
TEST(Cli, TheDefaultFitIsHonestRulesInALogisticModel) {
  const std::string model = test::write_temp("cli-default.json", "");
  const std::string data = test::repo("data/vote.arff");
  CliResult r = run("fit " + data + " -o " + model);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("rule-logistic model"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(std::ifstream(model));
  EXPECT_EQ(j["model"], "rule-logistic");
  EXPECT_EQ(j["learner"]["learner"], "rule-logistic");
  EXPECT_EQ(j["learner"]["quality"], "m-estimate");
  EXPECT_EQ(j["learner"]["correct"], "evc");
  EXPECT_EQ(j["learner"]["features"], "rules");
  EXPECT_EQ(j["learner"]["lambda_search"], "none");
  EXPECT_EQ(j["lambda"], 0.01);
  EXPECT_FALSE(j.contains("lambda_search"));  // no cross-validation was run
  EXPECT_TRUE(j["attribute_columns"].empty());
  ASSERT_TRUE(j["rule_model"].contains("evc"));
  EXPECT_EQ(j["rule_model"]["evc"]["permutations"], 20);
  // Every rule's probability is the corrected one: below its raw training frequency, inside its interval.
  ASSERT_GT(j["rule_model"]["rules"].size(), 0u);
  for (const auto& rule : j["rule_model"]["rules"]) {
    const double p = rule["probability"].get<double>();
    const auto counts = rule["training_counts"].get<std::vector<double>>();
    const double n = counts[0] + counts[1];
    const double f = (rule["class"] == "democrat" ? counts[0] : counts[1]) / n;
    EXPECT_LT(p, f) << rule.dump();
    EXPECT_LE(rule["interval"][0].get<double>(), p);
    EXPECT_GE(rule["interval"][1].get<double>(), p);
  }
  r = run_stdout("rules " + model);
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("corrected for the search by EVC"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("EVC calibration: 20 class permutations"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Attribute columns"), std::string::npos) << r.out;
  r = run_stdout("predict " + model + " " + data + " --proba");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "row,predicted,actual,p(democrat),p(republican)");
}

TEST(Cli, RuleLogisticFitsPrintsExplainsAndRefusesBrokenFiles) {
  const std::string model = test::write_temp("cli-rl.json", "");
  const std::string data = test::repo("data/vote.arff");
  CliResult r = run("fit " + data + " -o " + model +
                    " --learner rule-logistic --features rules+attributes --evc-permutations 20 --threads 1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("rule-logistic model"), std::string::npos) << r.out;
  r = run_stdout("rules " + model);
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Rules, most important first"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gamma"), std::string::npos);
  EXPECT_NE(r.out.find("Attribute columns, most important first"), std::string::npos);
  r = run_stdout("predict " + model + " " + data + " --proba --explain");
  EXPECT_EQ(r.code, 0);
  std::istringstream lines(r.out);
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(header, "row,predicted,actual,p(democrat),p(republican),rules");
  // The explanation names features with their signed effect on the logit.
  EXPECT_TRUE(first.find(" +") != std::string::npos || first.find(" -") != std::string::npos) << first;
  // A model file whose weights do not fit its rules is refused with exit code 2, naming the file.
  std::ifstream in(model);
  nlohmann::json j = nlohmann::json::parse(in);
  j["rule_weights"][0].push_back(1.0);
  const std::string broken = test::write_temp("cli-rl-broken.json", j.dump());
  r = run("predict " + broken + " " + data);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(broken), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rule_weights"), std::string::npos) << r.out;
  // Logistic options on a rule learner are an error, not silently ignored.
  r = run("fit " + data + " -o /dev/null --learner cn2-unordered --lambda 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--lambda is an option of --learner rule-logistic, not of --learner cn2-unordered"),
            std::string::npos)
      << r.out;
}

TEST(Cli, AnOutputFolderThatCannotBeMadeIsABadPathNotACrash) {
  const std::string file = test::write_temp("in-the-way", "a file, not a folder");
  CliResult r =
      run("experiment grid --learner 'a=--quality laplace' --datasets iris --no-plots --out " + file + "/sub");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(file + "/sub"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
}

TEST(Cli, TreesAndEnsemblesFitPrintExplainAndRefuseOthersOptions) {
  const std::string model = test::write_temp("cli-boost.json", "");
  const std::string data = test::repo("data/vote.arff");
  CliResult r = run("fit " + data + " -o " + model + " --learner boost --boosting kbs --base tree --iterations 3");
  ASSERT_EQ(r.code, 0) << r.out;
  r = run_stdout("rules " + model);
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Member 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LIFT per leaf and class (democrat, republican)"), std::string::npos) << r.out;
  r = run_stdout("predict " + model + " " + data + " --proba --explain");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(",member "), std::string::npos) << r.out.substr(0, 300);
  r = run("fit " + data + " -o " + model + " --learner tree");
  ASSERT_EQ(r.code, 0) << r.out;
  r = run_stdout("rules " + model);
  EXPECT_NE(r.out.find("physician-fee-freeze = n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Leaves as rules"), std::string::npos);
  r = run_stdout("predict " + model + " " + data + " --explain");
  EXPECT_NE(r.out.find(",leaf "), std::string::npos) << r.out.substr(0, 300);
  // An option the learner does not read is an error naming who reads it.
  r = run("fit " + data + " -o /dev/null --learner tree --quality laplace");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--quality is an option of --learner cn2-unordered"), std::string::npos) << r.out;
  r = run("fit " + data + " -o /dev/null --learner boost --boosting logitboost --base tree");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("regression stumps"), std::string::npos) << r.out;
}

TEST(Cli, KbsExperimentRunsOnChosenDataSets) {
  const auto dir = std::filesystem::temp_directory_path() / "candor-tests" / "kbs";
  std::filesystem::remove_all(dir);
  CliResult r = run("experiment kbs --folds 2 --datasets labor iris --no-plots --datasets-dir " + test::datasets_dir() +
                    " --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string md = read_text((dir / "kbs.md").string());
  EXPECT_NE(md.find("## Binary data sets"), std::string::npos);
  EXPECT_NE(md.find("| accuracy | "), std::string::npos);
  EXPECT_NE(read_text((dir / "results.csv").string()).find("labor,KBS-tree,"), std::string::npos);
}

// A results file written before the adjusted-accuracy columns existed is migrated (its cells kept, the new
// columns empty) and the grid resumes after it.
TEST(Cli, GridMigratesAnOlderResultsFile) {
  const auto dir = std::filesystem::temp_directory_path() / "candor-tests" / "grid-old";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "results.csv")
      << "dataset,learner,repeat,fold,train_rows,test_rows,accuracy,auc,brier,log_loss,ece,rule_rmse,rules,conditions,"
         "mean_rule_length,fit_seconds,predict_seconds\n"
         "iris,a,0,0,100,50,0.5,0.5,0.5,0.5,0.5,0.5,1,1,1,0.1,0.1\n"
         "iris,a,0,1,100,50,0.5,0.5,0.5,0.5,0.5,0.5,1,1,1,0.1,0.2\r\n";  // rewritten by Python's csv module
  CliResult r = run("experiment grid --learner 'a=--quality laplace' --datasets iris --folds 3 --no-plots --out " +
                    dir.string() + " --datasets-dir " + test::datasets_dir());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string text = read_text((dir / "results.csv").string());
  EXPECT_EQ(text.substr(0, text.find('\n')).substr(text.find("predict_seconds")),
            "predict_seconds,adjusted_accuracy,undecided_rate,adjusted_average_reliability");
  EXPECT_NE(text.find("\niris,a,0,0,100,50,0.5,0.5,0.5,0.5,0.5,0.5,1,1,1,0.1,0.1,,,\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\niris,a,0,1,100,50,0.5,0.5,0.5,0.5,0.5,0.5,1,1,1,0.1,0.2,,,\n"), std::string::npos) << text;
  EXPECT_EQ(result_cells((dir / "results.csv").string()).size(), 3u);
}

TEST(Cli, PrilPredictsUndecidedAndItsExperimentRuns) {
  const std::string model = test::write_temp("cli-pril.json", "");
  const std::string data = test::shared("credit-a.arff");
  CliResult r = run("fit " + data + " -o " + model + " --learner pril --reliability 0.8");
  ASSERT_EQ(r.code, 0) << r.out;
  r = run_stdout("predict " + model + " " + data + " --explain");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(",undecided,"), std::string::npos) << r.out.substr(0, 400);  // predicted and explained
  r = run_stdout("rules " + model);
  EXPECT_NE(r.out.find("[reliability 0."), std::string::npos) << r.out;
  r = run_stdout("evaluate " + data + " --learner pril --reliability 0.8 --folds 3");
  EXPECT_NE(r.out.find("adjusted accuracy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("adjusted average reliability"), std::string::npos) << r.out;
  // The plain accuracy says how it counts the undecided cases.
  EXPECT_NE(r.out.find("an undecided case counts by its most probable class"), std::string::npos) << r.out;

  const auto dir = std::filesystem::temp_directory_path() / "candor-tests" / "pril";
  std::filesystem::remove_all(dir);
  r = run("experiment pril --datasets vote --no-plots --permutations 10 --datasets-dir " + test::datasets_dir() +
          " --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string table = read_text((dir / "table2.csv").string());
  EXPECT_NE(table.find("\nvote,96.22,2.72,"), std::string::npos) << table;
  EXPECT_NE(read_text((dir / "guarantee.csv").string()).find("vote,PrIL (reliability),"), std::string::npos);
}

// A Weka peer in a grid runs through Java's argument vector: its classifier's options reach Weka, the folds
// are candor's, and its predictions are read back (scripts/install-deps.sh installs Debian's weka).
TEST(Cli, GridRunsWekaPeersByArgumentVector) {
  ASSERT_TRUE(weka_available()) << "Weka is not installed or java does not run it (" << weka_jar() << ")";
  const std::string out = (std::filesystem::temp_directory_path() / "candor-tests" / "grid-weka").string();
  std::filesystem::remove_all(out);
  const CliResult r =
      run("experiment grid --out " + out + " --datasets-dir " + test::datasets_dir() +
          " --datasets iris --folds 3 --no-plots --learner 'zero=weka:weka.classifiers.rules.ZeroR' "
          "'j48=weka:weka.classifiers.trees.J48 -C 0.25 -M 2' 'pruned=weka:weka.classifiers.trees.J48 -U'");
  ASSERT_EQ(r.code, 0) << r.out;
  std::map<std::string, double> accuracy;
  std::istringstream lines(read_text(out + "/means_accuracy.csv"));
  std::string header, values;
  std::getline(lines, header);
  std::getline(lines, values);
  std::stringstream h(header), v(values);
  for (std::string name, value; std::getline(h, name, ',') && std::getline(v, value, ',');)
    if (name != "dataset") accuracy[name] = std::stod(value);
  EXPECT_NEAR(accuracy["zero"], 1.0 / 3.0, 0.02);  // the majority class of three equal ones
  EXPECT_GT(accuracy["j48"], 0.9);
  EXPECT_GT(accuracy["pruned"], 0.9);
  // Weka's own refusal of an option it does not know is reported with what Weka said, as bad input.
  std::filesystem::remove_all(out + "-bad");
  const CliResult bad =
      run("experiment grid --out " + out + "-bad --datasets-dir " + test::datasets_dir() +
          " --datasets iris --folds 2 --no-plots --learner 'x=weka:weka.classifiers.trees.J48 -nonsense'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("Weka (weka.classifiers.trees.J48 -nonsense) failed"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("nonsense"), bad.out.rfind("nonsense")) << "Weka's own words are missing: " << bad.out;
}

// A typo in an option or a value names the closest known one; a name nowhere near any does not.
TEST(Cli, TyposGetTheClosestName) {
  const std::string vote = test::repo("data/vote.arff");
  CliResult r = run("fit " + vote + " -o /dev/null --qualty evc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown option '--qualty'; did you mean '--quality'?"), std::string::npos) << r.out;
  r = run("fit " + vote + " -o /dev/null --quality evcc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("did you mean 'evc'?"), std::string::npos) << r.out;
  r = run("fit " + vote + " -o /dev/null --learner cn2-unordred");
  EXPECT_NE(r.out.find("did you mean 'cn2-unordered'?"), std::string::npos) << r.out;
  r = run("fit " + vote + " -o /dev/null --quality xyzzyq");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
}

// `--learner X --help` lists X's options, in groups by the part that reads them; without --learner every
// option is listed.
TEST(Cli, HelpOfOneLearnerListsItsOptions) {
  const std::string pril = run_stdout("fit --learner pril --help").out;
  EXPECT_NE(pril.find("--reliability"), std::string::npos);
  EXPECT_NE(pril.find("PrIL options"), std::string::npos);
  EXPECT_EQ(pril.find("--beam-width"), std::string::npos);
  EXPECT_EQ(pril.find("--iterations"), std::string::npos);
  const std::string cn2 = run_stdout("evaluate --learner cn2-unordered --help").out;
  EXPECT_NE(cn2.find("--combine"), std::string::npos);
  EXPECT_EQ(cn2.find("--refine-quality"), std::string::npos);  // decision-list's alone
  EXPECT_EQ(cn2.find("--reliability"), std::string::npos);
  const std::string all = run_stdout("fit --help").out;
  for (const char* flag : {"--reliability", "--beam-width", "--iterations", "--refine-quality", "--lambda"})
    EXPECT_NE(all.find(flag), std::string::npos) << flag;
}

// An explicit --m is the m used: the CN2 learners' default scale m = sqrt(N) applies only when --m is not
// given, and an explicit --m-scale still wins.
TEST(Cli, AnExplicitMIsHonoured) {
  const std::string model = test::write_temp("m-model.json", "");
  auto m_of = [&](const std::string& options) {
    EXPECT_EQ(run("fit " + test::repo("data/vote.arff") + " --learner cn2-unordered -o " + model + " " + options).code,
              0);
    const auto j = nlohmann::json::parse(read_text(model));
    return std::pair{j["learner"]["m"].get<double>(), j["learner"]["m_scale"].get<double>()};
  };
  EXPECT_EQ(m_of("--m 50"), (std::pair{50.0, 0.0}));
  EXPECT_EQ(m_of("--m 2"), (std::pair{2.0, 0.0}));
  EXPECT_NEAR(m_of("").first, std::sqrt(435.0), 1e-9);
  EXPECT_NEAR(m_of("--m 50 --m-scale 1").first, std::sqrt(435.0), 1e-9);
}

// A semicolon-separated file is refused with the way out named, and read with --delimiter (fit and predict).
TEST(Cli, DelimiterReadsOtherSeparators) {
  const std::string data =
      test::write_temp("semicolon.csv", "a;b;class\n1;x;yes\n2;y;no\n3;x;yes\n4;y;no\n5;x;yes\n6;y;no\n");
  const std::string model = test::write_temp("semicolon-model.json", "");
  CliResult r = run("fit " + data + " -o " + model);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--delimiter"), std::string::npos) << r.out;
  EXPECT_EQ(run("fit " + data + " -o " + model + " --delimiter semicolon --learner cn2-unordered").code, 0);
  const auto j = nlohmann::json::parse(read_text(model));
  EXPECT_EQ(j["attributes"].size(), 2u);
  r = run_stdout("predict " + model + " " + data + " --delimiter ;");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("1,yes,yes"), std::string::npos) << r.out;
  EXPECT_EQ(run("fit " + data + " -o " + model + " --delimiter ;;").code, 2);
}
