#pragma once
// `candor export --check DATA`: runs an export where it runs (the SQL in an in-memory SQLite database, the
// Python module with python3, the C header compiled with cc) on every row of DATA and compares each
// probability and predicted class with the model's own.
#include <cstddef>
#include <string>

#include "candor/export/export.hpp"

namespace candor {

struct ExportCheck {
  std::size_t rows = 0;
  double max_difference = 0;         // largest |exported - model| probability over rows and classes
  std::size_t class_mismatches = 0;  // rows whose predicted class (or "undecided") differs
  std::string first_mismatch;        // where the first row beyond 1e-9 or of another class is, or empty
};

// `code` is the export of `m` in `format` (written with `options`) that is checked as it is, except for SQL,
// which is printed again for the check's own table. `d` is read against the model's schema. Throws
// std::invalid_argument when the engine (python3, cc) cannot be started, std::runtime_error when the export fails to
// run.
ExportCheck check_export(const Model& m, const Dataset& d, ExportFormat format, const ExportOptions& options,
                         const std::string& code);

}  // namespace candor
