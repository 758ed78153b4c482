// candor report MODEL [DATA] -o PAGE: the model as one self-contained HTML page.
#include "candor/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "candor/eval/evaluate.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "file_digest.hpp"

namespace candor::cli {

namespace {

struct ReportArguments {
  std::string model, input, output, title;
  std::size_t rows = ReportOptions{}.max_rows;
  int folds = 0;  // 0: the model's own predictions
  std::uint64_t seed = 1;
  int threads = 0;
  DataOptions data;
};

int run_report(const ReportArguments& a) {
  const auto model = load_model(a.model);
  ReportOptions options;
  options.title = a.title;
  options.source = a.model;
  options.sha256 = file_sha256(a.model);
  options.version = CANDOR_VERSION;
  options.max_rows = a.rows;
  std::optional<Dataset> data;
  if (!a.input.empty()) {
    data = load_for_model(a.input, a.data, *model);
    options.data_source = a.input;
    std::error_code same_error;
    options.data_is_training =
        !model->training_source.empty() && std::filesystem::equivalent(a.input, model->training_source, same_error);
    if (a.folds > 0) {
      // The learner's options as the model recorded them: the folds' models are fitted as this one was.
      const LearnerParams params = params_from_json(model->learner);
      options.evaluate = [params, a](const Dataset& labelled) {
        return out_of_fold_predictions(labelled, params, a.folds, a.seed, a.threads);
      };
      options.evaluated_by = std::to_string(a.folds) + "-fold cross-validation of the model's learner (seed " +
                             std::to_string(a.seed) + ")";
    }
  } else if (a.folds > 0) {
    throw std::invalid_argument("report --folds cross-validates the model's learner on DATA: give DATA");
  }
  write_file_atomic(a.output, report_html(*model, data ? &*data : nullptr, options));
  std::cerr << "report written to " << a.output;
  if (data)
    std::cerr << "; evaluated on the " << data->rows() << " rows of " << a.input
              << (a.folds > 0 ? " by " + options.evaluated_by
                  : options.data_is_training
                      ? ", the rows the model learned from (training figures: add --folds 10 for cross-validated "
                        "ones)"
                      : "");
  std::cerr << "\n";
  return 0;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto a = std::make_shared<ReportArguments>();
  auto* cmd = app.add_subcommand(
      "report",
      "write a model as one self-contained HTML page: learner and options, the rules as a sortable, filterable "
      "table, the class priors; with DATA, the evaluation on it, the reliability and rule plots and the rows with "
      "the rules that fired");
  cmd->add_option("MODEL", a->model, "model file")->required();
  cmd->add_option("DATA", a->input, "data to evaluate and show row by row (class column optional)");
  cmd->add_option("-o,--output", a->output, "HTML file to write")->required();
  cmd->add_option("--title", a->title, "the page's title (default: candor report: MODEL's file name)");
  cmd->add_option("--rows", a->rows, "rows of DATA the row view holds (the evaluation uses all)")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()))
      ->capture_default_str();
  cmd->add_option("--folds", a->folds,
                  "with DATA: evaluate by K-fold cross-validation of the model's learner (its options as the model "
                  "records them) on DATA, each row predicted by a model fitted without its fold; 0: the model's own "
                  "predictions (training figures on the rows it learned from)")
      ->check(CLI::Range(0, 1000) & !CLI::Range(1, 1))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "the cross-validation's folds (with --folds)")->capture_default_str();
  cmd->add_option("--threads", a->threads, "threads of the cross-validation (0: all cores); never changes it")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
  add_missing_options(cmd, a->data);
  add_delimiter_option(cmd, a->data, "CSV separator");
  return {cmd, [a] { return run_report(*a); }};
}

}  // namespace candor::cli
