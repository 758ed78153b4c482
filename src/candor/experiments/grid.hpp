#pragma once
// The grid runner's inside (candor/grid.hpp): a grid as read from its JSON, its learners, and the options of
// the papers' experiments that run grids.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/eval/evaluate.hpp"
#include "candor/eval/stability.hpp"
#include "candor/experiments/weka.hpp"
#include "candor/grid.hpp"
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

struct ExperimentOptions;
// The run options an experiment's command line gives (--out, --datasets-dir, --threads, --no-plots).
GridRunOptions grid_run_options(const ExperimentOptions& options);

// Runs the cells not yet in DIR/results.csv and writes the summary. Throws InputError for unreadable data
// and std::invalid_argument when DIR holds results of a different grid (another learner definition under
// the same name, another resampling or seed). The pieces below run the same cells elsewhere (the Python
// package dispatches them to a Dask cluster): prepare_grid on the machine that owns DIR, GridCellRunner::run
// wherever, append_grid_result and write_grid_summary back on the owner.
void run_grid(const GridSpec& grid, const GridRunOptions& options);

// Runs the grid (candor/grid.hpp's run_grid, from a grid read already), and writes its summary.
void run_grid(const GridSpec& grid, const GridRunOptions& options);
void write_grid_summary(const GridSpec& grid, const GridRunOptions& options);

}  // namespace candor
