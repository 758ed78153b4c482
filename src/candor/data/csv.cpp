// CSV reader: a header row, RFC 4180 quoting ("" inside quotes), type inference (a column is numeric only
// if every non-missing cell parses as a number), configurable missing markers.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "candor/data/input_error.hpp"
#include "candor/data/readers.hpp"
#include "candor/data/table.hpp"

namespace candor {

namespace detail {
std::vector<CsvCell> split_csv_line(std::string_view s, char delim, const std::string& file, std::size_t line) {
  using Cell = CsvCell;
  std::vector<Cell> out;
  std::size_t i = 0;
  while (true) {
    Cell c;
    while (i < s.size() && s[i] == ' ' && delim != ' ') ++i;
    if (i < s.size() && s[i] == '"') {
      c.quoted = true;
      ++i;
      while (true) {
        if (i >= s.size()) throw InputError(file, line, "unterminated quoted value (quoted line breaks are not supported)");
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') { c.text += '"'; i += 2; continue; }
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
    out.push_back(std::move(c));
    if (i < s.size()) { ++i; continue; }
    break;
  }
  return out;
}
}  // namespace detail

namespace {
using Cell = detail::CsvCell;
using detail::split_csv_line;
}  // namespace

Dataset parse_csv(const std::string& text, const std::string& file, const LoadOptions& options, char delim) {
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  std::vector<Cell> header;
  std::size_t header_line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (detail::trim(raw).empty()) continue;
    header = split_csv_line(raw, delim, file, line);
    header_line = line;
    break;
  }
  if (header.empty()) throw InputError(file, 0, "empty file: expected a header row");
  const std::size_t ncol = header.size();
  detail::RawTable t;
  t.file = file;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t c = 0; c < ncol; ++c) {
    if (header[c].text.empty()) throw InputError(file, header_line, "column " + std::to_string(c + 1) + " has an empty name");
    if (!seen.emplace(header[c].text, c).second)
      throw InputError(file, header_line, "duplicate column name '" + header[c].text + "'");
    Attribute a;
    a.name = header[c].text;
    t.attributes.push_back(a);
    t.header_lines.push_back(header_line);
  }
  std::vector<std::vector<std::string>> cells(ncol);
  std::vector<std::vector<char>> missing(ncol);
  while (std::getline(in, raw)) {
    ++line;
    if (detail::trim(raw).empty()) continue;
    auto row = split_csv_line(raw, delim, file, line);
    if (row.size() != ncol)
      throw InputError(file, line, "row has " + std::to_string(row.size()) + " values but the header has " +
                                       std::to_string(ncol) + " columns");
    for (std::size_t c = 0; c < ncol; ++c) {
      bool is_missing = std::find(options.missing_markers.begin(), options.missing_markers.end(),
                                  detail::trim(row[c].text)) != options.missing_markers.end();
      missing[c].push_back(is_missing);
      cells[c].push_back(std::move(row[c].text));
    }
    t.row_lines.push_back(line);
  }
  const std::size_t rows = t.row_lines.size();
  t.columns.resize(ncol);
  for (std::size_t c = 0; c < ncol; ++c) {
    // A column the model declares nominal stays nominal even when its values look like numbers.
    bool force_nominal = false;
    if (options.schema) {
      int a = options.schema->attribute_index(t.attributes[c].name);
      const Attribute* want = a >= 0 ? &options.schema->attributes[a]
                              : options.schema->class_attribute.name == t.attributes[c].name ? &options.schema->class_attribute
                                                                                             : nullptr;
      force_nominal = want && want->is_nominal();
    } else if (t.attributes[c].name == options.class_name || (options.class_name.empty() && c + 1 == ncol)) {
      force_nominal = true;  // the class of a classification task is nominal, even with labels 0/1
    }
    bool numeric = !force_nominal;
    std::vector<double> values(rows);
    if (force_nominal && !options.schema) {
      // Integer labels (0/1, 1..k) are classes; non-integer numbers mean a regression target.
      bool all_numbers = rows > 0, any_fraction = false;
      for (std::size_t r = 0; r < rows && all_numbers; ++r) {
        if (missing[c][r]) continue;
        double x;
        all_numbers = detail::parse_number(cells[c][r], x);
        any_fraction |= all_numbers && x != std::floor(x);
      }
      if (all_numbers && any_fraction)
        throw InputError(file, header_line, "class attribute '" + t.attributes[c].name +
                                                "' is numeric; candor learns classification rules: choose a nominal "
                                                "class with --class");
    }
    for (std::size_t r = 0; r < rows && numeric; ++r) {
      if (missing[c][r]) { values[r] = std::nan(""); continue; }
      numeric = detail::parse_number(cells[c][r], values[r]);
    }
    Attribute& a = t.attributes[c];
    if (numeric) {
      a.type = AttributeType::numeric;
      t.columns[c].values = std::move(values);
    } else {
      a.type = AttributeType::nominal;
      std::unordered_map<std::string, int> index;
      auto& codes = t.columns[c].codes;
      codes.resize(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        if (missing[c][r]) { codes[r] = kMissing; continue; }
        auto [it, inserted] = index.emplace(cells[c][r], static_cast<int>(a.values.size()));
        if (inserted) a.values.push_back(cells[c][r]);
        codes[r] = it->second;
      }
    }
  }
  return detail::finish_table(std::move(t), options);
}

Dataset read_csv(const std::string& path, const LoadOptions& options, char delim) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path, 0, "cannot open file");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_csv(ss.str(), path, options, delim);
}

Dataset load_dataset(const std::string& path, const LoadOptions& options, std::vector<std::string>* dropped) {
  auto ends_with = [&](std::string_view ext) {
    if (path.size() < ext.size()) return false;
    for (std::size_t i = 0; i < ext.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + i])) != ext[i]) return false;
    return true;
  };
  if (ends_with(".arff")) return read_arff(path, options, dropped);
  if (ends_with(".tsv")) return read_csv(path, options, '\t');
  return read_csv(path, options, ',');
}

}  // namespace candor
