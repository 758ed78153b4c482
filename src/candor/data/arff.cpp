// ARFF reader (Weka's format): case-insensitive keywords, quoted names and values, % comments,
// unquoted ? as missing, sparse rows {i v, ...}, Weka instance weights {w} after a row.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "candor/data.hpp"
#include "candor/data/table.hpp"
#include "candor/errors.hpp"

namespace candor {
namespace {

using detail::trim;

struct Token {
  std::string text;
  bool quoted = false;
};

bool iequals_prefix(std::string_view s, std::string_view keyword) {
  if (s.size() < keyword.size()) return false;
  for (std::size_t i = 0; i < keyword.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != keyword[i]) return false;
  return s.size() == keyword.size() || std::isspace(static_cast<unsigned char>(s[keyword.size()])) ||
         s[keyword.size()] == '{' || s[keyword.size()] == '\'' || s[keyword.size()] == '"';
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Reads a quoted string starting at s[i] (the quote). Advances i past the closing quote.
std::string read_quoted(std::string_view s, std::size_t& i, const std::string& file, std::size_t line) {
  const char q = s[i++];
  std::string out;
  while (i < s.size() && s[i] != q) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char e = s[++i];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      ++i;
      continue;
    }
    out += s[i++];
  }
  if (i >= s.size()) throw InputError(file, line, "unterminated quoted string");
  ++i;
  return out;
}

// Splits s on `sep` outside quotes; an unquoted % ends the line (comment).
std::vector<Token> split(std::string_view s, char sep, const std::string& file, std::size_t line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    Token tok;
    if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
      tok.text = read_quoted(s, i, file, line);
      tok.quoted = true;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      if (i < s.size() && s[i] != sep && s[i] != '%')
        throw InputError(file, line, "unexpected text after quoted value '" + tok.text + "'");
    } else {
      std::size_t b = i;
      while (i < s.size() && s[i] != sep && s[i] != '%') ++i;
      tok.text = trim(s.substr(b, i - b));
    }
    out.push_back(std::move(tok));
    if (i < s.size() && s[i] == sep) {
      ++i;
      continue;
    }
    break;
  }
  return out;
}

struct Declared {
  Attribute attribute;
  bool skip = false;  // dropped string/date attribute
  std::unordered_map<std::string, int> index;
};

void store(const Declared& decl, Column& col, const Token& tok, const std::string& file, std::size_t line) {
  const Attribute& a = decl.attribute;
  const bool missing = !tok.quoted && tok.text == "?";
  if (a.is_nominal()) {
    if (missing) {
      col.codes.push_back(kMissing);
      return;
    }
    auto it = decl.index.find(tok.text);
    if (it == decl.index.end()) {
      std::string declared;
      for (std::size_t i = 0; i < a.values.size() && i < 10; ++i) declared += (i ? ", " : "") + a.values[i];
      if (a.values.size() > 10) declared += ", ...";
      throw InputError(file, line,
                       "value '" + tok.text + "' is not declared for nominal attribute '" + a.name +
                           "' (declared: " + declared + ")");
    }
    col.codes.push_back(it->second);
  } else {
    if (missing) {
      col.values.push_back(std::nan(""));
      return;
    }
    double x;
    if (!detail::parse_number(tok.text, x))
      throw InputError(file, line, "cannot read '" + tok.text + "' as a number for numeric attribute '" + a.name + "'");
    col.values.push_back(x);
  }
}

double parse_weight(std::string_view braced, const std::string& file, std::size_t line) {
  std::string inner = trim(braced.substr(1, braced.size() - 2));
  double w;
  if (!detail::parse_number(inner, w) || w < 0)
    throw InputError(file, line, "instance weight '{" + inner + "}' is not a non-negative number");
  return w;
}

