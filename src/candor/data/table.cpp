#include "candor/data/table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "candor/errors.hpp"
#include "candor/util/names.hpp"
#include "candor/util/utf8.hpp"

namespace candor::detail {

// The shortest text that reads back as `x` (std::to_chars without a precision).
static std::string shortest_text(double x) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, x).ptr;
  return std::string(buffer, end);
}

void require_utf8(std::string_view text, const std::string& file, std::size_t line) {
  const std::size_t bad = invalid_utf8_at(text);
  if (bad == std::string_view::npos) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text[bad]));
  throw InputError(file, line,
                   "not UTF-8 text: byte " + std::string(byte) + " at column " + std::to_string(bad + 1) +
                       " (save the file as UTF-8; iconv -f latin1 -t utf-8 converts a Latin-1 file)");
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return std::string(s.substr(b, e - b));
}

bool parse_number(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}

namespace {

std::string list_names(const std::vector<Attribute>& attrs) {
  std::string s;
  for (std::size_t i = 0; i < attrs.size() && i < 12; ++i) s += (i ? ", " : "") + attrs[i].name;
  if (attrs.size() > 12) s += ", ...";
  return s;
}

// "; did you mean 'NAME'?" for the column of `t` closest to a name the user gave (a typo), or "".
std::string did_you_mean(const RawTable& t, const std::string& given) {
  std::vector<std::string> names;
  for (const auto& a : t.attributes) names.push_back(a.name);
  const std::string close = closest_name(given, names);
  return close.empty() ? std::string() : "; did you mean '" + close + "'?";
}

// The line a problem with the header as a whole is reported at: where its first column is declared.
std::size_t header_line(const RawTable& t) { return t.header_lines.empty() ? 0 : t.header_lines.front(); }

// The line of the first row whose nominal cell has value index `v`: where a bad value is reported.
std::size_t first_line_with(const RawTable& t, std::size_t column, std::size_t v) {
  const auto& codes = t.columns[column].codes;
  for (std::size_t r = 0; r < codes.size(); ++r)
    if (codes[r] == static_cast<int>(v)) return t.row_lines[r];
  return t.header_lines[column];
}

int find_attribute(const std::vector<Attribute>& attrs, const std::string& name) {
  for (std::size_t i = 0; i < attrs.size(); ++i)
    if (attrs[i].name == name) return static_cast<int>(i);
  return -1;
}

// Maps a file's nominal codes onto the model's value list. Values the model never saw get the code
// values.size(): a code no A = v condition matches but every A != v condition does.
std::vector<int> remap_codes(const Attribute& file_attr, const Attribute& model_attr) {
  std::vector<int> map(file_attr.values.size());
  for (std::size_t v = 0; v < file_attr.values.size(); ++v) {
    int idx = model_attr.value_index(file_attr.values[v]);
    map[v] = idx >= 0 ? idx : static_cast<int>(model_attr.values.size());
  }
  return map;
}

void conform_column(const RawTable& t, std::size_t src, const Attribute& want, Column& out) {
  const Attribute& have = t.attributes[src];
  const Column& col = t.columns[src];
  if (want.is_nominal()) {
    if (!have.is_nominal()) {
      // A column read as numeric can still be nominal for the model (e.g. values 0/1, or all missing).
      const std::size_t rows = col.values.size();
      out.codes.resize(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        double x = col.values[r];
        if (std::isnan(x)) {
          out.codes[r] = kMissing;
          continue;
        }
        // Match the numeric cell against the model's value texts numerically.
        int code = static_cast<int>(want.values.size());
        for (std::size_t v = 0; v < want.values.size(); ++v) {
          double mv;
          if (parse_number(want.values[v], mv) && mv == x) {
            code = static_cast<int>(v);
            break;
          }
        }
        out.codes[r] = code;
      }
      return;
    }
    auto map = remap_codes(have, want);
    out.codes.resize(col.codes.size());
    for (std::size_t r = 0; r < col.codes.size(); ++r)
      out.codes[r] = col.codes[r] == kMissing ? kMissing : map[col.codes[r]];
  } else {
    if (have.is_nominal()) {
      // Nominal in this file, numeric in the model: acceptable only if every value text is a number.
      std::vector<double> as_number(have.values.size());
      for (std::size_t v = 0; v < have.values.size(); ++v)
        if (!parse_number(have.values[v], as_number[v]))
          throw InputError(
              t.file, first_line_with(t, src, v),
              "attribute '" + have.name + "' is numeric in the model but has the value '" + have.values[v] + "' here");
      out.values.resize(col.codes.size());
      for (std::size_t r = 0; r < col.codes.size(); ++r)
        out.values[r] = col.codes[r] == kMissing ? std::nan("") : as_number[col.codes[r]];
      return;
    }
    out.values = col.values;
  }
}

// --weight-column: its values multiply the rows' weights and the column leaves the table; a weight that is not
// a non-negative number, and weights whose sum overflows (counts of infinity, written as null in a model file),
// are refused at their line.
void apply_weight_column(RawTable& t, const LoadOptions& options, Dataset& d) {
  const std::size_t rows = t.row_lines.size();
  if (!options.weight_column.empty()) {
    int w = find_attribute(t.attributes, options.weight_column);
    if (w < 0)
      throw InputError(
          t.file, header_line(t),
          "no weight column named '" + options.weight_column + "' (columns: " + list_names(t.attributes) + ")");
    if (t.attributes[w].is_nominal()) {
      // Read as nominal: some cell is not a finite number. Name the first.
      const Attribute& a = t.attributes[w];
      for (std::size_t v = 0; v < a.values.size(); ++v) {
        double x;
        if (!parse_number(a.values[v], x))
          throw InputError(t.file, first_line_with(t, w, v),
                           "weight '" + a.values[v] + "' in column '" + a.name + "' is not a finite number");
      }
      throw InputError(t.file, t.header_lines[w], "weight column '" + options.weight_column + "' is not numeric");
    }
    for (std::size_t r = 0; r < rows; ++r) {
      double x = t.columns[w].values[r];
      if (std::isnan(x) || x < 0)
        throw InputError(t.file, t.row_lines[r],
                         "weight must be a non-negative number, got " +
                             (std::isnan(x) ? std::string("a missing value") : std::to_string(x)));
      d.weights[r] *= x;
    }
    t.attributes.erase(t.attributes.begin() + w);
    t.columns.erase(t.columns.begin() + w);
    t.header_lines.erase(t.header_lines.begin() + w);
  }
  double total = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    total += d.weights[r];
    if (!std::isfinite(total))
      throw InputError(t.file, t.row_lines[r], "example weights are too large: their sum overflows here");
  }
}

