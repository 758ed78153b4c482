#include "export_check.hpp"

#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "candor/coverage/condition.hpp"
#include "candor/util/output.hpp"
#include "candor/util/process.hpp"

namespace candor {

namespace {

// What the model itself says of one row: the CLI's predicted column, then the probabilities.
struct RowResult {
  std::string predicted;
  std::vector<double> p;
};

// A nominal value the model never saw: any text that is none of its values behaves alike.
const std::string kUnseen = "\x01unseen by the model";

std::string nominal_text(const Dataset& d, std::size_t a, std::size_t r, bool& missing) {
  const int code = d.columns[a].codes[r];
  missing = code == kMissing;
  if (missing) return {};
  const auto& values = d.attribute(a).values;
  return code < static_cast<int>(values.size()) ? values[static_cast<std::size_t>(code)] : kUnseen;
}

// A folder of its own under the system's temporary folder, removed when this goes out of scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "candor-export-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder for the check");
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

std::vector<RowResult> run_sqlite(const Model& m, const Dataset& d, const ExportOptions& options) {
  ExportOptions o = options;
  o.table = "data";
  o.keys = {"candor_row"};
  const std::string sql = export_model(m, ExportFormat::sql, o);
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) throw std::runtime_error("cannot open an SQLite database");
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> owner(db, sqlite3_close);
  auto fail = [&](const std::string& what) { throw std::runtime_error(what + ": " + sqlite3_errmsg(db)); };
  std::string create = "CREATE TABLE data (candor_row INTEGER", insert = "INSERT INTO data VALUES (?";
  for (const auto& a : m.schema.attributes) {
    create += ", " + sql_identifier(a.name) + (a.is_nominal() ? " TEXT" : " DOUBLE PRECISION");
    insert += ", ?";
  }
  if (sqlite3_exec(db, (create + ")").c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail("SQLite CREATE TABLE");
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, (insert + ")").c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("SQLite INSERT");
  for (std::size_t r = 0; r < d.rows(); ++r) {
    sqlite3_reset(stmt);
    sqlite3_bind_int64(stmt, 1, static_cast<sqlite3_int64>(r));
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      const int slot = static_cast<int>(a) + 2;
      if (d.attribute(a).is_nominal()) {
        bool missing = false;
        const std::string text = nominal_text(d, a, r, missing);
        if (missing)
          sqlite3_bind_null(stmt, slot);
        else
          sqlite3_bind_text(stmt, slot, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      } else if (std::isnan(d.columns[a].values[r])) {
        sqlite3_bind_null(stmt, slot);
      } else {
        sqlite3_bind_double(stmt, slot, d.columns[a].values[r]);
      }
    }
    if (sqlite3_step(stmt) != SQLITE_DONE) fail("SQLite INSERT");
  }
  sqlite3_finalize(stmt);
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("the exported SQL");
  std::vector<RowResult> out(d.rows());
  const int k = static_cast<int>(m.schema.class_attribute.values.size());
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const auto r = static_cast<std::size_t>(sqlite3_column_int64(stmt, 0));
    if (r >= out.size()) throw std::runtime_error("the exported SQL returned a row that is not in the data");
    const auto* text = sqlite3_column_text(stmt, 1);
    out[r].predicted = text ? reinterpret_cast<const char*>(text) : "NULL";
    for (int c = 0; c < k; ++c)
      out[r].p.push_back(sqlite3_column_type(stmt, 2 + c) == SQLITE_NULL ? NAN : sqlite3_column_double(stmt, 2 + c));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) fail("the exported SQL");
  return out;
}

std::string run_child(const std::vector<std::string>& argv, const std::string& what) {
  ProcessOptions po;
  po.capture_stdout = true;
  const auto result = run_process(argv, po);
  // A missing python3 or cc is the user's setup, not a bug (exit 2); a failing export is a bug (exit 1).
  if (result.exit_code == 127)
    throw std::invalid_argument("cannot start '" + argv[0] + "' to check the " + what + " (is it installed?)");
  if (result.exit_code != 0)
    throw std::runtime_error("'" + argv[0] + "' failed (exit " + std::to_string(result.exit_code) + ") on the " + what);
  return result.output;
}

std::vector<RowResult> run_python(const Dataset& d, const std::string& code) {
  TempDir dir;
  const auto module = (dir.path / "exported_model.py").string();
  write_file_atomic(module, code);
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t r = 0; r < d.rows(); ++r) {
    nlohmann::json row = nlohmann::json::object();
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      const std::string& name = d.attribute(a).name;
      if (d.attribute(a).is_nominal()) {
        bool missing = false;
        const std::string text = nominal_text(d, a, r, missing);
        row[name] = missing ? nlohmann::json(nullptr) : nlohmann::json(text);
      } else {
        const double x = d.columns[a].values[r];
        row[name] = std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x);
      }
    }
    rows.push_back(row);
  }
  const auto data = (dir.path / "rows.json").string();
  write_file_atomic(data, rows.dump());
  const auto driver = (dir.path / "driver.py").string();
  write_file_atomic(driver,
                    "import importlib.util, json, sys\n"
                    "spec = importlib.util.spec_from_file_location('exported_model', sys.argv[1])\n"
                    "m = importlib.util.module_from_spec(spec)\n"
                    "spec.loader.exec_module(m)\n"
                    "with open(sys.argv[2], encoding='utf-8') as f:\n"
                    "    rows = json.load(f)\n"
                    "for row in rows:\n"
                    "    p = m.predict_proba(row)\n"
                    "    print(json.dumps([m.predict(row)] + [p[c] for c in m.CLASSES]))\n");
  std::istringstream lines(run_child({"python3", driver, module, data}, "Python export"));
  std::vector<RowResult> out;
  std::string line;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    RowResult r{j.at(0).get<std::string>(), {}};
    for (std::size_t c = 1; c < j.size(); ++c) r.p.push_back(j[c].get<double>());
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RowResult> run_c(const Model& m, const Dataset& d, const std::string& prefix, const std::string& code) {
  TempDir dir;
  write_file_atomic((dir.path / "model.h").string(), code);
  const std::string& x = prefix;
  std::string driver = "#include <stdio.h>\n#include \"model.h\"\nstatic const struct " + x + "_row rows[] = {\n";
  for (std::size_t r = 0; r < d.rows(); ++r) {
    driver += "  {";
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      driver += a ? ", " : "";
      if (d.attribute(a).is_nominal()) {
        bool missing = false;
        const std::string text = nominal_text(d, a, r, missing);
        driver += missing ? "NULL" : c_string_literal(text);
      } else {
        const double v = d.columns[a].values[r];
        driver += std::isnan(v) ? std::string("NAN") : format_number(v);
      }
    }
    driver += d.num_attributes() ? "},\n" : "0},\n";
  }
  // The class count from the header's class names, so the driver needs no name of the header's but the prefix.
  driver += "};\nint main(void) {\n  double p[sizeof " + x + "_classes / sizeof " + x + "_classes[0]];\n" +
            "  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {\n" + "    const int c = " + x +
            "_predict_proba(&rows[i], p);\n" + "    printf(\"%d\", c);\n" +
            "    for (size_t k = 0; k < sizeof p / sizeof p[0]; ++k) printf(\" %.17g\", p[k]);\n" +
            "    printf(\"\\n\");\n  }\n  return 0;\n}\n";
  const auto source = (dir.path / "driver.c").string(), program = (dir.path / "driver").string();
  write_file_atomic(source, driver);
  const char* cc = std::getenv("CC");
  run_child({cc && *cc ? cc : "cc", "-std=c99", "-O1", "-o", program, source, "-lm"}, "C export (compiling)");
  std::istringstream lines(run_child({program}, "C export"));
  std::vector<RowResult> out;
  std::string line;
  const auto& classes = m.schema.class_attribute.values;
  while (std::getline(lines, line)) {
    std::istringstream fields_in(line);
    int c = 0;
    fields_in >> c;
    RowResult r{c < 0 ? std::string("undecided") : classes.at(static_cast<std::size_t>(c)), {}};
    for (std::string v; fields_in >> v;) r.p.push_back(std::strtod(v.c_str(), nullptr));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

ExportCheck check_export(const Model& m, const Dataset& d, ExportFormat format, const ExportOptions& options,
                         const std::string& code) {
  if (d.rows() == 0) throw std::runtime_error("no rows to check the export on");
  std::vector<RowResult> got;
  switch (format) {
    case ExportFormat::sql: got = run_sqlite(m, d, options); break;
    case ExportFormat::python: got = run_python(d, code); break;
    case ExportFormat::c: got = run_c(m, d, options.prefix, code); break;
  }
  if (got.size() != d.rows())
    throw std::runtime_error("the export returned " + std::to_string(got.size()) + " rows for " +
                             std::to_string(d.rows()));
  ExportCheck check;
  check.rows = d.rows();
  const auto& classes = m.schema.class_attribute.values;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    const auto want = m.predict_proba(d, r);
    const auto best = static_cast<std::size_t>(std::max_element(want.begin(), want.end()) - want.begin());
    const std::string predicted = m.decides(d, r) ? classes[best] : std::string("undecided");
    double diff = got[r].p.size() == want.size() ? 0.0 : INFINITY;
    for (std::size_t c = 0; c < want.size() && c < got[r].p.size(); ++c) {
      const double e = std::abs(got[r].p[c] - want[c]);
      diff = std::max(diff, std::isnan(e) ? INFINITY : e);
    }
    check.max_difference = std::max(check.max_difference, diff);
    // A class other than the model's counts as a disagreement unless the two tie to within rounding.
    bool class_differs = got[r].predicted != predicted;
    if (class_differs && got[r].predicted != "undecided" && predicted != "undecided") {
      const auto other = std::find(classes.begin(), classes.end(), got[r].predicted);
      class_differs =
          other == classes.end() || want[best] - want[static_cast<std::size_t>(other - classes.begin())] > 1e-9;
    }
    check.class_mismatches += class_differs ? 1 : 0;
    if ((diff > 1e-9 || class_differs) && check.first_mismatch.empty())
      check.first_mismatch = d.source + ":" + std::to_string(r < d.lines.size() ? d.lines[r] : r + 1) +
                             ": the export predicts '" + got[r].predicted + "' where the model predicts '" + predicted +
                             "', probabilities differing by up to " + format_number(diff);
  }
  return check;
}

}  // namespace candor