// One pass over the lines; a file is read from disk as it is parsed, never held whole in memory.
// An @attribute line (`s`, trimmed): its name and type; a string, date or relational attribute is skipped
// with --drop-unsupported (its name added to `dropped`), refused without.
Declared parse_attribute(const std::string& s, const std::string& file, std::size_t line, const LoadOptions& options,
                         std::vector<std::string>* dropped) {
  Declared d;
  std::size_t i = 10;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  if (i >= s.size()) throw InputError(file, line, "@attribute without a name");
  if (s[i] == '\'' || s[i] == '"') {
    d.attribute.name = read_quoted(s, i, file, line);
  } else {
    std::size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != '{') ++i;
    d.attribute.name = s.substr(b, i - b);
  }
  std::string type = trim(std::string_view(s).substr(i));
  if (type.empty()) throw InputError(file, line, "attribute '" + d.attribute.name + "' has no type");
  if (type[0] == '{') {
    std::size_t close = type.rfind('}');
    if (close == std::string::npos)
      throw InputError(file, line, "nominal value list of '" + d.attribute.name + "' is not closed with }");
    d.attribute.type = AttributeType::nominal;
    auto toks = split(std::string_view(type).substr(1, close - 1), ',', file, line);
    for (auto& tok : toks) {
      if (tok.text.empty() && !tok.quoted) {
        if (toks.size() == 1)
          throw InputError(file, line, "nominal attribute '" + d.attribute.name + "' declares no values");
        throw InputError(file, line, "empty value in the nominal list of '" + d.attribute.name + "'");
      }
      if (!d.index.emplace(tok.text, static_cast<int>(d.attribute.values.size())).second)
        throw InputError(file, line, "value '" + tok.text + "' declared twice for '" + d.attribute.name + "'");
      d.attribute.values.push_back(tok.text);
    }
  } else {
    std::string word = lower(type.substr(0, type.find_first_of(" \t")));
    if (word == "numeric" || word == "real" || word == "integer") {
      d.attribute.type = AttributeType::numeric;
    } else if (word == "string" || word == "date" || word == "relational") {
      if (!options.drop_unsupported)
        throw InputError(
            file, line,
            word + " attribute '" + d.attribute.name + "' is not supported (use --drop-unsupported to drop it)");
      d.skip = true;
      if (dropped) dropped->push_back(d.attribute.name);
    } else {
      throw InputError(file, line, "unknown type '" + type + "' for attribute '" + d.attribute.name + "'");
    }
  }
  return d;
}

// What the header declared and the rows read so far.
struct ArffTable {
  detail::RawTable t;
  std::vector<Declared> decls;
  std::vector<int> kept;  // declared index -> column index, -1 when skipped
  std::unordered_map<std::string, std::size_t> names;
  bool any_weight = false;
};

void declare(ArffTable& table, Declared d, const std::string& file, std::size_t line) {
  detail::RawTable& t = table.t;
  if (!table.names.emplace(d.attribute.name, line).second)
    throw InputError(file, line,
                     "duplicate attribute name '" + d.attribute.name + "' (first declared on line " +
                         std::to_string(table.names[d.attribute.name]) + ")");
  table.kept.push_back(d.skip ? -1 : static_cast<int>(t.attributes.size()));
  if (!d.skip) {
    t.attributes.push_back(d.attribute);
    t.header_lines.push_back(line);
  }
  table.decls.push_back(std::move(d));
}

// A sparse row ({index value, ...}, optionally followed by {weight}) into the columns; returns its weight.
double read_sparse_row(ArffTable& table, const std::string& s, const std::string& file, std::size_t line) {
  detail::RawTable& t = table.t;
  const std::vector<Declared>& decls = table.decls;
  const std::vector<int>& kept = table.kept;
  const std::size_t ndecl = decls.size();
  double weight = 1.0;
  std::size_t close = s.find('}');
  if (close == std::string::npos) throw InputError(file, line, "sparse row is not closed with }");
  std::string rest = trim(std::string_view(s).substr(close + 1));
  if (!rest.empty()) {
    if (rest[0] != ',') throw InputError(file, line, "unexpected text after sparse row");
    rest = trim(std::string_view(rest).substr(1));
    if (rest.size() < 2 || rest.front() != '{' || rest.back() != '}')
      throw InputError(file, line, "expected an instance weight {w} after the sparse row");
    weight = parse_weight(rest, file, line);
    table.any_weight = true;
  }
  // Unlisted values are 0 for numeric attributes and the first declared value for nominal ones (Weka).
  std::vector<Token> cells(ndecl);
  std::vector<bool> given(ndecl, false);
  std::string body = s.substr(1, close - 1);
  if (!trim(body).empty()) {
    for (auto& pair : split(body, ',', file, line)) {
      std::size_t sp = pair.text.find_first_of(" \t");
      if (pair.quoted || sp == std::string::npos)
        throw InputError(file, line, "sparse entry '" + pair.text + "' is not 'index value'");
      double idx;
      if (!detail::parse_number(pair.text.substr(0, sp), idx) || idx < 0 || idx >= static_cast<double>(ndecl) ||
          idx != static_cast<double>(static_cast<std::size_t>(idx)))
        throw InputError(
            file, line,
            "sparse index '" + pair.text.substr(0, sp) + "' is not an attribute index 0.." + std::to_string(ndecl - 1));
      if (given[static_cast<std::size_t>(idx)])
        throw InputError(file, line, "sparse index " + pair.text.substr(0, sp) + " is given twice in the row");
      auto value = split(trim(pair.text.substr(sp)), ',', file, line);
      cells[static_cast<std::size_t>(idx)] = value[0];
      given[static_cast<std::size_t>(idx)] = true;
    }
  }
  for (std::size_t a = 0; a < ndecl; ++a) {
    if (kept[a] < 0) continue;
    if (!given[a]) {
      const Attribute& attr = decls[a].attribute;
      cells[a].text = attr.is_nominal() ? attr.values[0] : "0";
      cells[a].quoted = attr.is_nominal();
    }
    store(decls[a], t.columns[kept[a]], cells[a], file, line);
  }
  return weight;
}

