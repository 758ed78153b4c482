#include "run_options.hpp"

#include <cstddef>
#include <cstdint>
#include <iostream>

#include "candor/evc/calibration.hpp"
#include "candor/experiments/report.hpp"
#include "candor/util/names.hpp"
#include "candor/util/progress.hpp"

namespace candor::cli {

void add_run_options(CLI::App* cmd, RunOptions& o, const std::string& never_changes,
                     const std::string& stability_what) {
  cmd->add_flag("--quiet", o.quiet, "no progress line (shown on a terminal for work of more than 2 seconds)");
  cmd->add_option("--threads", o.threads, "threads (0: all cores); never changes " + never_changes)
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--evc-cache", o.evc_cache,
                  "folder that keeps EVC calibrations between runs (default: the environment's CANDOR_EVC_CACHE, "
                  "else none): a fit of the same data with the same search and EVC settings reads the calibration "
                  "there instead of computing it, the model unchanged; candor evaluate's shared calibration of all "
                  "the rows is the one a later fit of the file needs");
  cmd->add_option("--stability", o.resamples,
                  "B: " + stability_what +
                      " how stable the rules and predictions are over B resamples (seeded by --seed): rule-set "
                      "stability (mean pairwise Dice-Sorensen of the rule sets, thresholds snapped to the data's "
                      "--quantiles), prediction agreement, probability spread, and each rule's frequency")
      ->check(CLI::Range(2, 10000));
  cmd->add_option(
         "--resampling", o.resampling,
         "--stability: bootstrap (n rows with replacement), subsample (half the rows) or folds (the B training "
         "sets of a stratified B-fold cross-validation, as SIRUS measures stability)")
      ->check(CLI::IsMember(names_of(kStabilityResamplingNames)))
      ->capture_default_str();
  cmd->add_option("--quantiles", o.quantiles, "--stability: q of the q-quantiles thresholds are snapped to")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
}

void apply_run_options(const RunOptions& o) {
  set_progress_quiet(o.quiet);
  if (!o.evc_cache.empty()) set_evc_cache_dir(o.evc_cache);
}

StabilityOptions stability_options(const RunOptions& o, const LearnerParams& params) {
  StabilityOptions so;
  so.resamples = o.resamples;
  so.resampling = parse_stability_resampling(o.resampling);
  so.seed = static_cast<std::uint64_t>(params.seed);
  so.quantiles = o.quantiles;
  so.threads = o.threads;
  return so;
}

void print_stability_text(const StabilityResult& s) {
  const std::string resamples =
      s.resampling == name_of(kStabilityResamplingNames, StabilityResampling::folds)
          ? "training sets of a stratified " + std::to_string(s.resamples) + "-fold cross-validation"
          : s.resampling + " resamples";
  std::cout << "\nStability over " << s.resamples << " " << resamples
            << " (rules compared with thresholds snapped to the data's " << s.quantiles << "-quantiles):\n"
            << "  rule-set stability    " << format_number(s.rule_set_stability, 4) << "  (s.d. "
            << format_number(s.rule_set_stability_sd, 4)
            << "; mean pairwise Dice-Sorensen overlap of the rule sets, 1: the same rules every time)\n"
            << "  prediction agreement  " << format_number(s.prediction_agreement, 4)
            << "  (share of pairs of resamples predicting a row's class alike)\n"
            << "  probability spread    " << format_number(s.probability_spread, 4)
            << "  (standard deviation of a row's predicted probabilities across the resamples)\n"
            << "  rules per resample    " << format_number(s.mean_rules, 1) << "\n";
  if (s.rule_frequency.empty()) return;
  std::cout << "  share of the resamples holding each rule of the model fitted on all the data (as `candor rules` "
               "numbers them):\n   ";
  for (std::size_t k = 0; k < s.rule_frequency.size(); ++k)
    std::cout << " " << (k + 1) << ": " << format_number(s.rule_frequency[k], 2)
              << (k + 1 < s.rule_frequency.size() ? "," : "\n");
}

}  // namespace candor::cli
