#pragma once
// The experiment runner: a grid of learners x data sets x resampling, run in parallel, resumable.
//
// Every (data set, learner, repeat, fold) cell appends one line to DIR/results.csv as soon as it finishes;
// a rerun with the same grid skips the cells already there, so an interrupted run resumes where it
// stopped (a line cut off by the interruption is dropped and its cell run again). The splits depend only on
// the seed, the data set and the repeat, so every learner sees the same folds, in any thread count and on
// any rerun; repeat r of k-fold CV uses the folds of `candor evaluate --folds k --seed (seed + r)`.
// When every cell is done the runner compares the learners on each metric (stats/comparison.hpp) and
// writes DIR/summary.md, DIR/means_METRIC.{csv,md}, DIR/comparison_METRIC.json and CD diagrams.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "candor/learn/params.hpp"

namespace candor {

struct GridLearner {
  std::string name;
  // As given: `candor fit` options, a JSON object of parameters, or "weka:CLASS OPTIONS" for a Weka
  // classifier (experiments/weka.hpp) run on the same folds.
  std::string options;
  LearnerParams params;
  std::string weka;  // the Weka classifier and its options; empty for candor's learners
};
// A grid learner from its name and options (any of the three forms above); throws std::invalid_argument
// naming the learner for bad options.
GridLearner make_grid_learner(const std::string& name, const std::string& options);

struct Resampling {
  std::string kind = "cv";     // cv (stratified k-fold, repeated), holdout (repeated stratified), train-test
  int folds = 10;              // cv
  int repeats = 1;             // cv and holdout
  double test_fraction = 0.5;  // holdout
  std::string describe() const;
  bool operator==(const Resampling&) const = default;
};

struct GridSpec {
  std::vector<GridLearner> learners;
  // Names of shared data sets (DIR/NAME.arff), paths to ARFF or CSV files, or for train-test "TRAIN:TEST"
  // pairs of either.
  std::vector<std::string> datasets;
  Resampling resampling;
  std::uint64_t seed = 1;
  std::vector<std::string> metrics{"accuracy", "auc", "brier", "log_loss", "rule_rmse", "rules", "fit_seconds"};
  std::string control;  // optional control learner of the Bonferroni-Dunn test
  double alpha = 0.05;
};

// Reads a grid from JSON (keys: learners, datasets, resampling {kind, folds, repeats, test_fraction},
// seed, metrics, control, alpha; learners maps a name to a string of `candor fit` options or to an object
// of parameters, in file order). Unknown keys are an error naming `source`.
GridSpec grid_from_json(const nlohmann::ordered_json& j, const std::string& source);
// "NAME=OPTIONS" as given on the command line.
GridLearner grid_learner_from_argument(const std::string& argument);

struct GridRunOptions {
  std::string out;
  std::string datasets_dir;
  int threads = 0;
  bool plots = true;
  bool progress = true;  // progress lines on stderr
  // Compare the learners when every cell is done (summary.md, means, CD diagrams); off for grids of many
  // settings that the experiment summarises itself.
  bool summary = true;
};

struct ExperimentOptions;
// The run options an experiment's command line gives (--out, --datasets-dir, --threads, --no-plots).
GridRunOptions grid_run_options(const ExperimentOptions& options);

// Runs the cells not yet in DIR/results.csv and writes the summary. Throws InputError for unreadable data
// and std::invalid_argument when DIR holds results of a different grid (another learner definition under
// the same name, another resampling or seed).
void run_grid(const GridSpec& grid, const GridRunOptions& options);

}  // namespace candor
