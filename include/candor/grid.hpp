#pragma once
// candor's public API: experiment grids (the library candor::experiments). A grid of learners x data sets x
// resampling, run in parallel, resumable.
//
// Every (data set, learner, repeat, fold) cell appends one line to DIR/results.csv as soon as it finishes;
// a rerun with the same grid skips the cells already there, so an interrupted run resumes where it
// stopped (a line cut off by the interruption is dropped and its cell run again). The splits depend only on
// the seed, the data set and the repeat, so every learner sees the same folds, in any thread count and on
// any rerun; repeat r of k-fold CV uses the folds of `candor evaluate --folds k --seed (seed + r)`.
// When every cell is done the runner compares the learners on each metric and
// writes DIR/summary.md, DIR/means_METRIC.{csv,md}, DIR/comparison_METRIC.json and CD diagrams.
//
// A grid may also measure each learner's stability (candor/evaluate.hpp) on each data set: one stability
// cell per (data set, learner), a line of DIR/stability.csv, resumed and dispatched like the others.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace candor {

struct GridSpec;     // a grid as read from its JSON (private: experiments/grid.hpp)
struct GridData;     // a data set of the grid, read and split
struct GridLearner;  // a learner of the grid

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

// Runs the cells of the grid whose JSON is `config_json` (`source` names it in messages) that are not yet in
// DIR/results.csv, and writes the summary. Throws InputError for unreadable data and std::invalid_argument
// when DIR holds results of a different grid (another learner definition under the same name, another
// resampling or seed). The pieces below run the same cells elsewhere (the Python package dispatches them to a
// Dask cluster): prepare_grid on the machine that owns DIR, GridCellRunner::run wherever, append_grid_result
// and write_grid_summary back on the owner.
void run_grid(const std::string& config_json, const std::string& source, const GridRunOptions& options);

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
  // Checks the resampling and the learner names; reads no data yet. `config_json` is a grid's JSON, as
  // `candor experiment grid --config` reads it (`source` names it in messages).
  GridCellRunner(const std::string& config_json, const std::string& source, std::string datasets_dir);
  GridCellRunner(GridSpec grid, std::string datasets_dir);
  ~GridCellRunner();
  GridCellRunner(const GridCellRunner&) = delete;
  GridCellRunner& operator=(const GridCellRunner&) = delete;

  const GridSpec& grid() const;
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
  std::unique_ptr<const GridSpec> grid_;
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
void write_grid_summary(const GridCellRunner& runner, const GridRunOptions& options);

}  // namespace candor
