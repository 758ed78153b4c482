// candor experiment NAME: a paper's experiment, or a grid of learners over data sets.
#include "candor/experiments/experiment.hpp"

#include <memory>
#include <string>
#include <vector>

#include "candor/eval/evaluate.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/learn/evc_options.hpp"
#include "candor/learn/params.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/names.hpp"
#include "command.hpp"

namespace candor::cli {

Command add_experiment_command(CLI::App& app) {
  struct Arguments {
    std::string name;
    ExperimentOptions options;
    LearnerParams evc;  // holds the EVC options as they are read
    bool no_plots = false;
  };
  auto a = std::make_shared<Arguments>();
  a->options.datasets_dir = CANDOR_DEFAULT_DATASETS_DIR;
  std::string description = "reproduce a paper's experiment: tables (CSV, Markdown) and plots (PNG) in --out.";
  for (const auto& e : experiment_table()) description += std::string("\n  ") + e.name + ": " + e.description;
  auto* cmd = app.add_subcommand("experiment", description);
  cmd->add_option("NAME", a->name, "experiment name")->required();
  cmd->add_option("--out", a->options.out, "output folder (default: out/NAME)");
  cmd->add_option("--threads", a->options.threads, "threads (0: all cores); never changes the numbers")
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--seed", a->options.seed, "seed of every random step")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {
            return text.rfind('-', 0) == 0 ? std::string("must be a non-negative integer") : std::string();
          },
          "NONNEGATIVE"));
  cmd->add_option("--datasets-dir", a->options.datasets_dir, "folder of the ARFF corpus")->capture_default_str();
  cmd->add_option("--datasets", a->options.datasets, "data set names to use (default: the experiment's selection)")
      ->expected(1, -1);
  cmd->add_option("--max-rows", a->options.max_rows, "default selection: skip data sets with more rows");
  // EVC's options as every fit declares them (their help and values), at the papers' values; the
  // experiments' --permutations is --evc-permutations too.
  a->evc.evc = a->options.evc;
  for (const ParamInfo& evc : evc_params())
    for (const ParamInfo& info : param_table())  // the table's entry: its values are declared there
      if (std::string(info.name) == evc.name)
        add_param_option(cmd, info, a->evc,
                         std::string(info.name) == "evc_permutations" ? "--permutations,--evc-permutations" : "");
  cmd->add_option("--config", a->options.config,
                  "grid: JSON file of learners, datasets, resampling, seed, metrics, control, alpha, stability");
  cmd->add_option("--learner", a->options.learners,
                  "grid, stability: NAME=OPTIONS, a learner as `candor fit` options (repeatable; stability: "
                  "instead of every learner)")
      ->expected(1, -1);
  cmd->add_option("--resampling", a->options.resampling,
                  "grid: cv, holdout or train-test (data sets TRAIN:TEST); default cv");
  cmd->add_option("--folds", a->options.folds, "grid: cross-validation folds (default 10)");
  cmd->add_option("--repeats", a->options.repeats,
                  "grid: repetitions of cv or holdout (default 1); oversearching: trials (default 10)");
  cmd->add_option("--test-fraction", a->options.test_fraction, "grid: holdout test share (default 0.5)");
  cmd->add_option("--evc-calibration", a->options.evc_calibration,
                  "grid: shared (one EVC calibration of each data set for all its folds, as candor evaluate "
                  "does) or per-fold (each fold's own; the grid's default, so that measured tables reproduce)")
      ->check(CLI::IsMember(names_of(kFoldCalibrationNames)));
  cmd->add_option("--control", a->options.control, "grid: control learner for Bonferroni-Dunn");
  cmd->add_option("--alpha", a->options.alpha, "grid: significance level (default 0.05)");
  cmd->add_option("--metrics", a->options.metrics,
                  "grid: metrics to compare (default accuracy auc brier log_loss rule_rmse rules fit_seconds)")
      ->expected(1, -1);
  cmd->add_flag("--no-plots", a->no_plots, "write tables and plot data only");

  return {cmd, [a, cmd] {
            ExperimentOptions& options = a->options;
            if (options.out.empty() || options.out == ExperimentOptions{}.out) options.out = "out/" + a->name;
            options.plots = !a->no_plots;
            validate(a->evc);  // the EVC options' values, as any fit checks them
            options.evc = a->evc.evc;
            options.seed_given = cmd->count("--seed") > 0;
            std::vector<std::string> given;  // every option given, so that a new one is checked too
            for (const CLI::Option* option : cmd->get_options())
              if (option->nonpositional() && option->count() > 0) given.push_back(option->get_name());
            check_experiment_options(a->name, given);
            run_experiment(a->name, options);
            return 0;
          }};
}

}  // namespace candor::cli
