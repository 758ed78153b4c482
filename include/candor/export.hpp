#pragma once
// candor's public API: export. A fitted model as code that runs without candor (`candor export`): one SQL query, one
// dependency-free Python module, or one header-only C function. Each computes for a row the class probabilities that
// `candor predict --proba` computes, in the model's class order, and the predicted class: the first class of
// highest probability, or "undecided" for a case the model leaves undecided (PrIL). Missing values (SQL
// NULL, Python None or NaN, C NaN or a null string) and nominal values the model never saw follow the
// model's own rules. All three are printed from one Program (docs/export.md).
//
// SQL: standard SQL that SQLite (3.35 or later, with its math functions) and PostgreSQL (12 or later) both run
// unchanged: a WITH query whose steps are MATERIALIZED, so that neither database computes a step once per
// use; every constant is a DOUBLE PRECISION cast, since PostgreSQL would otherwise compute in NUMERIC;
// exp() is guarded against underflow, which PostgreSQL reports as an error and SQLite rounds to 0.
#include <string>
#include <vector>

#include "candor/model.hpp"

namespace candor {

enum class ExportFormat { sql, python, c };
// "sql", "python" or "c"; throws std::invalid_argument naming them otherwise.
ExportFormat parse_export_format(const std::string& name);

struct ExportOptions {
  std::string table = "data";     // SQL: the table whose columns are the training attributes
  std::vector<std::string> keys;  // SQL: the table's columns to pass through before the prediction
  std::string prefix = "candor";  // C: the prefix of every name the header defines
  // Provenance written at the top of the export: the model file, and the SHA-256 of its bytes.
  std::string source;
  std::string sha256;
  std::string version;  // candor's version
};

// The SQL result's columns are the keys, "predicted", then "p(CLASS)" per class, as `candor predict --proba`
// names them. Throws std::invalid_argument for a model kind without an export, an invalid SQL table or C prefix name,
// or a name clash.
std::string export_model(const Model& m, ExportFormat format, const ExportOptions& options);

}  // namespace candor
