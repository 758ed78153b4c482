#pragma once
// Internal: the typed table both readers produce, before the class and weights are picked out of it.
#include <string>
#include <vector>

#include "candor/data.hpp"

namespace candor::detail {

struct RawTable {
  std::string file;
  std::vector<Attribute> attributes;      // every column, class included
  std::vector<std::size_t> header_lines;  // where each attribute was declared
  std::vector<Column> columns;
  std::vector<std::size_t> row_lines;
  std::vector<double> row_weights;  // ARFF instance weights, 1 otherwise
  // For reading against a model schema: the raw text of nominal cells is needed to map values.
  // Nominal codes index `attributes[a].values` as declared in the file.
};

// Picks the class and weight columns, validates, and (with options.schema) maps onto a model's schema.
Dataset finish_table(RawTable table, const LoadOptions& options);

// Parses a number the way both readers accept it: optional sign, decimal or exponent form, finite.
bool parse_number(std::string_view text, double& out);

std::string trim(std::string_view s);

// Throws InputError(file, line) when a line of a data file is not UTF-8, naming the column of the first bad
// byte: every name and value candor keeps is UTF-8 text (model files, exports and pages hold it as such).
void require_utf8(std::string_view text, const std::string& file, std::size_t line);

// One CSV line split into cells: RFC 4180 quotes ("" inside quotes), surrounding blanks of unquoted cells
// trimmed. Throws InputError(file, line) on an unterminated quote or text after a closing quote.
struct CsvCell {
  std::string text;
  bool quoted = false;
};
std::vector<CsvCell> split_csv_line(std::string_view s, char delim, const std::string& file, std::size_t line);
// The same into `out`, reusing its cells' storage (readers split millions of lines).
void split_csv_line(std::string_view s, char delim, const std::string& file, std::size_t line,
                    std::vector<CsvCell>& out);

}  // namespace candor::detail
