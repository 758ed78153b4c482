// candor evaluate DATA: cross-validation of a learner, or training on DATA and testing on --test.
#include "candor/eval/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "candor/errors.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/eval/stability.hpp"
#include "candor/experiments/calibration_report.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/experiments/report.hpp"
#include "candor/learn/params.hpp"
#include "candor/util/names.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "run_options.hpp"

namespace candor::cli {

namespace {

struct EvaluateArguments {
  std::string input, test, format = "text", calibration = "shared", plot;
  int folds = 10, repeats = 1;
  DataOptions data;
  RunOptions run;
  LearnerParams params;
};

nlohmann::json number_or_null(double x) { return std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x); }

// The keys shared by the mean result and each fold.
nlohmann::json summary_json(const Metrics& m, double rule_rmse, double rules, double mean_rule_length,
                            double fit_seconds, double predict_seconds) {
  return {{"accuracy", m.accuracy},
          {"auc", number_or_null(m.auc)},
          {"brier", m.brier},
          {"log_loss", m.log_loss},
          {"ece", m.ece},
          {"ece_floor", m.ece_floor},
          {"rule_rmse", number_or_null(rule_rmse)},
          {"rules", rules},
          {"mean_rule_length", mean_rule_length},
          {"fit_seconds", fit_seconds},
          {"predict_seconds", predict_seconds}};
}

// The confusion matrix summed over the folds, each class's precision, recall and F1, macro F1 and kappa.
nlohmann::json confusion_json(const EvaluationResult& r, const std::vector<std::string>& class_names) {
  const ConfusionSummary s = summarise_confusion(r.confusion);
  nlohmann::json per_class = nlohmann::json::array();
  for (std::size_t c = 0; c < s.classes.size(); ++c)
    per_class.push_back({{"class", class_names[c]},
                         {"precision", number_or_null(s.classes[c].precision)},
                         {"recall", number_or_null(s.classes[c].recall)},
                         {"f1", number_or_null(s.classes[c].f1)},
                         {"support", s.classes[c].support}});
  return {{"classes", class_names},
          {"counts", r.confusion},
          {"per_class", per_class},
          {"macro_f1", number_or_null(s.macro_f1)},
          {"kappa", number_or_null(s.kappa)}};
}

nlohmann::json evaluation_json(const EvaluationResult& r, const std::string& data, const LearnerParams& p,
                               const std::string& resampling, const std::vector<std::string>& class_names) {
  const std::size_t classes = class_names.size();
  nlohmann::json j = summary_json(r.mean, r.rule_rmse, r.rules, r.mean_rule_length, r.fit_seconds, r.predict_seconds);
  j["adjusted_accuracy"] = number_or_null(r.adjusted_accuracy);
  j["undecided_rate"] = number_or_null(r.undecided_rate);
  for (const auto& [name, value] : r.training_statistics) j[name] = value;
  j["brier_kind"] = brier_kind(classes);
  j["data"] = data;
  j["learner"] = params_to_json(p);
  j["resampling"] = resampling;
  if (r.evc_calibration) j["evc_calibration"] = name_of(kFoldCalibrationNames, *r.evc_calibration);
  j["confusion"] = confusion_json(r, class_names);
  nlohmann::json folds = nlohmann::json::array();
  for (const auto& f : r.folds) {
    nlohmann::json fj = summary_json(f.metrics, f.rule_rmse, static_cast<double>(f.rules), f.mean_rule_length,
                                     f.fit_seconds, f.predict_seconds);
    fj["adjusted_accuracy"] = number_or_null(f.adjusted_accuracy);
    fj["undecided_rate"] = number_or_null(f.undecided_rate);
    for (const auto& [name, value] : f.training_statistics) fj[name] = value;
    fj["repeat"] = f.repeat;
    fj["fold"] = f.fold;
    fj["test_rows"] = f.test_rows;
    folds.push_back(fj);
  }
  j["folds"] = folds;
  return j;
}

void print_evaluation_text(const EvaluationResult& r, const std::string& data, const LearnerParams& p,
                           const std::string& resampling, const std::vector<std::string>& class_names) {
  const std::size_t classes = class_names.size();
  // A model that may leave cases undecided (PrIL) still gives each its most probable class: say that the
  // accuracy, the other metrics and the confusion matrix count them so, beside the adjusted accuracy.
  const bool may_leave_undecided = r.undecided_rate > 0 || !r.training_statistics.empty();
  std::cout << "Data: " << data << "\nLearner: " << describe(p) << "\nResampling: " << resampling << "\n\n"
            << "  accuracy          " << format_number(r.mean.accuracy, 4)
            << (may_leave_undecided ? "  (an undecided case counts by its most probable class, as do the metrics below)"
                                    : "")
            << "\n"
            << "  AUC               " << format_number(r.mean.auc, 4) << "\n"
            << "  Brier score       " << format_number(r.mean.brier, 4) << "  (" << brier_kind(classes) << ")\n"
            << "  log loss          " << format_number(r.mean.log_loss, 4) << "\n"
            << "  ECE               " << format_number(r.mean.ece, 4) << "  (expected calibration error, 10 bins; "
            << format_number(r.mean.ece_floor, 4) << " if exactly calibrated)\n"
            << "  rule RMSE         " << format_number(r.rule_rmse, 4) << "  (rule probability vs test share)\n"
            << "  rules             " << format_number(r.rules, 1) << "\n"
            << "  mean rule length  " << format_number(r.mean_rule_length, 2) << "\n"
            << "  fit seconds       " << format_number(r.fit_seconds, 4) << "\n";
  if (may_leave_undecided)
    std::cout << "  adjusted accuracy " << format_number(r.adjusted_accuracy, 4)
              << "  (an undecided case counts as wrong)\n"
              << "  undecided         " << format_number(r.undecided_rate, 4) << "\n";
  for (const auto& [name, value] : r.training_statistics) {
    std::string label = name;
    for (auto& ch : label)
      if (ch == '_') ch = ' ';
    std::cout << "  " << label << " " << format_number(value, 4) << "  (training)\n";
  }
  if (r.folds.size() > 1) {
    double sd = 0;
    for (const auto& f : r.folds) sd += std::pow(f.metrics.accuracy - r.mean.accuracy, 2);
    sd = std::sqrt(sd / static_cast<double>(r.folds.size() - 1));
    std::cout << "  accuracy s.d. over folds " << format_number(sd, 4) << "\n";
  }
  // The confusion matrix over every test row (summed over the folds), then each class's scores.
  const ConfusionSummary s = summarise_confusion(r.confusion);
  std::size_t width = 9;  // "predicted"
  for (const auto& name : class_names) width = std::max(width, name.size());
  double n = 0;
  for (const auto& row : r.confusion)
    for (double v : row) n += v;
  width = std::max(width, std::to_string(static_cast<long long>(n)).size());
  auto cell = [&](const std::string& text) {
    return std::string(width + 2 - std::min(width + 2, text.size()), ' ') + text;
  };
  std::cout << "\n  kappa             " << format_number(s.kappa, 4) << "  (Cohen's, agreement beyond chance)\n"
            << "  macro F1          " << format_number(s.macro_f1, 4)
            << "\n\nConfusion matrix (rows: actual class, columns: "
            << "predicted; " << (r.folds.size() > 1 ? "summed over the folds" : "the test rows") << "):\n"
            << std::string(width + 2, ' ');
  for (const auto& name : class_names) std::cout << cell(name);
  std::cout << "\n";
  for (std::size_t a = 0; a < r.confusion.size(); ++a) {
    std::cout << cell(class_names[a]);
    for (double v : r.confusion[a]) std::cout << cell(format_number(v, v == std::floor(v) ? 0 : 2));
    std::cout << "\n";
  }
  std::cout << "\nPer class (precision: right among those predicted the class; recall: found among those of the "
               "class):\n"
            << cell("class") << cell("precision") << cell("recall") << cell("F1") << cell("support") << "\n";
  for (std::size_t c = 0; c < s.classes.size(); ++c)
    std::cout << cell(class_names[c]) << cell(format_number(s.classes[c].precision, 4))
              << cell(format_number(s.classes[c].recall, 4)) << cell(format_number(s.classes[c].f1, 4))
              << cell(format_number(s.classes[c].support, 0)) << "\n";
}

int run_evaluate(const EvaluateArguments& a) {
  apply_run_options(a.run);
  validate(a.params);
  Dataset data = load_training(a.input, a.data);
  std::optional<Dataset> test;
  std::string resampling;
  if (!a.test.empty()) {
    LoadOptions lo = load_options(a.data);
    lo.schema = &data.schema;
    test = load_reported(a.test, lo);
  } else if (a.folds < 2 || static_cast<std::size_t>(a.folds) > data.rows()) {
    throw InputError(a.input, 0,
                     "cannot make " + std::to_string(a.folds) + " folds of " + std::to_string(data.rows()) + " rows");
  }
  const auto seed = static_cast<std::uint64_t>(a.params.seed);
  auto evaluate = [&](const LearnerParams& params, bool keep_predictions) {
    return test ? train_test(data, *test, params, a.run.threads, keep_predictions)
                : cross_validate(data, params, a.folds, a.repeats, seed, a.run.threads, keep_predictions,
                                 parse_named(kFoldCalibrationNames, "EVC calibration", a.calibration));
  };
  const EvaluationResult result = evaluate(a.params, !a.plot.empty());
  if (test) {
    resampling = "train on " + a.input + ", test on " + a.test;
  } else {
    resampling = std::to_string(a.folds) + "-fold stratified cross-validation" +
                 (a.repeats > 1 ? " x " + std::to_string(a.repeats) : "") + ", seed " + std::to_string(seed);
    if (result.evc_calibration == FoldCalibration::shared)
      resampling += "; EVC calibrated once on all rows (--evc-calibration shared)";
  }
  const std::vector<std::string>& class_names = data.schema.class_attribute.values;
  std::optional<StabilityResult> stability;
  if (a.run.resamples > 0) stability = measure_stability(data, a.params, stability_options(a.run, a.params));
  if (a.format == "json") {
    nlohmann::json j = evaluation_json(result, a.input, a.params, resampling, class_names);
    if (stability) j["stability"] = stability_json(*stability);
    std::cout << j.dump(2) << "\n";
  } else {
    print_evaluation_text(result, a.input, a.params, resampling, class_names);
    if (stability) print_stability_text(*stability);
  }
  if (!a.plot.empty()) {
    // The curve of accuracy and log loss against a rule budget, for learners that take one and were given
    // none: the same evaluation again at each budget below the rules the learner keeps unbudgeted.
    std::vector<RuleBudgetPoint> budget;
    if (reads_option(a.params, "max_rules") && a.params.rule_covering.max_rules == 0) {
      for (int max_rules : rule_budgets(result.rules)) {
        LearnerParams capped = a.params;
        capped.rule_covering.max_rules = max_rules;
        const EvaluationResult r = evaluate(capped, false);
        budget.push_back({max_rules, r.rules, r.mean.accuracy, r.mean.log_loss});
      }
      budget.push_back({0, result.rules, result.mean.accuracy, result.mean.log_loss});
    }
    write_calibration_report(
        result, a.plot,
        std::filesystem::path(a.input).filename().string() + ", " + resampling + "\n" + describe(a.params), true,
        budget);
  }
  return 0;
}

}  // namespace