// The --key columns carried through as text, one entry per row (empty where missing).
void carry_key_columns(const RawTable& t, const LoadOptions& options, Dataset& d) {
  const std::size_t rows = t.row_lines.size();
  for (const auto& key : options.key_columns) {
    const int k = find_attribute(t.attributes, key);
    if (k < 0)
      throw InputError(t.file, header_line(t),
                       "no column '" + key + "' to carry through as a key" + did_you_mean(t, key));
    const Attribute& a = t.attributes[static_cast<std::size_t>(k)];
    const Column& col = t.columns[static_cast<std::size_t>(k)];
    std::vector<std::string> text(rows);
    for (std::size_t r = 0; r < rows; ++r)
      if (a.is_nominal())
        text[r] = col.codes[r] == kMissing ? std::string() : a.values[static_cast<std::size_t>(col.codes[r])];
      else
        text[r] = std::isnan(col.values[r]) ? std::string() : shortest_text(col.values[r]);
    d.keys.push_back(std::move(text));
  }
}

// Values the model never saw satisfy no A = v condition (and every A != v): say so, with the first of them, since
// a column of another type or spelling ("1" against "1.0") would otherwise change every prediction.
void warn_unseen_values(const RawTable& t, int src, const Attribute& want, const Column& column,
                        const LoadOptions& options) {
  const std::size_t rows = t.row_lines.size();
  const int unseen = static_cast<int>(want.values.size());
  std::size_t count = 0, first = 0, present = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const int code = column.codes[r];
    if (code == kMissing) continue;
    ++present;
    if (code == unseen && count++ == 0) first = r;
  }
  if (count == 0) return;
  const Attribute& have = t.attributes[static_cast<std::size_t>(src)];
  const Column& col = t.columns[static_cast<std::size_t>(src)];
  const std::string text = printable(have.is_nominal() ? have.values[static_cast<std::size_t>(col.codes[first])]
                                                       : (std::ostringstream() << col.values[first]).str(),
                                     40);
  options.warnings->push_back(t.file + ":" + std::to_string(t.row_lines[first]) + ": attribute '" + want.name +
                              "': " + std::to_string(count) + " of " + std::to_string(present) +
                              " values were never seen in training (first '" + text + "'" +
                              (have.is_nominal() ? "" : ", a number where the model has names") +
                              "); they equal none of its values: A = v fails, A != v holds");
}

