// candor report MODEL [DATA] -o PAGE: the model as one self-contained HTML page.
#include "candor/report/report.hpp"

#include <cstddef>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

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
  }
  write_file_atomic(a.output, report_html(*model, data ? &*data : nullptr, options));
  std::cerr << "report written to " << a.output;
  if (data)
    std::cerr << "; evaluated on the " << data->rows() << " rows of " << a.input
              << (options.data_is_training
                      ? ", the rows the model learned from (training figures: run candor evaluate on the file "
                        "for cross-validated ones)"
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
  add_missing_options(cmd, a->data);
  add_delimiter_option(cmd, a->data, "CSV separator");
  return {cmd, [a] { return run_report(*a); }};
}

}  // namespace candor::cli
