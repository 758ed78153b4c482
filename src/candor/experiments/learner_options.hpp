#pragma once
// Learner parameters as command-line options, generated from param_table(): `candor fit`, `candor
// evaluate` and the learners of an experiment grid accept exactly the same options.
#include <CLI/CLI.hpp>
#include <string>

#include "candor/learn/params.hpp"

namespace candor {

// Adds --NAME (with '_' written '-') for every parameter, writing into `p`, in help groups by the part that
// reads them (rule search, logistic model, trees, boosting, PrIL). With `shown_learner` (the --learner of a
// `--help` command line), the help lists only the options that learner reads; the others are still accepted
// and checked as ever. Each option shows the default that learner (else the default learner) fits with,
// as its model file records it: --quality shows wracc for rule-logistic, m-estimate for cn2-unordered.
void add_learner_options(CLI::App* cmd, LearnerParams& p, const std::string& shown_learner = "");

// Adds the one option `info` declares, writing into `p`, with its help, its values and `p`'s value as the
// default shown; `names` spells it where it is not --NAME (CLI11's "--a,--b" for two spellings).
CLI::Option* add_param_option(CLI::App* cmd, const ParamInfo& info, LearnerParams& p, const std::string& names = "");

// The value of `--learner` on a command line (`--learner X` or `--learner=X`), empty if none.
std::string learner_on_command_line(int argc, const char* const* argv);

// Parses a string of `candor fit` learner options, e.g. "--learner cn2-ordered --quality evc" (quotes group
// words as in a shell), starting from the defaults, and validates the result. Throws std::invalid_argument
// with CLI11's message for an unknown option or a bad value.
LearnerParams parse_learner_options(const std::string& options);

}  // namespace candor
