#include "export_check.hpp"

#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
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

// How long one run of an export (or its compilation) may take in the check.
constexpr int kCheckSeconds = 120;
// The exit code by which a check's driver says the export is not what candor writes (and ran none of it).
constexpr int kRefused = 3;

// SQLite's authorizer for the export: reading the check's table and the query's own steps, and the two
// functions the exports call; nothing else.
int authorize_export(void*, int action, const char* a, const char* b, const char*, const char*) {
  switch (action) {
    case SQLITE_SELECT: return SQLITE_OK;
    case SQLITE_READ: return SQLITE_OK;  // columns of `data` and of the query's steps (its only tables)
    case SQLITE_FUNCTION: {
      const std::string name = b ? b : (a ? a : "");
      return sqlite3_stricmp(name.c_str(), "exp") == 0 || sqlite3_stricmp(name.c_str(), "ln") == 0 ? SQLITE_OK
                                                                                                   : SQLITE_DENY;
    }
    default: return SQLITE_DENY;
  }
}

int past_deadline(void* deadline) {
  return std::chrono::steady_clock::now() > *static_cast<std::chrono::steady_clock::time_point*>(deadline) ? 1 : 0;
}

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
  // The export runs as one read-only SELECT over the check's table: an authorizer refuses every other action
  // (ATTACH, PRAGMA, writes, functions but EXP and LN), a second statement is refused before anything runs,
  // and a progress handler ends a query that runs past the time limit.
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_set_authorizer(db, authorize_export, nullptr);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kCheckSeconds);
  sqlite3_progress_handler(db, 10000, past_deadline, &deadline);
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, &tail) != SQLITE_OK || !stmt)
    throw std::invalid_argument("the SQL export is not a query SQLite runs as the check allows (" +
                                std::string(sqlite3_errmsg(db)) + "); nothing of it ran");
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(stmt, sqlite3_finalize);
  sqlite3_stmt* second = nullptr;
  if (tail && sqlite3_prepare_v2(db, tail, -1, &second, nullptr) == SQLITE_OK && second) {
    sqlite3_finalize(second);
    throw std::invalid_argument("the SQL export holds more than one statement; nothing of it ran");
  }
  if (!sqlite3_stmt_readonly(stmt))
    throw std::invalid_argument("the SQL export is not a read-only query; nothing of it ran");
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
  if (rc == SQLITE_INTERRUPT)
    throw std::invalid_argument("the SQL export did not finish within " + std::to_string(kCheckSeconds) + " s");
  if (rc != SQLITE_DONE) fail("the exported SQL");
  return out;
}

// Runs a program of the check in `dir` (a fresh temporary folder), reading nothing, within the time limit,
// with an argument vector (no shell).
std::string run_child(const std::vector<std::string>& argv, const std::string& what, const std::filesystem::path& dir) {
  ProcessOptions po;
  po.capture_stdout = true;
  po.stdin_null = true;
  po.working_directory = dir.string();
  po.time_limit_seconds = kCheckSeconds;
  const auto result = run_process(argv, po);
  // A missing python3 or cc is the user's setup, not a bug (exit 2); a failing export is a bug (exit 1).
  if (result.exit_code == 127)
    throw std::invalid_argument("cannot start '" + argv[0] + "' to check the " + what + " (is it installed?)");
  if (result.timed_out)
    throw std::invalid_argument("the " + what + " did not finish within " + std::to_string(kCheckSeconds) + " s");
  if (result.exit_code == kRefused)
    throw std::invalid_argument("the " + what + " is not the program candor writes: " +
                                result.output.substr(0, result.output.find('\n')) + "; nothing of it ran");
  if (result.exit_code != 0)
    throw std::runtime_error("'" + argv[0] + "' failed (exit " + std::to_string(result.exit_code) + ") on the " + what);
  return result.output;
}

// Every text of the model that an export may hold as a literal: class values, attribute names and nominal
// values.
std::set<std::string> model_strings(const Model& m) {
  std::set<std::string> out(m.schema.class_attribute.values.begin(), m.schema.class_attribute.values.end());
  for (const auto& a : m.schema.attributes) {
    out.insert(a.name);
    out.insert(a.values.begin(), a.values.end());
  }
  return out;
}