// A row of values, one per declared attribute, optionally followed by {weight}, into the columns; returns its
// weight.
double read_dense_row(ArffTable& table, const std::string& s, const std::string& file, std::size_t line) {
  detail::RawTable& t = table.t;
  const std::vector<Declared>& decls = table.decls;
  const std::vector<int>& kept = table.kept;
  const std::size_t ndecl = decls.size();
  double weight = 1.0;
  auto toks = split(s, ',', file, line);
  if (toks.size() == ndecl + 1 && !toks.back().quoted && toks.back().text.size() >= 2 &&
      toks.back().text.front() == '{' && toks.back().text.back() == '}') {
    weight = parse_weight(toks.back().text, file, line);
    table.any_weight = true;
    toks.pop_back();
  }
  if (toks.size() != ndecl)
    throw InputError(
        file, line,
        "row has " + std::to_string(toks.size()) + " values but " + std::to_string(ndecl) + " attributes are declared");
  for (std::size_t a = 0; a < ndecl; ++a)
    if (kept[a] >= 0) store(decls[a], t.columns[kept[a]], toks[a], file, line);
  return weight;
}

Dataset parse_arff_stream(std::istream& in, const std::string& file, const LoadOptions& options,
                          std::vector<std::string>* dropped) {
  ArffTable table;
  detail::RawTable& t = table.t;
  t.file = file;
  bool in_data = false;
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (line == 1 && raw.rfind("\xEF\xBB\xBF", 0) == 0) raw.erase(0, 3);  // a UTF-8 byte order mark
    detail::require_utf8(raw, file, line);
    std::string s = trim(raw);
    if (s.empty() || s[0] == '%') continue;
    if (!in_data) {
      if (s[0] != '@')
        throw InputError(file, line, "expected @relation, @attribute or @data, found '" + s.substr(0, 40) + "'");
      if (iequals_prefix(s, "@relation")) continue;
      if (iequals_prefix(s, "@data") && (s.size() == 5 || std::isspace(static_cast<unsigned char>(s[5])))) {
        if (table.decls.empty()) throw InputError(file, line, "@data before any @attribute");
        // A row on the @data line itself would otherwise be lost without a word.
        if (!trim(std::string_view(s).substr(5)).empty())
          throw InputError(file, line, "data after @data on the same line (rows start on the next line)");
        in_data = true;
        continue;
      }
      if (!iequals_prefix(s, "@attribute"))
        throw InputError(file, line, "unknown header keyword '" + s.substr(0, s.find(' ')) + "'");
      declare(table, parse_attribute(s, file, line, options, dropped), file, line);
      continue;
    }
    if (t.columns.empty()) t.columns.resize(t.attributes.size());
    const double weight = s[0] == '{' ? read_sparse_row(table, s, file, line) : read_dense_row(table, s, file, line);
    t.row_lines.push_back(line);
    t.row_weights.push_back(weight);
  }
  if (!in_data) throw InputError(file, line, "no @data section");
  if (t.columns.empty()) t.columns.resize(t.attributes.size());
  if (!table.any_weight) t.row_weights.clear();
  return detail::finish_table(std::move(t), options);
}

}  // namespace

Dataset parse_arff(const std::string& text, const std::string& file, const LoadOptions& options,
                   std::vector<std::string>* dropped) {
  std::istringstream in(text);
  return parse_arff_stream(in, file, options, dropped);
}

Dataset read_arff(const std::string& path, const LoadOptions& options, std::vector<std::string>* dropped) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "is a directory, not a data file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path, 0, "cannot open file");
  return parse_arff_stream(f, path, options, dropped);
}

}  // namespace candor
