#pragma once
// candor's public API: the report. A fitted model as a page to read (`candor report`, the Python package's
// report() and _repr_html_).
//
// report_html() writes one self-contained HTML file: no network, no external script, style or font. It shows
// the model's learner and options, its rules as a sortable, filterable and paged table (conditions, class,
// coverage as a bar, probability with its interval, counts, the kind's own columns), the class priors, and,
// given data, the evaluation on it (accuracy, log loss, ECE, the confusion matrix), the reliability diagram
// and each rule's probability against its share on the data as inline SVG, and a searchable, paged view of
// the rows with the rules that fired for each and their conditions. The page's script
// builds the tables from a JSON document embedded in the page; every text from the model or the data
// reaches the page as text, never as markup.
#include <cstddef>
#include <functional>
#include <string>

#include "candor/data.hpp"
#include "candor/evaluate.hpp"
#include "candor/model.hpp"

namespace candor {

struct ReportOptions {
  std::string title;        // default: "candor report: " and the model file's name
  std::string source;       // the model file
  std::string sha256;       // of the model file's bytes, where known
  std::string version;      // candor's version, where known
  std::string data_source;  // the data file, where data is given
  // The data is the file the model learned from: its evaluation is of training rows, and the page says so.
  bool data_is_training = false;
  // Rows of the data the per-row view holds (the first ones); the evaluation always uses every row.
  std::size_t max_rows = 100000;
  // How the labelled rows are evaluated, where not by the model's own predictions: `candor report --folds K`
  // cross-validates the model's learner on them , and
  // `evaluated_by` says so on the page ("10-fold cross-validation of the model's learner, seed 1").
  std::function<FoldResult(const Dataset& labelled)> evaluate;
  std::string evaluated_by;
};

// The page. `data` (may be null) is read against the model's schema; its labelled rows are evaluated.
std::string report_html(const Model& model, const Dataset* data, const ReportOptions& options);

// A compact HTML fragment without script (Jupyter's _repr_html_): learner, classes with their priors, and
// the first `rules` rules.
std::string report_summary_html(const Model& model, std::size_t rules = 10);

}  // namespace candor
