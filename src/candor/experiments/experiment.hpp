#pragma once
// What every experiment shares (`candor experiment NAME --out DIR`; the studies themselves are in studies/):
// its options and the corpus it reads. Each experiment writes its tables as CSV and Markdown into DIR, the
// raw points behind its plots as CSV, a plot specification (plots.json) and, when Python 3 with matplotlib is
// available, the plots as PNG (scripts/plot.py). The tables never depend on Python.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "candor/learn/evc_options.hpp"

namespace candor {

struct ExperimentOptions {
  std::string out = "out/experiment";
  int threads = 0;  // 0: every core; never changes the numbers
  std::uint64_t seed = 1;
  bool seed_given = false;            // grid: whether --seed overrides the config file's seed
  std::string datasets_dir;           // the shared ARFF corpus
  std::vector<std::string> datasets;  // names (without .arff); empty: the experiment's default selection
  std::size_t max_rows = 0;           // default selection: skip larger data sets (0: the experiment's default)
  // EVC's calibration in every fit (--permutations, --evc-fit, --evc-pool, declared as `candor fit` declares
  // them): the papers' 100 permutations, each class's laws fitted alone.
  EvcOptions evc{.permutations = 100, .pool = EvcPool::none};
  bool plots = true;

  // grid only (see grid.hpp); each given value overrides the config file
  std::string config;                 // JSON grid file
  std::vector<std::string> learners;  // NAME=OPTIONS, added to the config file's learners
  std::optional<std::string> resampling;
  std::optional<int> folds, repeats;
  std::optional<double> test_fraction, alpha;
  std::optional<std::string> control;
  std::optional<std::string> evc_calibration;  // shared or per-fold (the config's resampling.evc_calibration)
  std::vector<std::string> metrics;
};

struct LearnerParams;
// The experiment's EVC settings (--permutations, --evc-fit, --evc-pool) in a learner's parameters.
void use_evc_options(const ExperimentOptions& options, LearnerParams& p);

// One row of the shared corpus's INDEX.tsv.
struct CorpusEntry {
  std::string name;
  std::size_t rows = 0;
  std::size_t classes = 0;
};
// Throws std::invalid_argument when DIR/INDEX.tsv cannot be read.
std::vector<CorpusEntry> read_corpus_index(const std::string& dir);
// The corpus sets of 50 to --max-rows rows (default 5,000), without the train/test split files and the
// weather toys, in INDEX.tsv order.
std::vector<std::string> corpus_sets_up_to(const ExperimentOptions& options, const std::vector<CorpusEntry>& corpus);

// The grid experiment (experiments/grid.hpp): learners x data sets x resampling from a JSON config.
void run_grid_experiment(const ExperimentOptions& options);

}  // namespace candor