Command add_evaluate_command(CLI::App& app, const CommandLine& line) {
  auto a = std::make_shared<EvaluateArguments>();
  auto* cmd = app.add_subcommand("evaluate", "cross-validate a learner on DATA, or train on DATA and test on --test");
  cmd->add_option("DATA", a->input, "data (.arff, .csv, .tsv)")->required();
  cmd->add_option("--test", a->test, "test file: train on DATA, test on it (no cross-validation)");
  cmd->add_option("--folds", a->folds, "cross-validation folds")->capture_default_str();
  cmd->add_option("--repeats", a->repeats, "repetitions of cross-validation (seeds seed, seed+1, ...)")
      ->capture_default_str();
  cmd->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--evc-calibration", a->calibration,
                  "cross-validation of a learner that calibrates EVC: shared (one calibration of all the rows, "
                  "reused by every fold; permuted labels carry no relation to the attributes, and its cost is "
                  "spread over the folds' fit times) or per-fold (each fold calibrates its own training set, as "
                  "the papers' experiments do); docs/evc_calibration.md")
      ->capture_default_str()
      ->check(CLI::IsMember(names_of(kFoldCalibrationNames)));
  cmd->add_option("--plot", a->plot,
                  "folder for a reliability diagram and each rule's probability against its test share "
                  "(reliability.csv, rules.csv, calibration.png) and, for a learner that takes --max-rules and was "
                  "given none, accuracy and log loss against a rule budget of 1, 2, 5, 10, ... rules, each a "
                  "further evaluation (rule_budget.csv, rule_budget.png)");
  add_run_options(cmd, a->run, "the numbers", "also fit on B resamples and report");
  add_data_options(cmd, a->data);
  add_learner_options(cmd, a->params, learner_on_command_line(line.argc, line.argv));
  return {cmd, [a] { return run_evaluate(*a); }};
}

}  // namespace candor::cli
