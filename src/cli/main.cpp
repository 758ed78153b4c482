// The candor command-line tool: fit | rules | predict | evaluate | params.
// Exit codes: 0 success, 2 bad usage or bad input (message on stderr naming file, line and reason),
// 1 an internal error.
#include <openssl/evp.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "candor/data/input_error.hpp"
#include "candor/data/readers.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/eval/stability.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/experiments/calibration_report.hpp"
#include "candor/experiments/experiment.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/experiments/report.hpp"
#include "candor/export/export.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/model/combine.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"
#include "candor/report/report.hpp"
#include "candor/stats/comparison.hpp"
#include "candor/util/format.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/progress.hpp"
#include "export_check.hpp"

using namespace candor;

namespace {

struct DataOptions {
  std::string class_name;
  std::string weight_column;
  std::vector<std::string> missing;       // --missing: markers added to the defaults
  std::vector<std::string> missing_only;  // --missing-only: the markers, replacing the defaults
  bool drop_unsupported = false;
  std::string delimiter;
};

// --delimiter: one character, or the names of the two that are awkward to type.
char delimiter_char(const std::string& text) {
  if (text.empty()) return 0;
  if (text == "tab" || text == "\\t") return '\t';
  if (text == "semicolon") return ';';
  return text[0];
}
const CLI::Validator kDelimiterCheck(
    [](std::string& text) -> std::string {
      if (text == "tab" || text == "\\t" || text == "semicolon") return "";
      if (text.size() == 1 && text[0] != '"' && text[0] != '\n' && text[0] != '\r') return "";
      return "'" + text + "' is not one character (or tab, semicolon)";
    },
    "CHAR");

// --missing adds markers to the defaults (empty, ?, NA), as a user who reads "n/a means missing" expects;
// --missing-only replaces them.
void add_missing_options(CLI::App* cmd, DataOptions& o, const std::string& prefix = "") {
  auto* add = cmd->add_option("--missing", o.missing,
                              prefix + "CSV cells meaning 'missing', besides the defaults: empty, ?, NA");
  add->expected(1, -1);
  cmd->add_option("--missing-only", o.missing_only, prefix + "CSV cells meaning 'missing', instead of the defaults")
      ->expected(1, -1)
      ->excludes(add);
}

void add_data_options(CLI::App* cmd, DataOptions& o) {
  cmd->add_option("--class", o.class_name, "class attribute (default: the last column)");
  cmd->add_option("--weight-column", o.weight_column, "numeric column holding example weights");
  add_missing_options(cmd, o);
  cmd->add_flag("--drop-unsupported", o.drop_unsupported, "drop ARFF string/date attributes instead of failing");
  cmd->add_option("--delimiter", o.delimiter,
                  "CSV separator: one character, or tab, semicolon (default: tab for .tsv, comma otherwise)")
      ->check(kDelimiterCheck);
}

LoadOptions load_options(const DataOptions& o) {
  LoadOptions l;
  l.class_name = o.class_name;
  l.weight_column = o.weight_column;
  if (!o.missing_only.empty())
    l.missing_markers = o.missing_only;
  else
    l.missing_markers.insert(l.missing_markers.end(), o.missing.begin(), o.missing.end());
  l.drop_unsupported = o.drop_unsupported;
  l.delimiter = delimiter_char(o.delimiter);
  return l;
}

// Reads data with `options`, printing the readers' warnings and dropped attributes on stderr.
Dataset load_reported(const std::string& path, LoadOptions options) {
  std::vector<std::string> dropped, warnings;
  options.warnings = &warnings;
  Dataset d = load_dataset(path, options, &dropped);
  for (const auto& name : dropped) std::cerr << path << ": dropped unsupported attribute '" << name << "'\n";
  for (const auto& w : warnings) std::cerr << "candor: warning: " << w << "\n";
  return d;
}

Dataset load_training(const std::string& path, const DataOptions& o) { return load_reported(path, load_options(o)); }

// Data for a fitted model (predict, export --check, report): read against its schema, the class column
// optional.
Dataset load_for_model(const std::string& path, const DataOptions& o, const Model& model,
                       const std::vector<std::string>& keys = {}) {
  LoadOptions lo = load_options(o);
  lo.schema = &model.schema;
  lo.key_columns = keys;
  lo.require_labels = false;
  return load_reported(path, lo);
}

// After a parse error: for each --word on the command line that no (sub)command knows, the closest option of
// the command it was given to, when one is close (a typo).
void suggest_options(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  for (int i = 1; i < argc; ++i)
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == argv[i]) command = sub;
  std::vector<std::string> known;
  for (const CLI::Option* o : command->get_options())
    for (const auto& name : o->get_lnames()) known.push_back("--" + name);
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0 || word == "--") continue;
    word = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), word) != known.end()) continue;
    const std::string close = closest_name(word, known);
    std::cerr << "candor: unknown option '" << word << "'" << (close.empty() ? "" : "; did you mean '" + close + "'?")
              << "\n";
  }
}

