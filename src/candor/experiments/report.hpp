#pragma once
// Tables and plot specifications that experiments write.
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/stats/comparison.hpp"
#include "candor/util/progress.hpp"

namespace candor {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

std::string format_number(double x, int digits);  // fixed digits; "n/a" for NaN
// Writes the table as RFC 4180 CSV (util/output.hpp: csv_field), crash-safely.
void write_csv(const Table& t, const std::string& path);
std::string markdown(const Table& t);
// Writes DIR/NAME.csv and DIR/NAME.md (the Markdown table under `title`).
void write_table(const Table& t, const std::string& dir, const std::string& name, const std::string& title);

// Task indices 0..n-1 ordered by `work(i)`, largest first (ties in index order): long tasks start early,
// so they do not end up last on one thread.
std::vector<std::size_t> largest_first(std::size_t n, const std::function<std::size_t(std::size_t)>& work);

// Writes DIR/SPEC_NAME and, when `draw` and a Python 3 with matplotlib is found, runs scripts/plot.py on
// it. Returns whether the PNGs were drawn; says why not on stderr when they were wanted.
bool draw_plots(const nlohmann::json& spec, const std::string& dir, bool draw,
                const std::string& spec_name = "plots.json");

// A comparison of learners (stats/comparison.hpp) as tables: learners by average rank (mean score, rank)
// and the pairwise tests (wins/ties/losses, sign test p, Wilcoxon T and p).
Table ranks_table(const Comparison& c);
Table pairs_table(const Comparison& c);
// Friedman, Iman-Davenport and the critical differences in a few lines of Markdown.
std::string tests_markdown(const Comparison& c);
// The whole comparison as one Markdown section under `title`.
std::string comparison_markdown(const Comparison& c, const std::string& title);
// A critical-difference diagram figure for scripts/plot.py: Nemenyi groups, or with a control the
// Bonferroni-Dunn interval around it.
nlohmann::json cd_figure(const Comparison& c, const std::string& file, const std::string& title);

// Mean, sample standard deviation and standard error of the mean of the values that are not NaN; NaN
// where there are too few (no value; one value for the spread).
struct MeanSe {
  double mean = NAN, sd = NAN, se = NAN;
};
MeanSe mean_se(const std::vector<double>& xs);

// One comparison of learners on some data sets of a grid's results: per metric (accuracy, AUC, Brier, log
// loss) the mean score and average rank of each learner, Friedman's p and, with a control, the learners
// Bonferroni-Dunn finds worse than it, without one the learners Nemenyi cannot separate from the best.
struct LearnerSection {
  std::string title, file, control;
  std::vector<std::string> learners, datasets, missing;  // missing: learners not run (Weka absent)
};
// Writes FILE.{csv,md}, FILE_METRIC.json and CD diagrams into `out`; returns the section's Markdown.
std::string learner_section_markdown(const LearnerSection& s, const std::string& results, const std::string& out,
                                     bool plots);

}  // namespace candor
