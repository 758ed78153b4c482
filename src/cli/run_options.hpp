#pragma once
// The options of a learning run that fit and evaluate share besides the learner's: threads, the progress line,
// the EVC cache and stability over resamples; and the stability's text, which `candor rules` prints too.
#include <CLI/CLI.hpp>
#include <string>

#include "candor/eval/stability.hpp"
#include "candor/learn/params.hpp"

namespace candor::cli {

struct RunOptions {
  int threads = 0;  // 0: all cores
  bool quiet = false;
  std::string evc_cache;
  int resamples = 0;  // --stability B; 0: not asked for
  std::string resampling = "bootstrap";
  int quantiles = StabilityOptions{}.quantiles;
};

// `never_changes` ends --threads' help ("the model", "the numbers"); `stability_what` starts --stability's.
void add_run_options(CLI::App* cmd, RunOptions& o, const std::string& never_changes, const std::string& stability_what);
// Applies the process-wide settings: --quiet and --evc-cache.
void apply_run_options(const RunOptions& o);
StabilityOptions stability_options(const RunOptions& o, const LearnerParams& params);
void print_stability_text(const StabilityResult& s);

}  // namespace candor::cli
