// candor params: the learner parameters, quality measures, learners and rule combinations as Markdown.
#include "candor/learn/params.hpp"

#include <iostream>

#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/model/combine.hpp"
#include "command.hpp"

namespace candor::cli {

Command add_params_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("params", "print the learner parameters and quality measures as Markdown");
  return {cmd, [] {
            std::cout << "Learner parameters (options of `candor fit` and `candor evaluate`):\n\n"
                      << params_markdown() << "\nQuality measures (`--quality`):\n\n| name | meaning |\n|---|---|\n";
            for (const auto& q : quality_table()) std::cout << "| `" << q.name << "` | " << q.description << " |\n";
            std::cout << "\nLearners (`--learner`) and their defaults:\n\n"
                      << learners_markdown()
                      << "\nRule combinations of rule sets (`--combine`):\n\n| name | meaning |\n|---|---|\n";
            for (const auto& c : combination_table()) std::cout << "| `" << c.name << "` | " << c.description << " |\n";
            return 0;
          }};
}

}  // namespace candor::cli
