// CSV reader: a header row, RFC 4180 quoting ("" inside quotes), type inference (a column is numeric only
// if every non-missing cell parses as a number), configurable missing markers.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "candor/data.hpp"
#include "candor/data/table.hpp"
#include "candor/errors.hpp"

namespace candor {

namespace detail {
void split_csv_line(std::string_view s, char delim, const std::string& file, std::size_t line,
                    std::vector<CsvCell>& out) {
  std::size_t used = 0;
  std::size_t i = 0;
  while (true) {
    if (used == out.size()) out.emplace_back();
    CsvCell& c = out[used++];
    c.text.clear();
    c.quoted = false;
    while (i < s.size() && s[i] == ' ' && delim != ' ') ++i;
    if (i < s.size() && s[i] == '"') {
      c.quoted = true;
      ++i;
      while (true) {
        if (i >= s.size())
          throw InputError(file, line, "unterminated quoted value (quoted line breaks are not supported)");
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') {
            c.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        c.text += s[i++];
      }
      while (i < s.size() && s[i] == ' ') ++i;
      if (i < s.size() && s[i] != delim) throw InputError(file, line, "unexpected text after a quoted value");
    } else {
      std::size_t b = i;
      while (i < s.size() && s[i] != delim) ++i;
      c.text = detail::trim(s.substr(b, i - b));
    }
    if (i < s.size()) {
      ++i;
      continue;
    }
    break;
  }
  out.resize(used);
}

std::vector<CsvCell> split_csv_line(std::string_view s, char delim, const std::string& file, std::size_t line) {
  std::vector<CsvCell> out;
  split_csv_line(s, delim, file, line, out);
  return out;
}
}  // namespace detail

namespace {
using Cell = detail::CsvCell;
using detail::split_csv_line;

// A line of nothing but spaces is skipped; a line holding a delimiter is a row, even when every cell of it
// is empty (its missing class must not vanish with it).
bool blank_line(const std::string& text, char delim) {
  return text.find(delim) == std::string::npos && detail::trim(text).empty();
}

// The header row: the first line that is not blank (`line` and `header_line` its number), its columns named
// into t.attributes. A header of one column that holds another common separator is refused, naming it.
std::size_t read_header(std::istream& in, const std::string& file, char delim, detail::RawTable& t, std::size_t& line) {
  std::string raw;
  std::vector<Cell> header;
  std::size_t header_line = 0;
  while (std::getline(in, raw)) {
    ++line;
    // A UTF-8 byte order mark is not part of the first column's name.
    if (line == 1 && raw.rfind("\xEF\xBB\xBF", 0) == 0) raw.erase(0, 3);
    detail::require_utf8(raw, file, line);
    if (blank_line(raw, delim)) continue;
    header = split_csv_line(raw, delim, file, line);
    header_line = line;
    break;
  }
  if (header.empty()) throw InputError(file, 0, "empty file: expected a header row");
  const std::size_t ncol = header.size();
  // One column whose name holds another common separator: the file is most likely separated by it.
  if (ncol == 1) {
    for (const char other : {',', '\t', ';', '|'}) {
      if (other == delim || header[0].text.find(other) == std::string::npos) continue;
      const std::string shown = other == '\t' ? "tabs" : std::string("'") + other + "'";
      throw InputError(file, header_line,
                       "the header is one column but holds " + shown +
                           ": a .csv file is read as comma-separated, a .tsv file as tab-separated; name the separator "
                           "with --delimiter");
    }
  }
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t c = 0; c < ncol; ++c) {
    if (header[c].text.empty())
      throw InputError(file, header_line, "column " + std::to_string(c + 1) + " has an empty name");
    if (!seen.emplace(header[c].text, c).second)
      throw InputError(file, header_line, "duplicate column name '" + header[c].text + "'");
    Attribute a;
    a.name = header[c].text;
    t.attributes.push_back(a);
    t.header_lines.push_back(header_line);
  }
  return header_line;
}

// A column the model declares nominal stays nominal even when its values look like numbers; so does the
// class of a classification task, even with labels 0/1.
std::vector<char> forced_nominal(const detail::RawTable& t, const LoadOptions& options) {
  const std::size_t ncol = t.attributes.size();
  std::vector<char> force_nominal(ncol, 0);
  for (std::size_t c = 0; c < ncol; ++c) {
    if (options.schema) {
      int a = options.schema->attribute_index(t.attributes[c].name);
      const Attribute* want = a >= 0 ? &options.schema->attributes[a]
                              : options.schema->class_attribute.name == t.attributes[c].name
                                  ? &options.schema->class_attribute
                                  : nullptr;
      force_nominal[c] = (want && want->is_nominal()) ||
                         std::find(options.key_columns.begin(), options.key_columns.end(), t.attributes[c].name) !=
                             options.key_columns.end();
    } else if (t.attributes[c].name == options.class_name || (options.class_name.empty() && c + 1 == ncol)) {
      force_nominal[c] = 1;
    }
  }
  return force_nominal;
}

bool is_missing(const Cell& cell, const LoadOptions& options) {
  return std::find(options.missing_markers.begin(), options.missing_markers.end(), detail::trim(cell.text)) !=
         options.missing_markers.end();
}

// Pass 1: every row's width checked and its line kept (t.row_lines), and each column's type decided: numeric
// only if every non-missing cell parses as a number and the column is not forced nominal.
std::vector<char> column_types(std::istream& in, const std::string& file, char delim, const LoadOptions& options,
                               std::size_t header_line, std::size_t line, detail::RawTable& t) {
  const std::size_t ncol = t.attributes.size();
  const std::vector<char> force_nominal = forced_nominal(t, options);
  std::vector<char> all_numbers(ncol, 1), any_fraction(ncol, 0);
  // For the warning about nearly numeric columns: cells that are numbers, cells that are not, the first
  // cell that is not (line and text).
  std::vector<std::size_t> numbers(ncol, 0), others(ncol, 0), first_other_line(ncol, 0);
  std::vector<std::string> first_other(ncol);
  std::string raw;
  std::vector<Cell> row;
  while (std::getline(in, raw)) {
    ++line;
    detail::require_utf8(raw, file, line);
    if (blank_line(raw, delim)) continue;
    split_csv_line(raw, delim, file, line, row);
    if (row.size() != ncol)
      throw InputError(
          file, line,
          "row has " + std::to_string(row.size()) + " values but the header has " + std::to_string(ncol) + " columns");
    for (std::size_t c = 0; c < ncol; ++c) {
      if (is_missing(row[c], options)) continue;
      double x;
      if (detail::parse_number(row[c].text, x)) {
        ++numbers[c];
        any_fraction[c] |= x != std::floor(x);
      } else {
        if (others[c]++ == 0) {
          first_other_line[c] = line;
          first_other[c] = printable(row[c].text, 40);
        }
        all_numbers[c] = 0;
      }
    }
    t.row_lines.push_back(line);
  }
  const std::size_t rows = t.row_lines.size();
  std::vector<char> numeric(ncol);
  for (std::size_t c = 0; c < ncol; ++c) {
    // Integer labels (0/1, 1..k) are classes; non-integer numbers mean a regression target.
    if (force_nominal[c] && !options.schema && rows > 0 && all_numbers[c] && any_fraction[c])
      throw InputError(file, header_line,
                       "class attribute '" + t.attributes[c].name +
                           "' is numeric; candor learns classification rules: choose a nominal "
                           "class with --class");
    numeric[c] = !force_nominal[c] && all_numbers[c];
    t.attributes[c].type = numeric[c] ? AttributeType::numeric : AttributeType::nominal;
    if (options.warnings && !force_nominal[c] && !options.schema && others[c] > 0 && numbers[c] >= 9 * others[c]) {
      options.warnings->push_back(file + ":" + std::to_string(first_other_line[c]) + ": column '" +
                                  t.attributes[c].name + "' is read as nominal because '" + first_other[c] +
                                  "' is not a number (" + std::to_string(numbers[c]) + " of its " +
                                  std::to_string(numbers[c] + others[c]) +
                                  " cells are); fix the cell or name it missing with --missing");
    }
  }
  return numeric;
}

// Pass 2: the stream read again from its start, the cells parsed straight into their columns (numbers, or
// nominal codes in the order their values first appear).
void fill_columns(std::istream& in, const std::string& file, char delim, const LoadOptions& options,
                  std::size_t header_line, const std::vector<char>& numeric, detail::RawTable& t) {
  const std::size_t ncol = t.attributes.size(), rows = t.row_lines.size();
  t.columns.resize(ncol);
  for (std::size_t c = 0; c < ncol; ++c) {
    if (numeric[c])
      t.columns[c].values.resize(rows);
    else
      t.columns[c].codes.resize(rows);
  }
  std::vector<std::unordered_map<std::string, int>> codes_of(ncol);
  in.clear();
  in.seekg(0);
  if (!in) throw InputError(file, 0, "cannot read the file a second time");
  std::string raw;
  std::vector<Cell> row;
  for (std::size_t l = 0; l < header_line; ++l) std::getline(in, raw);
  std::size_t r = 0;
  while (std::getline(in, raw)) {
    if (blank_line(raw, delim)) continue;
    if (r >= rows) throw InputError(file, 0, "the file changed while it was read");
    split_csv_line(raw, delim, file, t.row_lines[r], row);
    if (row.size() != ncol) throw InputError(file, t.row_lines[r], "the file changed while it was read");
    for (std::size_t c = 0; c < ncol; ++c) {
      const bool missing = is_missing(row[c], options);
      if (numeric[c]) {
        double& x = t.columns[c].values[r];
        if (missing)
          x = std::nan("");
        else if (!detail::parse_number(row[c].text, x))
          throw InputError(file, t.row_lines[r], "the file changed while it was read");
      } else if (missing) {
        t.columns[c].codes[r] = kMissing;
      } else {
        Attribute& a = t.attributes[c];
        auto [it, inserted] = codes_of[c].emplace(row[c].text, static_cast<int>(a.values.size()));
        if (inserted) a.values.push_back(row[c].text);
        t.columns[c].codes[r] = it->second;
      }
    }
    ++r;
  }
  if (r != rows) throw InputError(file, 0, "the file changed while it was read");
}

// Nominal values are texts: "1" and "1.0" are two values (two classes in a class column). Says so when
// two texts of one column are the same number.
void warn_same_number_texts(const detail::RawTable& t, const std::vector<char>& numeric, const std::string& file,
                            std::size_t header_line, const LoadOptions& options) {
  if (!options.warnings || options.schema) return;
  for (std::size_t c = 0; c < t.attributes.size(); ++c) {
    if (numeric[c]) continue;
    std::map<double, const std::string*> seen;
    for (const auto& v : t.attributes[c].values) {
      double x;
      if (!detail::parse_number(v, x)) continue;
      auto [it, inserted] = seen.emplace(x, &v);
      if (!inserted) {
        options.warnings->push_back(file + ":" + std::to_string(header_line) + ": column '" + t.attributes[c].name +
                                    "' has the values '" + *it->second + "' and '" + v +
                                    "', the same number written two ways: they are read as two different values");
        break;
      }
    }
  }
}

// Reads the stream twice, so that no cell is ever held as text: the first pass checks every row's width
// and decides each column's type (numeric only if every non-missing cell parses as a number), the second
// parses the cells straight into numbers or nominal codes. Memory is the columns themselves.
Dataset parse_csv_stream(std::istream& in, const std::string& file, const LoadOptions& options, char delim) {
  detail::RawTable t;
  t.file = file;
  std::size_t line = 0;
  const std::size_t header_line = read_header(in, file, delim, t, line);
  const std::vector<char> numeric = column_types(in, file, delim, options, header_line, line, t);
  fill_columns(in, file, delim, options, header_line, numeric, t);
  warn_same_number_texts(t, numeric, file, header_line, options);
  return detail::finish_table(std::move(t), options);
}
}  // namespace

