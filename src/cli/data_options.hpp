#pragma once
// The options that say how to read a data file (--class, --missing, --delimiter, ...), as the commands that
// read data take them, and the readers' calls with them.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/model/model.hpp"

namespace candor::cli {

struct DataOptions {
  std::string class_name;
  std::string weight_column;
  std::vector<std::string> missing;       // --missing: markers added to the defaults
  std::vector<std::string> missing_only;  // --missing-only: the markers, replacing the defaults
  bool drop_unsupported = false;
  std::string delimiter;
};

// --missing and --missing-only, their help starting with `prefix` (export: "--check: ").
void add_missing_options(CLI::App* cmd, DataOptions& o, const std::string& prefix = "");
// --delimiter alone (the commands that read data for a model, with `help`).
void add_delimiter_option(CLI::App* cmd, DataOptions& o, const std::string& help);
// Every option of training data: --class, --weight-column, --missing(-only), --drop-unsupported, --delimiter.
void add_data_options(CLI::App* cmd, DataOptions& o);

LoadOptions load_options(const DataOptions& o);
// Reads data with `options`, printing the readers' warnings and dropped attributes on stderr.
Dataset load_reported(const std::string& path, LoadOptions options);
Dataset load_training(const std::string& path, const DataOptions& o);
// Data for a fitted model (predict, export --check, report): read against its schema, the class column
// optional, `keys` carried through as text.
Dataset load_for_model(const std::string& path, const DataOptions& o, const Model& model,
                       const std::vector<std::string>& keys = {});

}  // namespace candor::cli