// Rows for a model (options.schema): the model's attributes in its order and coding, the class where the file
// has it.
Dataset conform_to_schema(const RawTable& t, const LoadOptions& options, Dataset d) {
  const std::size_t rows = t.row_lines.size();
  const Schema& s = *options.schema;
  d.schema = s;
  carry_key_columns(t, options, d);
  d.columns.resize(s.attributes.size());
  for (std::size_t a = 0; a < s.attributes.size(); ++a) {
    int src = find_attribute(t.attributes, s.attributes[a].name);
    if (src < 0)
      throw InputError(t.file, header_line(t),
                       "the model needs attribute '" + s.attributes[a].name + "', which this file lacks");
    conform_column(t, src, s.attributes[a], d.columns[a]);
    if (options.warnings && s.attributes[a].is_nominal())
      warn_unseen_values(t, src, s.attributes[a], d.columns[a], options);
  }
  d.y.assign(rows, kMissing);
  int c = find_attribute(t.attributes, s.class_attribute.name);
  if (c >= 0) {
    Column cls;
    conform_column(t, c, s.class_attribute, cls);
    for (std::size_t r = 0; r < rows; ++r) {
      int code = cls.codes[r];
      if (code == static_cast<int>(s.class_attribute.values.size()))
        throw InputError(t.file, t.row_lines[r], "class value was not seen when the model was fitted");
      d.y[r] = code;
      if (code == kMissing && options.require_labels) throw InputError(t.file, t.row_lines[r], "missing class value");
    }
  } else if (options.require_labels) {
    throw InputError(t.file, header_line(t), "no class column '" + s.class_attribute.name + "' in this file");
  }
  return d;
}

// Rows to learn from: the class chosen (--class, else the last column) and checked, the other columns the
// attributes.
Dataset training_table(RawTable t, const LoadOptions& options, Dataset d) {
  const std::size_t rows = t.row_lines.size();
  if (rows == 0) throw InputError(t.file, 0, "no data rows");
  if (t.attributes.size() < 2)
    throw InputError(t.file, header_line(t), "need at least one attribute besides the class");
  int c = options.class_name.empty() ? static_cast<int>(t.attributes.size()) - 1
                                     : find_attribute(t.attributes, options.class_name);
  if (c < 0)
    throw InputError(t.file, header_line(t),
                     "no attribute named '" + options.class_name + "' to use as the class" +
                         did_you_mean(t, options.class_name) + " (attributes: " + list_names(t.attributes) + ")");
  const Attribute& cls = t.attributes[c];
  if (!cls.is_nominal())
    throw InputError(t.file, t.header_lines[c],
                     "class attribute '" + cls.name +
                         "' is numeric; candor learns classification rules: declare it nominal or choose another "
                         "class with --class");
  d.schema.class_attribute = cls;
  // A column of many whole numbers (an age, a count) read as the class is a problem of one class per value,
  // which is rarely what was meant: say so, and what to do.
  if (options.warnings && cls.values.size() > 10 &&
      std::all_of(cls.values.begin(), cls.values.end(), [](const std::string& v) {
        double x = 0;
        return parse_number(v, x) && x == std::floor(x);
      }))
    options.warnings->push_back(t.file + ":" + std::to_string(t.header_lines[c]) + ": the class '" + cls.name +
                                "' has " + std::to_string(cls.values.size()) +
                                " values, all whole numbers: candor learns one class per value; to predict ranges, "
                                "bin the column first (e.g. into quantiles), or choose another class with --class");
  d.y = t.columns[c].codes;
  if (options.require_labels) {
    std::set<int> seen;
    for (std::size_t r = 0; r < rows; ++r) {
      if (d.y[r] == kMissing)
        throw InputError(t.file, t.row_lines[r], "missing class value in a training row ('" + cls.name + "')");
      seen.insert(d.y[r]);
    }
    if (seen.size() < 2)
      throw InputError(t.file, 0,
                       "class attribute '" + cls.name + "' is constant: every row has '" + cls.values[*seen.begin()] +
                           "', there is nothing to learn");
  }
  for (std::size_t a = 0; a < t.attributes.size(); ++a) {
    if (static_cast<int>(a) == c) continue;
    d.schema.attributes.push_back(std::move(t.attributes[a]));
    d.columns.push_back(std::move(t.columns[a]));
  }
  return d;
}

}  // namespace

Dataset finish_table(RawTable t, const LoadOptions& options) {
  const std::size_t rows = t.row_lines.size();
  Dataset d;
  d.source = t.file;
  d.lines = t.row_lines;
  d.weights = t.row_weights.empty() ? std::vector<double>(rows, 1.0) : t.row_weights;
  apply_weight_column(t, options, d);
  if (options.schema) return conform_to_schema(t, options, std::move(d));
  return training_table(std::move(t), options, std::move(d));
}

}  // namespace candor::detail