// The Python check's driver. It reads the module with Python's own parser and runs it only when every node
// is of the subset candor's printer writes (assignments, functions, conditions, arithmetic, comparisons;
// `import math`; calls of the module's own helpers and of float, str, int, isinstance, dict, zip, max, range,
// len; attributes row.get, math.exp and math.log only) and every string in it is a docstring or one of the
// model's own texts. Only then is the module executed, with the rows passed as JSON.
const char* const kPythonDriver = R"py(import ast, json, re, sys

REFUSED = 3
module_path, rows_path, strings_path = sys.argv[1:4]
with open(module_path, encoding="utf-8") as f:
    source = f.read()
with open(strings_path, encoding="utf-8") as f:
    allowed_strings = set(json.load(f)) | {"undecided"}

def refuse(why):
    print(why)
    sys.exit(REFUSED)

if not source.isascii():
    refuse("the module is not ASCII")
try:
    tree = ast.parse(source, filename="exported_model.py")
except SyntaxError as e:
    refuse("Python cannot parse it (line %s: %s)" % (e.lineno, e.msg))

NODES = (ast.Module, ast.Expr, ast.Constant, ast.Import, ast.alias, ast.Assign, ast.FunctionDef, ast.arguments,
         ast.arg, ast.Return, ast.If, ast.While, ast.Break, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp,
         ast.IfExp, ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.Lambda, ast.keyword,
         ast.Load, ast.Store, ast.And, ast.Or, ast.Not, ast.USub, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Eq,
         ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In)
CALLS = {"_number", "_nominal", "_exp", "_log", "_predict", "float", "str", "int", "isinstance", "dict", "zip",
         "max", "range", "len"}
ATTRIBUTES = {("row", "get"), ("math", "exp"), ("math", "log")}
NAME = re.compile(r"(a|v|_T)[0-9]+|row|name|v|p|c|decided|CLASSES|ATTRIBUTES|math|_|" + "|".join(CALLS))
FUNCTIONS = {"_number", "_nominal", "_predict", "predict_proba", "predict"}
TOP = re.compile(r"CLASSES|ATTRIBUTES|_exp|_log|_T[0-9]+")

docstrings = set()
for node in [tree] + [n for n in tree.body if isinstance(n, ast.FunctionDef)]:
    if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
        docstrings.add(id(node.body[0].value))
for node in tree.body:
    if isinstance(node, ast.Import):
        if [a.name for a in node.names] != ["math"] or node.names[0].asname:
            refuse("it imports something other than math")
    elif isinstance(node, ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) or not TOP.fullmatch(node.targets[0].id):
            refuse("it assigns a module name candor does not write")
    elif isinstance(node, ast.FunctionDef):
        if node.name not in FUNCTIONS or node.decorator_list:
            refuse("it defines a function candor does not write")
    elif not (isinstance(node, ast.Expr) and id(node.value) in docstrings):
        refuse("line %d holds a statement candor does not write" % node.lineno)
for node in ast.walk(tree):
    if not isinstance(node, NODES):
        refuse("line %s holds %s, which candor does not write" % (getattr(node, "lineno", "?"), type(node).__name__))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value not in allowed_strings and id(node) not in docstrings:
            refuse("line %d holds a string that is none of the model's" % node.lineno)
    elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, bool, type(None))):
        refuse("line %d holds a constant candor does not write" % node.lineno)
    if isinstance(node, ast.Name) and not NAME.fullmatch(node.id):
        refuse("line %d names %r, which candor does not write" % (node.lineno, node.id))
    if isinstance(node, ast.Attribute) and (not isinstance(node.value, ast.Name) or (node.value.id, node.attr) not in ATTRIBUTES):
        refuse("line %d reads an attribute candor does not write" % node.lineno)
    if isinstance(node, ast.Call) and not (
            (isinstance(node.func, ast.Name) and node.func.id in CALLS) or
            (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "row")):
        refuse("line %d calls something candor does not write" % node.lineno)

