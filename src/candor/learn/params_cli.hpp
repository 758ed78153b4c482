#pragma once
// Learner parameters as command-line options, generated from param_table(): `candor fit`, `candor
// evaluate` and the learners of an experiment grid accept exactly the same options.
#include <string>

#include <CLI/CLI.hpp>

#include "candor/learn/params.hpp"

namespace candor {

// Adds --NAME (with '_' written '-') for every parameter, writing into `p`.
void add_learner_options(CLI::App* cmd, LearnerParams& p);

// Parses a string of `candor fit` learner options, e.g. "--learner cn2-ordered --quality evc" (quotes group
// words as in a shell), starting from the defaults, and validates the result. Throws std::invalid_argument
// with CLI11's message for an unknown option or a bad value.
LearnerParams parse_learner_options(const std::string& options);

}  // namespace candor