std::string fmt(double x, int digits = 4) {
  if (std::isnan(x)) return "n/a";
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

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

// --stability, --resampling and --quantiles, as fit and evaluate both take them.
struct StabilityFlags {
  int resamples = 0;  // 0: not asked for
  std::string resampling = "bootstrap";
  int quantiles = StabilityOptions{}.quantiles;
};

void add_stability_options(CLI::App* cmd, StabilityFlags& f, const std::string& what) {
  cmd->add_option("--stability", f.resamples,
                  "B: " + what +
                      " how stable the rules and predictions are over B resamples (seeded by --seed): rule-set "
                      "stability (mean pairwise Dice-Sorensen of the rule sets, thresholds snapped to the data's "
                      "--quantiles), prediction agreement, probability spread, and each rule's frequency")
      ->check(CLI::Range(2, 10000));
  cmd->add_option(
         "--resampling", f.resampling,
         "--stability: bootstrap (n rows with replacement), subsample (half the rows) or folds (the B training "
         "sets of a stratified B-fold cross-validation, as SIRUS measures stability)")
      ->check(CLI::IsMember(names_of(kStabilityResamplingNames)))
      ->capture_default_str();
  cmd->add_option("--quantiles", f.quantiles, "--stability: q of the q-quantiles thresholds are snapped to")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
}

StabilityOptions stability_options(const StabilityFlags& f, const LearnerParams& params, int threads) {
  StabilityOptions so;
  so.resamples = f.resamples;
  so.resampling = parse_stability_resampling(f.resampling);
  so.seed = static_cast<std::uint64_t>(params.seed);
  so.quantiles = f.quantiles;
  so.threads = threads;
  return so;
}

// One cell of the rule table as text: strings as they are, numbers in their shortest exact form, lists as
// JSON, a missing entry empty.
// A rule table cell as CSV shows it: a whole number (a count) without decimals, another number with `digits`
// decimals, a list as [a,b] of those; text as it is.
std::string rule_table_cell(const nlohmann::json& row, const std::string& column, int digits) {
  if (!row.contains(column) || row.at(column).is_null()) return "";
  const std::function<std::string(const nlohmann::json&)> cell = [&](const nlohmann::json& v) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) {
      const double x = v.get<double>();
      return x == std::round(x) && std::abs(x) < 1e15 ? std::to_string(static_cast<long long>(x))
                                                      : fixed_digits(x, digits);
    }
    if (v.is_array()) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ",") + cell(e);
      return "[" + s + "]";
    }
    return v.dump();
  };
  return cell(row.at(column));
}

// The line naming the model's learner and its settings: describe() of the options its file records. Those are
// provenance, read back only here, so a file whose learner object was edited into options no learner takes
// is refused naming the file and the JSON pointer.
std::string learner_description(const Model& model, const std::string& path) {
  try {
    return describe(model_options(model));
  } catch (const std::invalid_argument& e) {
    throw InputError(path, 0, std::string("/learner: ") + e.what());
  }
}

// `candor rules --format markdown|csv|json`: the rule table of numbered_rule_table().
void print_rule_table(const Model& model, const std::string& path, const std::string& format, int digits) {
  const nlohmann::json rows = numbered_rule_table(model);
  if (format == "json") {
    nlohmann::json out{{"model", model.kind_name()},
                       {"learner", learner_description(model, path)},
                       {"classes", model.schema.class_attribute.values},
                       {"rules", rows}};
    if (model.stability) out["stability"] = stability_json(*model.stability);
    std::cout << out.dump(2) << "\n";
    return;
  }
  const auto columns = rule_table_columns(rows);
  if (format == "csv") {
    for (std::size_t c = 0; c < columns.size(); ++c) std::cout << (c ? "," : "") << csv_field(columns[c]);
    std::cout << "\n";
    for (const auto& row : rows) {
      for (std::size_t c = 0; c < columns.size(); ++c)
        std::cout << (c ? "," : "") << csv_field(rule_table_cell(row, columns[c], digits));
      std::cout << "\n";
    }
    return;
  }
  // For reading: numbers to 4 decimals (integers as integers), lists as "a, b", '|' escaped.
  std::function<std::string(const nlohmann::json&)> readable = [&](const nlohmann::json& v) -> std::string {
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) {
      const double x = v.get<double>();
      return x == std::round(x) && std::abs(x) < 1e15 ? std::to_string(static_cast<long long>(x)) : fixed_digits(x, 4);
    }
    if (v.is_array()) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ", ") + readable(e);
      return s;
    }
    return v.dump();
  };
  const auto markdown_cell = [&](const nlohmann::json& row, const std::string& column) {
    std::string s = row.contains(column) ? readable(row.at(column)) : "";
    for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.insert(at, "\\");
    return s;
  };
  std::cout << "|";
  for (const auto& c : columns) std::cout << " " << c << " |";
  std::cout << "\n|";
  for (std::size_t c = 0; c < columns.size(); ++c) std::cout << "---|";
  std::cout << "\n";
  for (const auto& row : rows) {
    std::cout << "|";
    for (const auto& c : columns) std::cout << " " << markdown_cell(row, c) << " |";
    std::cout << "\n";
  }
}