namespace = {"__name__": "exported_model"}
exec(compile(tree, "exported_model.py", "exec"), namespace)
with open(rows_path, encoding="utf-8") as f:
    rows = json.load(f)
for row in rows:
    p = namespace["predict_proba"](row)
    print(json.dumps([namespace["predict"](row)] + [p[c] for c in namespace["CLASSES"]]))
)py";

std::vector<RowResult> run_python(const Model& m, const Dataset& d, const std::string& code) {
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
  const auto strings = (dir.path / "strings.json").string();
  write_file_atomic(strings, nlohmann::json(model_strings(m)).dump());
  const auto driver = (dir.path / "driver.py").string();
  write_file_atomic(driver, kPythonDriver);
  // -I: isolated (no PYTHON* variables, no user site, not the working folder on the path); -B: no .pyc.
  std::istringstream lines(
      run_child({"python3", "-I", "-B", driver, module, data, strings}, "Python export", dir.path));
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

[[noreturn]] void refuse_c_export(const std::string& why) {
  throw std::invalid_argument("the C export is not the header candor writes: " + why + "; nothing of it ran");
}

// What candor's C export of `m` may hold: its preprocessor lines, its identifiers (besides the numbered v<k>
// and <prefix>_t<k>) and the model's strings.
struct CVocabulary {
  std::set<std::string> directives, identifiers, strings;
};

CVocabulary c_vocabulary(const Model& m, const std::string& prefix) {
  std::string guard = prefix;
  for (char& ch : guard) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  CVocabulary v;
  v.directives = {"#ifndef " + guard + "_MODEL_H",
                  "#define " + guard + "_MODEL_H",
                  "#include <math.h>",
                  "#include <stddef.h>",
                  "#include <string.h>",
                  "#define " + guard + "_CLASSES " + std::to_string(m.schema.class_attribute.values.size()),
                  "#endif"};
  v.identifiers = {"static",
                   "const",
                   "char",
                   "double",
                   "int",
                   "struct",
                   "return",
                   "if",
                   "for",
                   "do",
                   "while",
                   "break",
                   "void",
                   "inline",
                   "exp",
                   "log",
                   "isnan",
                   "strcmp",
                   "NULL",
                   "row",
                   "proba",
                   "best",
                   "c",
                   prefix + "_classes",
                   prefix + "_row",
                   prefix + "_predict_proba",
                   guard + "_CLASSES"};
  for (const auto& f : c_field_names(m.schema)) v.identifiers.insert(f);
  v.strings = model_strings(m);
  return v;
}

// The string literal that opens at code[i] (its quote), with the escapes candor writes (\\, \" and three
// octal digits): its value; `i` ends past its closing quote.
std::string read_c_string(const std::string& code, std::size_t& i, const std::string& where) {
  std::string value;
  ++i;
  for (;;) {
    if (i >= code.size() || code[i] == '\n') refuse_c_export(where + " holds a string that does not end");
    const char c = code[i];
    if (c == '"') break;
    if (c != '\\') {
      value += c;
      ++i;
    } else if (i + 1 < code.size() && (code[i + 1] == '\\' || code[i + 1] == '"')) {
      value += code[i + 1];
      i += 2;
    } else if (i + 3 < code.size() && std::all_of(code.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                                  code.begin() + static_cast<std::ptrdiff_t>(i) + 4,
                                                  [](char o) { return o >= '0' && o <= '7'; })) {
      value += static_cast<char>(std::stoi(code.substr(i + 1, 3), nullptr, 8));
      i += 4;
    } else {
      refuse_c_export(where + " holds an escape candor does not write");
    }
  }
  ++i;
  return value;
}

// The end of the pp-number that starts at code[i]: digits, letters, '.', and a sign after an exponent's e.
std::size_t pp_number_end(const std::string& code, std::size_t i) {
  std::size_t end = i + 1;
  while (end < code.size()) {
    const auto n = static_cast<unsigned char>(code[end]);
    if (std::isalnum(n) || n == '.' || ((n == '+' || n == '-') && (code[end - 1] == 'e' || code[end - 1] == 'E')))
      ++end;
    else
      break;
  }
  return end;
}

// Reads a C export as C's translation phases would, before it is compiled, and refuses (std::invalid_argument)
// anything candor's printer does not write: a byte that is not printable ASCII, a line splice, a trigraph, a
// character constant or a // comment; a preprocessor line that is not one of the header's own; a string
// literal that is not one of the model's texts; an identifier that is not a C keyword, function or name of
// the header's. So no text of the data can have left the literal or comment it was printed into.
void verify_c_export(const Model& m, const std::string& prefix, const std::string& code) {
  const CVocabulary vocabulary = c_vocabulary(m, prefix);
  auto numbered = [](const std::string& id, const std::string& stem) {
    return id.size() > stem.size() && id.compare(0, stem.size(), stem) == 0 &&
           std::all_of(id.begin() + static_cast<std::ptrdiff_t>(stem.size()), id.end(),
                       [](unsigned char ch) { return std::isdigit(ch); });
  };
  std::size_t line = 1;
  bool line_start = true;
  for (std::size_t i = 0; i < code.size();) {
    const auto ch = static_cast<unsigned char>(code[i]);
    const std::string where = "line " + std::to_string(line);
    if ((ch < 0x20 && ch != '\n' && ch != ' ') || ch >= 0x7f)
      refuse_c_export(where + " holds a byte that is not printable ASCII");
    if (ch == '\\' && i + 1 < code.size() && code[i + 1] == '\n') refuse_c_export(where + " ends in a line splice");
    if (ch == '?' && i + 1 < code.size() && code[i + 1] == '?') refuse_c_export(where + " holds a trigraph");
    if (ch == '\n') {
      ++line;
      line_start = true;
      ++i;
    } else if (ch == ' ') {
      ++i;
    } else if (ch == '#' && line_start) {
      const std::size_t end = code.find('\n', i);
      const std::string directive = code.substr(i, end == std::string::npos ? std::string::npos : end - i);
      if (!vocabulary.directives.count(directive))
        refuse_c_export(where + " is a preprocessor line candor does not write");
      i = end == std::string::npos ? code.size() : end;
    } else if (code.compare(i, 2, "/*") == 0) {
      const std::size_t end = code.find("*/", i + 2);
      if (end == std::string::npos) refuse_c_export(where + " opens a comment that does not end");
      line += static_cast<std::size_t>(std::count(code.begin() + static_cast<std::ptrdiff_t>(i),
                                                  code.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
      i = end + 2;
      line_start = false;
    } else if (code.compare(i, 2, "//") == 0 || ch == '\'') {
      refuse_c_export(where + " holds a // comment or a character constant");
    } else if (ch == '"') {
      if (!vocabulary.strings.count(read_c_string(code, i, where)))
        refuse_c_export(where + " holds a string that is none of the model's");
      line_start = false;
    } else if (std::isalpha(ch) || ch == '_') {
      std::size_t end = i;
      while (end < code.size() && (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_')) ++end;
      const std::string id = code.substr(i, end - i);
      if (!vocabulary.identifiers.count(id) && !numbered(id, "v") && !numbered(id, prefix + "_t"))
        refuse_c_export(where + " names '" + id + "', which candor does not write");
      i = end;
      line_start = false;
    } else if (std::isdigit(ch) ||
               (ch == '.' && i + 1 < code.size() && std::isdigit(static_cast<unsigned char>(code[i + 1])))) {
      i = pp_number_end(code, i);
      line_start = false;
    } else if (std::strchr("{}[]();,<>=!&|+-*/?:.", ch)) {
      ++i;
      line_start = false;
    } else {
      refuse_c_export(where + " holds '" + std::string(1, static_cast<char>(ch)) + "', which candor does not write");
    }
  }
}

std::vector<RowResult> run_c(const Model& m, const Dataset& d, const std::string& prefix, const std::string& code) {
  verify_c_export(m, prefix, code);
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
  run_child({cc && *cc ? cc : "cc", "-std=c99", "-O1", "-o", program, source, "-lm"}, "C export (compiling)", dir.path);
  std::istringstream lines(run_child({program}, "C export", dir.path));
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
    case ExportFormat::python: got = run_python(m, d, code); break;
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
