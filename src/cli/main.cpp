// The candor command-line tool: fit | rules | predict | export | report | evaluate | experiment | stats | params,
// one file each (command.hpp). Exit codes: 0 success, 2 bad usage or bad input (message on stderr naming file,
// line and reason), 1 an internal error.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/errors.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"

using namespace candor;
using namespace candor::cli;

namespace {

// After a parse error: for each --word on the command line that no (sub)command knows, the closest option of
// the command it was given to, when one is close (a typo).
void suggest_options(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  for (int i = 1; i < argc; ++i)
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == argv[i]) command = sub;
  std::vector<std::string> known;
  for (const CLI::Option* o : command->get_options())
    for (const auto& name : o->get_lnames()) known.push_back("--" + name);
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0 || word == "--") continue;
    word = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), word) != known.end()) continue;
    const std::string close = closest_name(word, known);
    std::cerr << "candor: unknown option '" << word << "'" << (close.empty() ? "" : "; did you mean '" + close + "'?")
              << "\n";
  }
}

// Runs `command`, its errors as messages on stderr: 2 for the user's input, options, paths or memory, 1 for
// a bug of candor's.
int run_reporting_errors(const Command& command) {
  try {
    const int code = command.run();
    finish_standard_output();
    return code;
  } catch (const InputError& e) {
    std::cerr << "candor: " << e.what() << "\n";
  } catch (const OutputError& e) {
    std::cerr << "candor: " << e.what() << "\n";
  } catch (const MemoryLimitError& e) {
    std::cerr << "candor: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    // Too little memory for what the input and options ask: the user's to change (fewer rows or distinct
    // values, fewer --evc-permutations, a smaller --beam-width), not a bug.
    std::cerr << "candor: out of memory while running '" << command.app->get_name()
              << "'; use less data, fewer distinct values or smaller options (beam width, EVC permutations)\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "candor: " << e.what() << "\n";
  } catch (const std::filesystem::filesystem_error& e) {
    // An output folder that cannot be made (a file in the way, no permission): the user's path, not a bug.
    std::cerr << "candor: " << e.path1().string() << ": " << e.code().message() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "candor: internal error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"candor: rule learning with honest estimates of rule quality"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("candor ") + CANDOR_VERSION);
  const CommandLine line{argc, argv};
  const std::vector<Command> commands{
      add_fit_command(app, line),  add_rules_command(app),  add_predict_command(app),
      add_export_command(app),     add_report_command(app), add_evaluate_command(app, line),
      add_experiment_command(app), add_stats_command(app),  add_params_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code != 0) suggest_options(app, argc, argv);
    return code == 0 ? 0 : 2;
  }
  for (const Command& command : commands)
    if (command.app->parsed()) return run_reporting_errors(command);
  return 0;
}