void print_stability_text(const StabilityResult& s) {
  const std::string resamples =
      s.resampling == name_of(kStabilityResamplingNames, StabilityResampling::folds)
          ? "training sets of a stratified " + std::to_string(s.resamples) + "-fold cross-validation"
          : s.resampling + " resamples";
  std::cout << "\nStability over " << s.resamples << " " << resamples
            << " (rules compared with thresholds snapped to the data's " << s.quantiles << "-quantiles):\n"
            << "  rule-set stability    " << fmt(s.rule_set_stability, 4) << "  (s.d. "
            << fmt(s.rule_set_stability_sd, 4)
            << "; mean pairwise Dice-Sorensen overlap of the rule sets, 1: the same rules every time)\n"
            << "  prediction agreement  " << fmt(s.prediction_agreement, 4)
            << "  (share of pairs of resamples predicting a row's class alike)\n"
            << "  probability spread    " << fmt(s.probability_spread, 4)
            << "  (standard deviation of a row's predicted probabilities across the resamples)\n"
            << "  rules per resample    " << fmt(s.mean_rules, 1) << "\n";
  if (s.rule_frequency.empty()) return;
  std::cout << "  share of the resamples holding each rule of the model fitted on all the data (as `candor rules` "
               "numbers them):\n   ";
  for (std::size_t k = 0; k < s.rule_frequency.size(); ++k)
    std::cout << " " << (k + 1) << ": " << fmt(s.rule_frequency[k], 2)
              << (k + 1 < s.rule_frequency.size() ? "," : "\n");
}

