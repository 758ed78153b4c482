#pragma once
// candor's public API: data. The columnar data model every learner reads, and the readers of data files.
//
// Missing values: a nominal cell holds kMissing, a numeric cell holds NaN. A missing value satisfies no
// condition (neither A = v nor A != v, neither A <= t nor A > t), so a rule never fires on the strength of
// a value nobody observed. Example weights are non-negative and finite; unit weights are the default.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace candor {

inline constexpr int kMissing = -1;

enum class AttributeType { nominal, numeric };

struct Attribute {
  std::string name;
  AttributeType type = AttributeType::numeric;
  std::vector<std::string> values;  // declared nominal values, in declaration order

  bool is_nominal() const { return type == AttributeType::nominal; }
  // Index of a nominal value, or -1 when it is not declared.
  int value_index(std::string_view value) const;
};

// One input column. Exactly one of the two vectors is filled, by the attribute's type.
struct Column {
  std::vector<int> codes;      // nominal: value index or kMissing
  std::vector<double> values;  // numeric: value or NaN
};

// What a model needs to know about the data it was fitted on: input attributes and the class.
struct Schema {
  std::vector<Attribute> attributes;
  Attribute class_attribute;
  int attribute_index(std::string_view name) const;  // -1 when absent
};

struct Dataset {
  std::string source;  // file the data came from (for messages)
  Schema schema;
  std::vector<Column> columns;     // one per schema.attributes entry
  std::vector<int> y;              // class index per row; kMissing for unlabeled rows (prediction data)
  std::vector<double> weights;     // one per row
  std::vector<std::size_t> lines;  // source line of each row (for messages)
  // The text of each LoadOptions::key_columns column per row ("" where missing; numbers as the shortest
  // text that reads back the same): carried through prediction, never learned from.
  std::vector<std::vector<std::string>> keys;

  std::size_t rows() const { return y.size(); }
  std::size_t num_attributes() const { return schema.attributes.size(); }
  std::size_t num_classes() const { return schema.class_attribute.values.size(); }
  const Attribute& attribute(std::size_t a) const { return schema.attributes[a]; }
  bool is_missing(std::size_t a, std::size_t row) const {
    return attribute(a).is_nominal() ? columns[a].codes[row] == kMissing : std::isnan(columns[a].values[row]);
  }
  bool unit_weights() const;
  // Weighted count of each class over the rows.
  std::vector<double> class_totals() const;
  // The rows at the given indices, in that order.
  Dataset subset(const std::vector<std::size_t>& rows) const;
};

// Why rows built in memory (not read by the readers below, which report their own errors) break the model
// above: the first column of another length, nominal code outside kMissing .. its values' count (that count
// codes a value the model never saw, as the readers do for data read against a schema), infinite value, class
// outside the classes, or weight that is negative or not finite; the reason names the column ("column 'A': a
// code outside its values"). Empty when the rows are sound.
std::string invalid_rows(const Dataset& d);

// Reading data files. Every problem is reported as an InputError (candor/errors.hpp) naming the file, the
// line and the reason; no row or value is ever dropped silently.
struct LoadOptions {
  // Class attribute by name; empty means the last column.
  std::string class_name;
  // Column holding example weights (removed from the attributes). ARFF files may also carry Weka's
  // per-row weights ("..., {0.5}"); the two together multiply.
  std::string weight_column;
  // CSV cells that mean "missing" (compared after trimming). ARFF uses an unquoted ? as Weka does.
  std::vector<std::string> missing_markers{"", "?", "NA"};
  // ARFF string, date and relational attributes are an error unless this is set, in which case they are
  // dropped (and their names are reported through `dropped`).
  bool drop_unsupported = false;
  // Training data: every row must have a class and at least two classes must occur.
  bool require_labels = true;
  // When set, the data is read against a fitted model's schema: attributes are matched by name, nominal
  // values by their text (values the model never saw get a code that satisfies no A = v condition), and
  // the class column may be absent or missing (unlabeled rows).
  const Schema* schema = nullptr;
  // When set, readers append warnings here ("FILE:LINE: what"): input read, but perhaps not as meant. CSV:
  // a column read as nominal although at least 90% of its non-missing cells are numbers (one typo, `nan`
  // or a stray character makes a whole column nominal; the warning names the first such cell).
  std::vector<std::string>* warnings = nullptr;
  // The separator of a CSV file; 0 chooses by extension (tab for .tsv, comma otherwise). Not read for ARFF.
  char delimiter = 0;
  // With `schema`: columns whose text is carried through to Dataset::keys (an id to join predictions on), read
  // as text in CSV whatever they hold; the file must have each.
  std::vector<std::string> key_columns;
};

// Reads ARFF (.arff) or CSV (.csv, .tsv with tabs; anything else as CSV) chosen by file extension.
Dataset load_dataset(const std::string& path, const LoadOptions& options = {},
                     std::vector<std::string>* dropped = nullptr);
Dataset read_arff(const std::string& path, const LoadOptions& options = {},
                  std::vector<std::string>* dropped = nullptr);
Dataset read_csv(const std::string& path, const LoadOptions& options = {}, char delimiter = ',');

// The same, from text already in memory (`name` is used in messages).
Dataset parse_arff(const std::string& text, const std::string& name, const LoadOptions& options = {},
                   std::vector<std::string>* dropped = nullptr);
Dataset parse_csv(const std::string& text, const std::string& name, const LoadOptions& options = {},
                  char delimiter = ',');

// Writes `d` as ARFF (the class last, missing values as ?, names and values quoted where ARFF needs it;
// non-unit example weights as Weka's {w} suffix), so that another tool can read exactly these rows.
void write_arff(const Dataset& d, const std::string& path);

}  // namespace candor
