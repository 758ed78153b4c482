// libFuzzer target: the SQL export of a model whose names and values are arbitrary text. The input is split
// at '\x1f' into up to eight texts: two attribute names, two values of each, two classes (missing pieces are
// filled in). They make a two-rule model file; when candor loads it and exports it to SQL, the export must be
// one read-only SELECT that SQLite prepares with nothing after it, and run over a table of those columns it
// must give one row per row, each predicted value one of the classes. A refusal (std::invalid_argument, a
// name SQL cannot hold) is an expected answer; SQL that breaks out of a literal or a quoted name is not.
#include <sqlite3.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/export/export.hpp"
#include "candor/model/model.hpp"
#include "fuzz_common.hpp"

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& sql) {
  std::fprintf(stderr, "%s\n--- the export ---\n%s\n", what.c_str(), sql.c_str());
  std::abort();
}

nlohmann::json model_file(const std::vector<std::string>& t) {
  using nlohmann::json;
  const json attributes = json::array({{{"name", t[0]}, {"type", "nominal"}, {"values", {t[2], t[3]}}},
                                       {{"name", t[1]}, {"type", "nominal"}, {"values", {t[4], t[5]}}}});
  auto rule = [&](int c, const std::string& a, const std::string& v) {
    return json{{"class", t[6 + c]},
                {"class_counts", c == 0 ? json{8.0, 1.0} : json{1.0, 8.0}},
                {"conditions", json::array({{{"attribute", a}, {"op", "="}, {"value", v}}})},
                {"covered", 9.0},
                {"interval", {0.5, 0.99}},
                {"probability", 0.85},
                {"quality", 0.85},
                {"training_counts", c == 0 ? json{8.0, 1.0} : json{1.0, 8.0}}};
  };
  return {{"format", "candor-model"},
          {"version", 1},
          {"model", "rule-set"},
          {"attributes", attributes},
          {"class", {{"name", "class"}, {"values", {t[6], t[7]}}}},
          {"default", {{"class_counts", {10.0, 10.0}}, {"probability", {0.5, 0.5}}}},
          {"learner", {{"learner", "cn2-unordered"}}},
          {"rules", json::array({rule(0, t[0], t[2]), rule(1, t[1], t[5])})},
          {"training", {{"class_counts", {10.0, 10.0}}, {"rows", 20}, {"source", "fuzz"}}}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace candor;
  const std::string input = fuzz::text_of(data, size);
  std::vector<std::string> t;
  for (std::size_t start = 0; t.size() < 8;) {
    const std::size_t end = input.find('\x1f', start);
    t.push_back(input.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  static const char* const filler[] = {"a", "b", "x", "y", "u", "v", "p", "n"};
  while (t.size() < 8) t.emplace_back(filler[t.size()]);
  std::unique_ptr<Model> model;
  std::string sql;
  try {
    model = model_from_json(model_file(t), "fuzz.json");
    ExportOptions options;
    options.keys = {"rid"};
    options.source = t[0];
    sql = export_model(*model, ExportFormat::sql, options);
  } catch (const std::exception&) {
    return 0;  // not a model (duplicate names, invalid UTF-8, ...) or text SQL cannot hold: refused
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) std::abort();
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> owner(db, sqlite3_close);
  // The table's columns: the key rid and the two attributes. An attribute may be the key itself (SQLite
  // folds ASCII case in names): the export then passes its value through, and the table holds it once.
  const auto folded = [](std::string name) {
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return name;
  };
  const bool key_is_attribute = folded(t[0]) == "rid" || folded(t[1]) == "rid";
  const std::string create = "CREATE TABLE data (" + std::string(key_is_attribute ? "" : "rid INTEGER, ") +
                             sql_identifier(t[0]) + " TEXT, " + sql_identifier(t[1]) + " TEXT)";
  if (sqlite3_exec(db, create.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
    fail("the export's own column names do not make a table: " + std::string(sqlite3_errmsg(db)), sql);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, key_is_attribute ? "INSERT INTO data VALUES (?, ?)" : "INSERT INTO data VALUES (?, ?, ?)", -1,
                     &insert, nullptr);
  const std::vector<std::pair<std::string, std::string>> rows{{t[2], t[4]}, {t[3], t[5]}, {t[2], t[5]}, {"", ""}};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    sqlite3_reset(insert);
    const int first = key_is_attribute ? 1 : 2;
    if (!key_is_attribute) sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(r));
    sqlite3_bind_text(insert, first, rows[r].first.data(), static_cast<int>(rows[r].first.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, first + 1, rows[r].second.data(), static_cast<int>(rows[r].second.size()),
                      SQLITE_TRANSIENT);
    sqlite3_step(insert);
  }
  sqlite3_finalize(insert);
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, &tail) != SQLITE_OK || !stmt)
    fail("SQLite does not prepare the export: " + std::string(sqlite3_errmsg(db)), sql);
  sqlite3_stmt* second = nullptr;
  if (tail && sqlite3_prepare_v2(db, tail, -1, &second, nullptr) == SQLITE_OK && second)
    fail("the export holds a second statement", sql);
  if (!sqlite3_stmt_readonly(stmt)) fail("the export is not read-only", sql);
  std::size_t n = 0;
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    ++n;
    const auto* text = sqlite3_column_text(stmt, 1);
    const std::string predicted =
        text ? std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(stmt, 1)))
             : std::string();
    if (predicted != t[6] && predicted != t[7]) fail("the export predicts '" + predicted + "', no class", sql);
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE || n != rows.size()) fail("the export did not run to one row per row", sql);
  return 0;
}