void print_evaluation_text(const EvaluationResult& r, const std::string& data, const LearnerParams& p,
                           const std::string& resampling, const std::vector<std::string>& class_names) {
  const std::size_t classes = class_names.size();
  // A model that may leave cases undecided (PrIL) still gives each its most probable class: say that the
  // accuracy, the other metrics and the confusion matrix count them so, beside the adjusted accuracy.
  const bool may_leave_undecided = r.undecided_rate > 0 || !r.training_statistics.empty();
  std::cout << "Data: " << data << "\nLearner: " << describe(p) << "\nResampling: " << resampling << "\n\n"
            << "  accuracy          " << fmt(r.mean.accuracy)
            << (may_leave_undecided ? "  (an undecided case counts by its most probable class, as do the metrics below)"
                                    : "")
            << "\n"
            << "  AUC               " << fmt(r.mean.auc) << "\n"
            << "  Brier score       " << fmt(r.mean.brier) << "  (" << brier_kind(classes) << ")\n"
            << "  log loss          " << fmt(r.mean.log_loss) << "\n"
            << "  ECE               " << fmt(r.mean.ece) << "  (expected calibration error, 10 bins; "
            << fmt(r.mean.ece_floor) << " if exactly calibrated)\n"
            << "  rule RMSE         " << fmt(r.rule_rmse) << "  (rule probability vs test share)\n"
            << "  rules             " << fmt(r.rules, 1) << "\n"
            << "  mean rule length  " << fmt(r.mean_rule_length, 2) << "\n"
            << "  fit seconds       " << fmt(r.fit_seconds, 4) << "\n";
  if (may_leave_undecided)
    std::cout << "  adjusted accuracy " << fmt(r.adjusted_accuracy) << "  (an undecided case counts as wrong)\n"
              << "  undecided         " << fmt(r.undecided_rate) << "\n";
  for (const auto& [name, value] : r.training_statistics) {
    std::string label = name;
    for (auto& ch : label)
      if (ch == '_') ch = ' ';
    std::cout << "  " << label << " " << fmt(value) << "  (training)\n";
  }
  if (r.folds.size() > 1) {
    double sd = 0;
    for (const auto& f : r.folds) sd += std::pow(f.metrics.accuracy - r.mean.accuracy, 2);
    sd = std::sqrt(sd / static_cast<double>(r.folds.size() - 1));
    std::cout << "  accuracy s.d. over folds " << fmt(sd) << "\n";
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
  std::cout << "\n  kappa             " << fmt(s.kappa) << "  (Cohen's, agreement beyond chance)\n"
            << "  macro F1          " << fmt(s.macro_f1) << "\n\nConfusion matrix (rows: actual class, columns: "
            << "predicted; " << (r.folds.size() > 1 ? "summed over the folds" : "the test rows") << "):\n"
            << std::string(width + 2, ' ');
  for (const auto& name : class_names) std::cout << cell(name);
  std::cout << "\n";
  for (std::size_t a = 0; a < r.confusion.size(); ++a) {
    std::cout << cell(class_names[a]);
    for (double v : r.confusion[a]) std::cout << cell(fmt(v, v == std::floor(v) ? 0 : 2));
    std::cout << "\n";
  }
  std::cout << "\nPer class (precision: right among those predicted the class; recall: found among those of the "
               "class):\n"
            << cell("class") << cell("precision") << cell("recall") << cell("F1") << cell("support") << "\n";
  for (std::size_t c = 0; c < s.classes.size(); ++c)
    std::cout << cell(class_names[c]) << cell(fmt(s.classes[c].precision)) << cell(fmt(s.classes[c].recall))
              << cell(fmt(s.classes[c].f1)) << cell(fmt(s.classes[c].support, 0)) << "\n";
}

// The SHA-256 of a file's bytes in hex, as sha256sum prints it.
std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot read the file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr))
    throw std::runtime_error("SHA-256 failed");
  std::string hex;
  const char* digits = "0123456789abcdef";
  for (unsigned int i = 0; i < size; ++i) {
    hex += digits[digest[i] >> 4];
    hex += digits[digest[i] & 15];
  }
  return hex;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"candor: rule learning with honest estimates of rule quality"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("candor ") + CANDOR_VERSION);

  // fit
  DataOptions fit_data;
  LearnerParams fit_params;
  std::string fit_input, fit_output;
  int fit_threads = 0;
  auto* fit_cmd = app.add_subcommand("fit",
                                     "learn a model (rule set, decision list, logistic regression over rules) from "
                                     "DATA (ARFF or CSV) and save it as JSON");
  fit_cmd->add_option("DATA", fit_input, "training data (.arff, .csv, .tsv)")->required();
  fit_cmd->add_option("-o,--output", fit_output, "model file to write")->required();
  bool quiet = false;
  fit_cmd->add_flag("--quiet", quiet, "no progress line (shown on a terminal for work of more than 2 seconds)");
  fit_cmd->add_option("--threads", fit_threads, "threads (0: all cores); never changes the model")
      ->check(CLI::Range(0, 4096));
  std::string evc_cache;  // fit and evaluate
  const std::string evc_cache_help =
      "folder that keeps EVC calibrations between runs (default: the environment's CANDOR_EVC_CACHE, else "
      "none): a fit of the same data with the same search and EVC settings reads the calibration there "
      "instead of computing it, the model unchanged; candor evaluate's shared calibration of all the rows is "
      "the one a later fit of the file needs";
  fit_cmd->add_option("--evc-cache", evc_cache, evc_cache_help);
  StabilityFlags fit_stability;
  add_stability_options(fit_cmd, fit_stability,
                        "also fit on B resamples and record in the model file (shown by candor rules, rules_ and the "
                        "report)");
  add_data_options(fit_cmd, fit_data);
  add_learner_options(fit_cmd, fit_params, learner_on_command_line(argc, argv));

  // rules
  std::string rules_model, rules_format = "text";
  int rules_digits = 6;
  auto* rules_cmd =
      app.add_subcommand("rules", "print a model: its rules with their statistics (and a logistic model's weights)");
  rules_cmd->add_option("MODEL", rules_model, "model file written by 'candor fit'")->required();
  rules_cmd
      ->add_option("--format", rules_format,
                   "text (the model as a reader sees it), or the rule table, one row per rule with the columns of "
                   "Python's rules_: markdown, csv or json (with the model kind, learner and classes)")
      ->check(CLI::IsMember({"text", "markdown", "csv", "json"}));
  rules_cmd->add_option("--digits", rules_digits, "csv: decimals of numbers that are not whole (counts have none)")
      ->check(CLI::Range(1, 17))
      ->capture_default_str();

  // predict
  std::string pred_model, pred_input;
  bool pred_proba = false, pred_explain = false;
  std::vector<std::string> pred_keys;
  int pred_digits = 6;
  DataOptions pred_data;
  auto* pred_cmd = app.add_subcommand("predict", "predict DATA with a model; CSV on stdout, one row per example");
  pred_cmd->add_option("MODEL", pred_model, "model file")->required();
  pred_cmd->add_option("DATA", pred_input, "data to predict (class column optional)")->required();
  pred_cmd->add_flag("--proba", pred_proba, "add one probability column per class");
  pred_cmd->add_option("--key", pred_keys,
                       "a column of DATA to carry through after row (an id to join on; repeatable), as its text");
  pred_cmd->add_option("--digits", pred_digits, "decimals of the probabilities (17 reads back exactly)")
      ->check(CLI::Range(1, 17))
      ->capture_default_str();
  pred_cmd->add_flag("--explain", pred_explain,
                     "add what decided: the rule numbers of a rule model (1-based; 'default' if none), the five "
                     "features that moved a logistic model's prediction most, with their effect on the logit, the "
                     "leaves a tree sends the row to (with its share when a missing value splits it), the five "
                     "members that moved a boosted ensemble's prediction most");
  add_missing_options(pred_cmd, pred_data);
  pred_cmd->add_option("--weight-column", pred_data.weight_column, "column holding example weights (ignored)");
  pred_cmd->add_option("--delimiter", pred_data.delimiter, "CSV separator: one character, or tab, semicolon")
      ->check(kDelimiterCheck);

  // export
  std::string export_model_path, export_format, export_output, export_check_data;
  ExportOptions export_options;
  DataOptions export_data;
  auto* export_cmd = app.add_subcommand(
      "export",
      "write a model as code that runs without candor: one SQL query (SQLite and PostgreSQL), a dependency-free "
      "Python module or a header-only C function, each giving the predicted class and the probabilities of "
      "'candor predict --proba'");
  export_cmd->add_option("MODEL", export_model_path, "model file")->required();
  export_cmd->add_option("--format", export_format, "sql, python or c")
      ->required()
      ->check(CLI::IsMember({"sql", "python", "c"}));
  export_cmd->add_option("-o,--output", export_output, "file to write (default: standard output)");
  export_cmd->add_option("--table", export_options.table, "sql: the table to read, its columns named as the attributes")
      ->capture_default_str();
  export_cmd->add_option("--key", export_options.keys, "sql: columns of the table to pass through first (repeatable)");
  export_cmd->add_option("--prefix", export_options.prefix, "c: the prefix of the names the header defines")
      ->capture_default_str();
  export_cmd->add_option("--check", export_check_data,
                         "DATA: run the export on DATA (sql in SQLite, python with python3, c compiled with cc) and "
                         "compare every row with the model: probabilities to 1e-9, the predicted class");
  add_missing_options(export_cmd, export_data, "--check: ");
  export_cmd->add_option("--delimiter", export_data.delimiter, "--check: CSV separator")->check(kDelimiterCheck);

  // report
  std::string report_model_path, report_input, report_output, report_title;
  std::size_t report_rows = ReportOptions{}.max_rows;
  DataOptions report_data;
  auto* report_cmd = app.add_subcommand(
      "report",
      "write a model as one self-contained HTML page: learner and options, the rules as a sortable, filterable "
      "table, the class priors; with DATA, the evaluation on it, the reliability and rule plots and the rows with "
      "the rules that fired");
  report_cmd->add_option("MODEL", report_model_path, "model file")->required();
  report_cmd->add_option("DATA", report_input, "data to evaluate and show row by row (class column optional)");
  report_cmd->add_option("-o,--output", report_output, "HTML file to write")->required();
  report_cmd->add_option("--title", report_title, "the page's title (default: candor report: MODEL's file name)");
  report_cmd->add_option("--rows", report_rows, "rows of DATA the row view holds (the evaluation uses all)")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()))
      ->capture_default_str();
  add_missing_options(report_cmd, report_data);
  report_cmd->add_option("--delimiter", report_data.delimiter, "CSV separator")->check(kDelimiterCheck);

  // evaluate
  DataOptions eval_data;
  LearnerParams eval_params;
  std::string eval_input, eval_test, eval_format = "text";
  int eval_folds = 10, eval_repeats = 1, eval_threads = 0;
  auto* eval_cmd =
      app.add_subcommand("evaluate", "cross-validate a learner on DATA, or train on DATA and test on --test");
  eval_cmd->add_option("DATA", eval_input, "data (.arff, .csv, .tsv)")->required();
  eval_cmd->add_option("--test", eval_test, "test file: train on DATA, test on it (no cross-validation)");
  eval_cmd->add_option("--folds", eval_folds, "cross-validation folds")->capture_default_str();
  eval_cmd->add_option("--repeats", eval_repeats, "repetitions of cross-validation (seeds seed, seed+1, ...)")
      ->capture_default_str();
  eval_cmd->add_flag("--quiet", quiet, "no progress line (shown on a terminal for work of more than 2 seconds)");
  eval_cmd->add_option("--threads", eval_threads, "threads (0: all cores); never changes the numbers")
      ->check(CLI::Range(0, 4096));
  eval_cmd->add_option("--format", eval_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  eval_cmd->add_option("--evc-cache", evc_cache, evc_cache_help);
  std::string eval_calibration = "shared";
  eval_cmd
      ->add_option("--evc-calibration", eval_calibration,
                   "cross-validation of a learner that calibrates EVC: shared (one calibration of all the rows, "
                   "reused by every fold; permuted labels carry no relation to the attributes, and its cost is "
                   "spread over the folds' fit times) or per-fold (each fold calibrates its own training set, as "
                   "the papers' experiments do); docs/evc_calibration.md")
      ->capture_default_str()
      ->check(CLI::IsMember(names_of(kFoldCalibrationNames)));
  std::string eval_plot;
  eval_cmd->add_option("--plot", eval_plot,
                       "folder for a reliability diagram and each rule's probability against its test share "
                       "(reliability.csv, rules.csv, calibration.png)");
  StabilityFlags eval_stability;
  add_stability_options(eval_cmd, eval_stability, "also fit on B resamples and report");
  add_data_options(eval_cmd, eval_data);
  add_learner_options(eval_cmd, eval_params, learner_on_command_line(argc, argv));

  // experiment
  std::string exp_name;
  ExperimentOptions exp;
  exp.datasets_dir = CANDOR_DEFAULT_DATASETS_DIR;
  std::string exp_description = "reproduce a paper's experiment: tables (CSV, Markdown) and plots (PNG) in --out.";
  for (const auto& e : experiment_table()) exp_description += std::string("\n  ") + e.name + ": " + e.description;
  auto* exp_cmd = app.add_subcommand("experiment", exp_description);
  exp_cmd->add_option("NAME", exp_name, "experiment name")->required();
  exp_cmd->add_option("--out", exp.out, "output folder (default: out/NAME)");
  exp_cmd->add_option("--threads", exp.threads, "threads (0: all cores); never changes the numbers")
      ->check(CLI::Range(0, 4096));
  exp_cmd->add_option("--seed", exp.seed, "seed of every random step")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {
            return text.rfind('-', 0) == 0 ? std::string("must be a non-negative integer") : std::string();
          },
          "NONNEGATIVE"));
  exp_cmd->add_option("--datasets-dir", exp.datasets_dir, "folder of the ARFF corpus")->capture_default_str();
  exp_cmd->add_option("--datasets", exp.datasets, "data set names to use (default: the experiment's selection)")
      ->expected(1, -1);
  exp_cmd->add_option("--max-rows", exp.max_rows, "default selection: skip data sets with more rows");
  exp_cmd->add_option("--permutations", exp.permutations, "EVC permutations")->capture_default_str();
  exp_cmd->add_option("--evc-fit", exp.evc_fit, "EVC Gumbel fit: fixed-beta, moments, ml")->capture_default_str();
  exp_cmd->add_option("--evc-pool", exp.evc_pool, "EVC laws pooled across classes: none (the papers') or classes")
      ->check(CLI::IsMember({"none", "classes"}))
      ->capture_default_str();
  exp_cmd->add_option("--config", exp.config,
                      "grid: JSON file of learners, datasets, resampling, seed, metrics, control, alpha, stability");
  exp_cmd
      ->add_option("--learner", exp.learners,
                   "grid, stability: NAME=OPTIONS, a learner as `candor fit` options (repeatable; stability: "
                   "instead of every learner)")
      ->expected(1, -1);
  exp_cmd->add_option("--resampling", exp.resampling,
                      "grid: cv, holdout or train-test (data sets TRAIN:TEST); default cv");
  exp_cmd->add_option("--folds", exp.folds, "grid: cross-validation folds (default 10)");
  exp_cmd->add_option("--repeats", exp.repeats,
                      "grid: repetitions of cv or holdout (default 1); oversearching: trials (default 10)");
  exp_cmd->add_option("--test-fraction", exp.test_fraction, "grid: holdout test share (default 0.5)");
  exp_cmd
      ->add_option("--evc-calibration", exp.evc_calibration,
                   "grid: shared (one EVC calibration of each data set for all its folds, as candor evaluate "
                   "does) or per-fold (each fold's own; the grid's default, so that measured tables reproduce)")
      ->check(CLI::IsMember(names_of(kFoldCalibrationNames)));
  exp_cmd->add_option("--control", exp.control, "grid: control learner for Bonferroni-Dunn");
  exp_cmd->add_option("--alpha", exp.alpha, "grid: significance level (default 0.05)");
  exp_cmd
      ->add_option("--metrics", exp.metrics,
                   "grid: metrics to compare (default accuracy auc brier log_loss rule_rmse rules fit_seconds)")
      ->expected(1, -1);
  bool exp_no_plots = false;
  exp_cmd->add_flag("--no-plots", exp_no_plots, "write tables and plot data only");

  // stats
  std::string stats_action, stats_input, stats_metric, stats_format = "text", stats_control, stats_plot;
  double stats_alpha = 0.05;
  bool stats_higher = false, stats_lower = false;
  auto* stats_cmd = app.add_subcommand(
      "stats",
      "compare learners over data sets from a results CSV (columns dataset, learner and one per metric; rows of "
      "one data set and learner are averaged; a data set where some learner lacks the metric is left out)\n"
      "  ranks: average ranks (ties averaged)\n"
      "  friedman: Friedman test with the Iman-Davenport correction\n"
      "  cd: Nemenyi critical difference and the groups it cannot separate; with --control, Bonferroni-Dunn\n"
      "  pairwise: sign test and Wilcoxon signed-rank test for each pair (or the control against each)");
  stats_cmd->add_option("ACTION", stats_action, "ranks, friedman, cd or pairwise")
      ->required()
      ->check(CLI::IsMember({"ranks", "friedman", "cd", "pairwise"}));
  stats_cmd->add_option("RESULTS", stats_input, "results CSV")->required();
  stats_cmd->add_option("--metric", stats_metric, "metric column")->required();
  stats_cmd->add_option("--format", stats_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  stats_cmd->add_option("--alpha", stats_alpha, "significance level")->capture_default_str();
  stats_cmd->add_option("--control", stats_control, "control learner (Bonferroni-Dunn, pairwise against it)");
  stats_cmd->add_option("--plot", stats_plot, "cd: draw the critical-difference diagram to this PNG");
  stats_cmd->add_flag("--higher-is-better", stats_higher, "larger values are better (needed for unknown metrics)");
  stats_cmd->add_flag("--lower-is-better", stats_lower, "smaller values are better (needed for unknown metrics)");

  // params / qualities
  auto* params_cmd = app.add_subcommand("params", "print the learner parameters and quality measures as Markdown");

  try {
    app.parse(argc, argv);
    set_progress_quiet(quiet);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    if (code != 0) suggest_options(app, argc, argv);
    return code == 0 ? 0 : 2;
  }

  try {
    if (!evc_cache.empty()) set_evc_cache_dir(evc_cache);
    if (*fit_cmd) {
      validate(fit_params);
      Dataset data = load_training(fit_input, fit_data);
      const auto model = fit_model(data, fit_params, resolve_threads(fit_threads));
      if (fit_stability.resamples > 0)
        model->stability =
            measure_stability(data, fit_params, stability_options(fit_stability, fit_params, fit_threads), model.get());
      save_model(*model, fit_output);
      std::cerr << "learned a " << model->kind_name() << " model with " << counted(model->rule_count(), "rule");
      // rule-logistic's count is of the rules with a weight; say so where the rule learner found more.
      if (const auto* logistic = dynamic_cast<const LogisticRuleModel*>(model.get());
          logistic && logistic->rules_without_weight > 0)
        std::cerr << " (" << logistic->rules_without_weight << " more left at weight 0 and dropped)";
      std::cerr << " from " << data.rows() << " rows, class '" << data.schema.class_attribute.name << "' ("
                << counted(data.schema.class_attribute.values.size(), "value") << ")"
                << (fit_data.class_name.empty() ? ", the last column (choose another with --class)" : "")
                << "; model written to " << fit_output << "\n";
    } else if (*rules_cmd) {
      const auto model = load_model(rules_model);
      if (rules_format == "text") {
        std::cout << model->text(learner_description(*model, rules_model));
        if (model->stability) print_stability_text(*model->stability);
      } else {
        print_rule_table(*model, rules_model, rules_format, rules_digits);
      }
    } else if (*pred_cmd) {
      const auto loaded = load_model(pred_model);
      const Model& model = *loaded;
      Dataset data = load_for_model(pred_input, pred_data, model, pred_keys);
      const auto& cls = model.schema.class_attribute;
      std::cout << "row";
      for (const auto& k : pred_keys) std::cout << "," << csv_field(k);
      std::cout << ",predicted";
      bool has_actual = false;
      for (int y : data.y) has_actual |= y != kMissing;
      if (has_actual) std::cout << ",actual";
      if (pred_proba)
        for (const auto& v : cls.values) std::cout << "," << csv_field("p(" + v + ")");
      if (pred_explain) std::cout << ",rules";
      std::cout << "\n";
      for (std::size_t r = 0; r < data.rows(); ++r) {
        auto p = model.predict_proba(data, r);
        int pred = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
        // A case the model leaves undecided (PrIL) says so, never a silent guess.
        std::cout << (r + 1);
        for (const auto& key : data.keys) std::cout << "," << csv_field(key[r]);
        std::cout << "," << csv_field(model.decides(data, r) ? cls.values[pred] : std::string("undecided"));
        if (has_actual) std::cout << "," << csv_field(data.y[r] == kMissing ? std::string("?") : cls.values[data.y[r]]);
        if (pred_proba)
          for (double x : p) std::cout << "," << fmt(x, pred_digits);
        if (pred_explain) {
          std::string s;
          for (const auto& part : model.explain(data, r)) s += (s.empty() ? "" : ";") + part;
          std::cout << "," << (s.empty() ? std::string("default") : csv_field(s));
        }
        std::cout << "\n";
      }
    } else if (*export_cmd) {
      const auto model = load_model(export_model_path);
      export_options.source = export_model_path;
      export_options.sha256 = file_sha256(export_model_path);
      export_options.version = CANDOR_VERSION;
      const ExportFormat format = parse_export_format(export_format);
      const std::string code = export_model(*model, format, export_options);
      if (!export_check_data.empty()) {
        const Dataset data = load_for_model(export_check_data, export_data, *model);
        const ExportCheck check = check_export(*model, data, format, export_options, code);
        std::cerr << "checked the " << export_format << " export on " << check.rows << " rows of " << export_check_data
                  << ": largest probability difference " << format_number(check.max_difference) << ", "
                  << check.class_mismatches << " rows of another class\n";
        if (!check.first_mismatch.empty()) {
          std::cerr << "candor: the export disagrees with the model (a bug in candor): " << check.first_mismatch
                    << "\n";
          return 1;
        }
      }
      if (export_output.empty())
        std::cout << code;
      else
        write_file_atomic(export_output, code);
    } else if (*report_cmd) {
      const auto model = load_model(report_model_path);
      ReportOptions options;
      options.title = report_title;
      options.source = report_model_path;
      options.sha256 = file_sha256(report_model_path);
      options.version = CANDOR_VERSION;
      options.max_rows = report_rows;
      std::optional<Dataset> data;
      if (!report_input.empty()) {
        data = load_for_model(report_input, report_data, *model);
        options.data_source = report_input;
        std::error_code same_error;
        options.data_is_training = !model->training_source.empty() &&
                                   std::filesystem::equivalent(report_input, model->training_source, same_error);
      }
      write_file_atomic(report_output, report_html(*model, data ? &*data : nullptr, options));
      std::cerr << "report written to " << report_output;
      if (data)
        std::cerr << "; evaluated on the " << data->rows() << " rows of " << report_input
                  << (options.data_is_training
                          ? ", the rows the model learned from (training figures: run candor evaluate on the file "
                            "for cross-validated ones)"
                          : "");
      std::cerr << "\n";
    } else if (*eval_cmd) {
      validate(eval_params);
      Dataset data = load_training(eval_input, eval_data);
      EvaluationResult result;
      std::string resampling;
      if (!eval_test.empty()) {
        LoadOptions lo = load_options(eval_data);
        lo.schema = &data.schema;
        Dataset test = load_reported(eval_test, lo);
        result = train_test(data, test, eval_params, eval_threads, !eval_plot.empty());
        resampling = "train on " + eval_input + ", test on " + eval_test;
      } else {
        if (eval_folds < 2 || static_cast<std::size_t>(eval_folds) > data.rows())
          throw InputError(
              eval_input, 0,
              "cannot make " + std::to_string(eval_folds) + " folds of " + std::to_string(data.rows()) + " rows");
        const auto eval_seed = static_cast<std::uint64_t>(eval_params.seed);
        result =
            cross_validate(data, eval_params, eval_folds, eval_repeats, eval_seed, eval_threads, !eval_plot.empty(),
                           parse_named(kFoldCalibrationNames, "EVC calibration", eval_calibration));
        resampling = std::to_string(eval_folds) + "-fold stratified cross-validation" +
                     (eval_repeats > 1 ? " x " + std::to_string(eval_repeats) : "") + ", seed " +
                     std::to_string(eval_seed);
        if (result.evc_calibration == FoldCalibration::shared)
          resampling += "; EVC calibrated once on all rows (--evc-calibration shared)";
      }
      const std::vector<std::string>& class_names = data.schema.class_attribute.values;
      std::optional<StabilityResult> stability;
      if (eval_stability.resamples > 0)
        stability = measure_stability(data, eval_params, stability_options(eval_stability, eval_params, eval_threads));
      if (eval_format == "json") {
        nlohmann::json j = evaluation_json(result, eval_input, eval_params, resampling, class_names);
        if (stability) j["stability"] = stability_json(*stability);
        std::cout << j.dump(2) << "\n";
      } else {
        print_evaluation_text(result, eval_input, eval_params, resampling, class_names);
        if (stability) print_stability_text(*stability);
      }
      if (!eval_plot.empty())
        write_calibration_report(
            result, eval_plot,
            std::filesystem::path(eval_input).filename().string() + ", " + resampling + "\n" + describe(eval_params),
            true);
    } else if (*exp_cmd) {
      if (exp.out.empty() || exp.out == ExperimentOptions{}.out) exp.out = "out/" + exp_name;
      exp.plots = !exp_no_plots;
      exp.seed_given = exp_cmd->count("--seed") > 0;
      std::vector<std::string> given;  // every option given, so that a new one is checked too
      for (const CLI::Option* option : exp_cmd->get_options())
        if (option->nonpositional() && option->count() > 0) given.push_back(option->get_name());
      check_experiment_options(exp_name, given);
      run_experiment(exp_name, exp);
    } else if (*stats_cmd) {
      if (stats_higher && stats_lower)
        throw std::invalid_argument("give --higher-is-better or --lower-is-better, not both");
      std::optional<bool> higher = metric_higher_is_better(stats_metric);
      if (stats_higher) higher = true;
      if (stats_lower) higher = false;
      if (!higher)
        throw std::invalid_argument("candor does not know whether a larger '" + stats_metric +
                                    "' is better: give --higher-is-better or --lower-is-better");
      const ResultsMatrix results = read_results(stats_input, stats_metric);
      const Comparison c = compare_learners(results, *higher, stats_alpha, stats_control);
      const nlohmann::json all = comparison_json(c);
      if (!c.incomplete.empty() && stats_format == "text") {
        std::cerr << stats_input << ": left out (some learner has no '" << stats_metric << "'):";
        for (const auto& d : c.incomplete) std::cerr << " " << d;
        std::cerr << "\n";
      }
      nlohmann::json out;
      auto pick = [&](std::initializer_list<const char*> keys) {
        for (const char* key : keys) out[key] = all[key];
      };
      pick({"metric", "higher_is_better", "n_datasets", "incomplete", "average_ranks"});
      if (stats_action == "ranks") {
        pick({"mean_scores", "datasets"});
        if (stats_format == "text") std::cout << markdown(ranks_table(c));
      } else if (stats_action == "friedman") {
        pick({"chi2", "p", "iman_davenport_F", "p_F"});
        if (stats_format == "text") std::cout << tests_markdown(c) << "\n" << markdown(ranks_table(c));
      } else if (stats_action == "cd") {
        out["alpha"] = c.alpha;
        if (c.control) {
          out["test"] = "bonferroni-dunn";
          out["control"] = c.learners[*c.control];
          out["cd"] = c.bonferroni_dunn_cd;
          out["same_as_control"] = all["bonferroni_dunn"]["same_as_control"];
          out["groups"] = nlohmann::json::array({out["same_as_control"]});
        } else {
          out["test"] = "nemenyi";
          out["cd"] = c.nemenyi_cd;
          out["groups"] = all["nemenyi"]["groups"];
        }
        if (stats_format == "text") std::cout << tests_markdown(c) << "\n" << markdown(ranks_table(c));
        if (!stats_plot.empty()) {
          const std::filesystem::path png(stats_plot);
          const std::string dir = png.has_parent_path() ? png.parent_path().string() : ".";
          nlohmann::json spec{{"figures", nlohmann::json::array({cd_figure(c, png.filename().string(),
                                                                           stats_metric + ": average ranks")})}};
          if (!draw_plots(spec, dir, true, png.stem().string() + ".plot.json"))
            throw OutputError(stats_plot, "the plot could not be drawn (see the message above)");
        }
      } else {
        pick({"pairs"});
        if (stats_format == "text") std::cout << markdown(pairs_table(c));
      }
      if (stats_format == "json") std::cout << out.dump(2) << "\n";
    } else if (*params_cmd) {
      std::cout << "Learner parameters (options of `candor fit` and `candor evaluate`):\n\n"
                << params_markdown() << "\nQuality measures (`--quality`):\n\n| name | meaning |\n|---|---|\n";
      for (const auto& q : quality_table()) std::cout << "| `" << q.name << "` | " << q.description << " |\n";
      std::cout << "\nLearners (`--learner`) and their defaults:\n\n"
                << learners_markdown()
                << "\nRule combinations of rule sets (`--combine`):\n\n| name | meaning |\n|---|---|\n";
      for (const auto& c : combination_table()) std::cout << "| `" << c.name << "` | " << c.description << " |\n";
    }
    finish_standard_output();
  } catch (const InputError& e) {
    std::cerr << "candor: " << e.what() << "\n";
    return 2;
  } catch (const OutputError& e) {
    std::cerr << "candor: " << e.what() << "\n";
    return 2;
  } catch (const MemoryLimitError& e) {
    std::cerr << "candor: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // Too little memory for what the input and options ask: the user's to change (fewer rows or distinct
    // values, fewer --evc-permutations, a smaller --beam-width), not a bug.
    std::cerr << "candor: out of memory while running '" << app.get_subcommands().front()->get_name()
              << "'; use less data, fewer distinct values or smaller options (beam width, EVC permutations)\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "candor: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    // An output folder that cannot be made (a file in the way, no permission): the user's path, not a bug.
    std::cerr << "candor: " << e.path1().string() << ": " << e.code().message() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "candor: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