Dataset parse_csv(const std::string& text, const std::string& file, const LoadOptions& options, char delim) {
  std::istringstream in(text);
  return parse_csv_stream(in, file, options, delim);
}

Dataset read_csv(const std::string& path, const LoadOptions& options, char delim) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "is a directory, not a data file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path, 0, "cannot open file");
  return parse_csv_stream(f, path, options, delim);
}

Dataset load_dataset(const std::string& path, const LoadOptions& options, std::vector<std::string>* dropped) {
  auto ends_with = [&](std::string_view ext) {
    if (path.size() < ext.size()) return false;
    for (std::size_t i = 0; i < ext.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + i])) != ext[i]) return false;
    return true;
  };
  // Files that are not data, named as such before a reader meets their first bytes.
  for (const char* compressed : {".gz", ".bz2", ".xz", ".zst", ".zip"})
    if (ends_with(compressed))
      throw InputError(path, 0,
                       "is a compressed file; candor reads ARFF and CSV as text: decompress it first (for example "
                       "gunzip -k, bunzip2 -k, unxz -k, unzstd, unzip)");
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) {
    std::ifstream head(path, std::ios::binary);
    std::string start(64, '\0');
    head.read(start.data(), static_cast<std::streamsize>(start.size()));
    start.resize(static_cast<std::size_t>(head.gcount()));
    if (start.rfind("\x1f\x8b", 0) == 0 || start.rfind("PK\x03\x04", 0) == 0)
      throw InputError(path, 0, "is a compressed file (gzip or zip); decompress it first");
    const std::size_t first = start.find_first_not_of(" \t\r\n");
    if (ends_with(".json") || (first != std::string::npos && start[first] == '{'))
      throw InputError(path, 1,
                       "is JSON (a model file?), not data: candor reads ARFF (.arff) and CSV (.csv, .tsv); in "
                       "'candor predict MODEL DATA' the model comes first");
  }
  if (ends_with(".arff")) return read_arff(path, options, dropped);
  if (options.delimiter) return read_csv(path, options, options.delimiter);
  if (ends_with(".tsv")) return read_csv(path, options, '\t');
  return read_csv(path, options, ',');
}

}  // namespace candor
