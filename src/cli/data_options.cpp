#include "data_options.hpp"

#include <iostream>

namespace candor::cli {

namespace {

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

}  // namespace

// --missing adds markers to the defaults (empty, ?, NA), as a user who reads "n/a means missing" expects;
// --missing-only replaces them.
void add_missing_options(CLI::App* cmd, DataOptions& o, const std::string& prefix) {
  auto* add = cmd->add_option("--missing", o.missing,
                              prefix + "CSV cells meaning 'missing', besides the defaults: empty, ?, NA");
  add->expected(1, -1);
  cmd->add_option("--missing-only", o.missing_only, prefix + "CSV cells meaning 'missing', instead of the defaults")
      ->expected(1, -1)
      ->excludes(add);
}

void add_delimiter_option(CLI::App* cmd, DataOptions& o, const std::string& help) {
  cmd->add_option("--delimiter", o.delimiter, help)->check(kDelimiterCheck);
}

void add_data_options(CLI::App* cmd, DataOptions& o) {
  cmd->add_option("--class", o.class_name, "class attribute (default: the last column)");
  cmd->add_option("--weight-column", o.weight_column, "numeric column holding example weights");
  add_missing_options(cmd, o);
  cmd->add_flag("--drop-unsupported", o.drop_unsupported, "drop ARFF string/date attributes instead of failing");
  add_delimiter_option(cmd, o,
                       "CSV separator: one character, or tab, semicolon (default: tab for .tsv, comma otherwise)");
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

Dataset load_reported(const std::string& path, LoadOptions options) {
  std::vector<std::string> dropped, warnings;
  options.warnings = &warnings;
  Dataset d = load_dataset(path, options, &dropped);
  for (const auto& name : dropped) std::cerr << path << ": dropped unsupported attribute '" << name << "'\n";
  for (const auto& w : warnings) std::cerr << "candor: warning: " << w << "\n";
  return d;
}

Dataset load_training(const std::string& path, const DataOptions& o) { return load_reported(path, load_options(o)); }

Dataset load_for_model(const std::string& path, const DataOptions& o, const Model& model,
                       const std::vector<std::string>& keys) {
  LoadOptions lo = load_options(o);
  lo.schema = &model.schema;
  lo.key_columns = keys;
  lo.require_labels = false;
  return load_reported(path, lo);
}

}  // namespace candor::cli
