#pragma once
// The studies `candor experiment NAME` runs, one file each: every paper's experiment (evc-artificial, evc-chi2
// and evc-uci, paper 000; rule-logistic, its s4.3.3; kbs, 001; oversearching, 002; refinement-heuristics,
// 003; pril, 004) and candor's own measurements (stability), beside the grid (experiments/grid.hpp). They
// build on experiments/, the framework (options, corpus, grid runner, reports, Weka), which knows none of them.
#include <functional>
#include <string>
#include <vector>

#include "candor/experiments/experiment.hpp"

namespace candor {

struct ExperimentInfo {
  const char* name;
  const char* description;
  std::function<void(const ExperimentOptions&)> run;
  // The options of `candor experiment` it reads besides the common ones (--out, --threads, --seed,
  // --datasets-dir, --no-plots), so that one it would ignore is refused rather than dropped.
  std::vector<std::string> reads;
};
const std::vector<ExperimentInfo>& experiment_table();
// Throws std::invalid_argument for an option in `given` (names as "--folds") that experiment `name` does not
// read: neither a common option nor one of its `reads`. Nothing for an unknown experiment (run_experiment
// names those).
void check_experiment_options(const std::string& name, const std::vector<std::string>& given);
// Throws std::invalid_argument naming the known experiments when `name` is unknown.
void run_experiment(const std::string& name, const ExperimentOptions& options);

void run_evc_artificial(const ExperimentOptions& options);
void run_evc_chi2(const ExperimentOptions& options);
void run_evc_uci(const ExperimentOptions& options);
void run_oversearching(const ExperimentOptions& options);
void run_refinement_heuristics(const ExperimentOptions& options);
void run_rule_logistic(const ExperimentOptions& options);
void run_kbs(const ExperimentOptions& options);
void run_pril(const ExperimentOptions& options);
void run_stability_experiment(const ExperimentOptions& options);

}  // namespace candor
