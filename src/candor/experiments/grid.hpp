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
//
// A grid may also measure each learner's stability (eval/stability.hpp) on each data set: one stability
// cell per (data set, learner), a line of DIR/stability.csv, resumed and dispatched like the others.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/eval/evaluate.hpp"
#include "candor/eval/stability.hpp"
#include "candor/experiments/weka.hpp"
#include "candor/learn/params.hpp"

namespace candor {

struct GridLearner {
  std::string name;
  // As given: `candor fit` options, a JSON object of parameters, or "weka:CLASS OPTIONS" for a Weka
  // classifier (experiments/weka.hpp) run on the same folds.
  std::string options;
  LearnerParams params;
  WekaClassifier weka;  // the Weka classifier and its options; empty for candor's learners
};
// A grid learner from its name and options (any of the three forms above); throws std::invalid_argument
// naming the learner for bad options, and for a Weka classifier that parse_weka_classifier refuses.
GridLearner make_grid_learner(const std::string& name, const std::string& options);
// One entry of an experiment's fixed list of learners: its name in the tables and its options, in any form
// make_grid_learner reads.
struct ExperimentLearner {
  const char* name;
  const char* options;
};

struct Resampling {
  std::string kind = "cv";     // cv (stratified k-fold, repeated), holdout (repeated stratified), train-test
  int folds = 10;              // cv
  int repeats = 1;             // cv and holdout
  double test_fraction = 0.5;  // holdout
  // cv and holdout: how the folds of a learner that calibrates EVC get their calibration (eval/evaluate.hpp);
  // per-fold unless the config says "shared", so that the experiments measured with grids reproduce.
  FoldCalibration evc_calibration = FoldCalibration::per_fold;
  std::string describe() const;
  bool operator==(const Resampling&) const = default;
};

// The stability cells of a grid: each candor learner fitted on `resamples` resamples of each whole data set
// (a train-test pair's training file), seeded by the grid's seed, as `candor evaluate --stability` does; 0
// resamples: none. Weka's classifiers have no rule sets to compare and get no stability cell.
struct GridStability {
  int resamples = 0;
  StabilityResampling resampling = StabilityResampling::bootstrap;
  int quantiles = 10;
  bool operator==(const GridStability&) const = default;
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
  GridStability stability;
};

// Reads a grid from JSON (keys: learners, datasets, resampling {kind, folds, repeats, test_fraction},
// seed, metrics, control, alpha, stability {resamples, resampling, quantiles}; learners maps a name to a string of
// `candor fit` options or to an object of parameters, in file order). Unknown keys are an error naming `source`.
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
// the same name, another resampling or seed). The pieces below run the same cells elsewhere (the Python
// package dispatches them to a Dask cluster): prepare_grid on the machine that owns DIR, GridCellRunner::run
// wherever, append_grid_result and write_grid_summary back on the owner.
void run_grid(const GridSpec& grid, const GridRunOptions& options);

struct GridData;  // a data set of the grid, read and split

// One cell of a grid: a data set as the grid names it, a grid learner's name, a repeat and a fold; or, with
// `stability`, the stability cell of the data set and learner (repeat and fold 0).
struct GridCell {
  std::string dataset;
  std::string learner;
  int repeat = 0;
  int fold = 0;
  bool stability = false;
  bool operator==(const GridCell&) const = default;
};

// The data sets of a grid, each read and split on first use, and the cells run on them. One per process is
// enough: run() may be called from any number of threads at once.
class GridCellRunner {
 public:
  // Checks the resampling and the learner names; reads no data yet.
  GridCellRunner(GridSpec grid, std::string datasets_dir);
  ~GridCellRunner();
  GridCellRunner(const GridCellRunner&) = delete;
  GridCellRunner& operator=(const GridCellRunner&) = delete;

  const GridSpec& grid() const { return grid_; }
  // Every cell of the grid (data sets in grid order, then repeats, folds, learners, then the data set's
  // stability cells); reads every data set.
  std::vector<GridCell> cells();
  // Rows x attributes of a data set's training data: the order of work, largest first.
  std::size_t work(const std::string& dataset);
  // Fits the cell's learner on its training rows with `threads` threads, evaluates it on its test rows and
  // returns the cell's results.csv line, newline included; a stability cell's line of stability.csv. The line
  // depends only on the grid, the data and the cell, except for the seconds columns.
  std::string run(const GridCell& cell, int threads);

 private:
  struct State;  // the data sets read so far, behind a mutex
  const GridData& data(const std::string& dataset);
  std::string run_stability(const GridData& g, const GridLearner& learner, int threads);
  GridSpec grid_;
  std::string datasets_dir_;
  std::unique_ptr<State> state_;
};

// Makes DIR ready for the cells of `grid`: creates it, checks and records DIR/grid.json (throws
// std::invalid_argument for results of a different grid), starts results.csv or repairs one cut off by an
// interruption, and returns the cells not yet in it (nor in stability.csv), largest data sets first.
std::vector<GridCell> prepare_grid(GridCellRunner& runner, const GridRunOptions& options);
// Appends a line of GridCellRunner::run to DIR/results.csv (a stability cell's to DIR/stability.csv) and
// flushes it (one writer at a time).
void append_grid_result(const GridRunOptions& options, const GridCell& cell, const std::string& line);
// Compares the learners over DIR/results.csv: summary.md, means, comparisons and CD diagrams; with stability
// cells, their means per learner in summary.md and DIR/stability_means.{csv,md}.
void write_grid_summary(const GridSpec& grid, const GridRunOptions& options);

}  // namespace candor
