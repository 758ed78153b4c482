// candor export MODEL --format sql|python|c: the model as code that runs without candor, checked on data with
// --check.
#include "candor/export/export.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "candor/model/model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "export_check.hpp"
#include "file_digest.hpp"

namespace candor::cli {

namespace {

struct ExportArguments {
  std::string model, format, output, check_data;
  ExportOptions options;
  DataOptions data;
};

int run_export(ExportArguments& a) {
  const auto model = load_model(a.model);
  a.options.source = a.model;
  a.options.sha256 = file_sha256(a.model);
  a.options.version = CANDOR_VERSION;
  const ExportFormat format = parse_export_format(a.format);
  const std::string code = export_model(*model, format, a.options);
  if (!a.check_data.empty()) {
    const Dataset data = load_for_model(a.check_data, a.data, *model);
    const ExportCheck check = check_export(*model, data, format, a.options, code);
    std::cerr << "checked the " << a.format << " export on " << check.rows << " rows of " << a.check_data
              << ": largest probability difference " << format_number(check.max_difference) << ", "
              << check.class_mismatches << " rows of another class\n";
    if (!check.first_mismatch.empty()) {
      std::cerr << "candor: the export disagrees with the model (a bug in candor): " << check.first_mismatch << "\n";
      return 1;
    }
  }
  if (a.output.empty())
    std::cout << code;
  else
    write_file_atomic(a.output, code);
  return 0;
}

}  // namespace

Command add_export_command(CLI::App& app) {
  auto a = std::make_shared<ExportArguments>();
  auto* cmd = app.add_subcommand(
      "export",
      "write a model as code that runs without candor: one SQL query (SQLite and PostgreSQL), a dependency-free "
      "Python module or a header-only C function, each giving the predicted class and the probabilities of "
      "'candor predict --proba'");
  cmd->add_option("MODEL", a->model, "model file")->required();
  cmd->add_option("--format", a->format, "sql, python or c")
      ->required()
      ->check(CLI::IsMember(names_of(kExportFormatNames)));
  cmd->add_option("-o,--output", a->output, "file to write (default: standard output)");
  cmd->add_option("--table", a->options.table, "sql: the table to read, its columns named as the attributes")
      ->capture_default_str();
  cmd->add_option("--key", a->options.keys, "sql: columns of the table to pass through first (repeatable)");
  cmd->add_option("--prefix", a->options.prefix, "c: the prefix of the names the header defines")
      ->capture_default_str();
  cmd->add_option("--check", a->check_data,
                  "DATA: run the export on DATA (sql in SQLite, python with python3, c compiled with cc) and "
                  "compare every row with the model: probabilities to 1e-9, the predicted class");
  add_missing_options(cmd, a->data, "--check: ");
  add_delimiter_option(cmd, a->data, "--check: CSV separator");
  return {cmd, [a] { return run_export(*a); }};
}

}  // namespace candor::cli
