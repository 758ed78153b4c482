#pragma once
// Reading data files. Every problem is reported as an InputError naming the file, the line and the reason;
// no row or value is ever dropped silently.
#include <string>
#include <vector>

#include "candor/data/dataset.hpp"

namespace candor {

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

}  // namespace candor

namespace candor {

// Writes `d` as ARFF (the class last, missing values as ?, names and values quoted where ARFF needs it;
// non-unit example weights as Weka's {w} suffix), so that another tool can read exactly these rows.
void write_arff(const Dataset& d, const std::string& path);

}  // namespace candor
