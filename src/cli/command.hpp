#pragma once
// A command of the candor CLI: its CLI11 subcommand, whose options write into arguments the command owns, and
// what running it does. Each command is one file of src/cli/ (fit.cpp, predict.cpp, ...); main() adds them,
// runs the one the command line names and turns errors into messages and exit codes.
#include <CLI/CLI.hpp>
#include <functional>

namespace candor::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // the exit code: 0, or 1 where candor finds a bug of its own (export --check)
};

// The command line as main() received it: fit and evaluate add the options of the learner it names.
struct CommandLine {
  int argc = 0;
  char** argv = nullptr;
};

Command add_fit_command(CLI::App& app, const CommandLine& line);
Command add_rules_command(CLI::App& app);
Command add_predict_command(CLI::App& app);
Command add_export_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_evaluate_command(CLI::App& app, const CommandLine& line);
Command add_experiment_command(CLI::App& app);
Command add_stats_command(CLI::App& app);
Command add_params_command(CLI::App& app);

}  // namespace candor::cli
