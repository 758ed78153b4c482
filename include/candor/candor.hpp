#pragma once
// candor's public API, whole: what a program that fits, reads, evaluates and exports rule models includes
// (find_package(candor) and candor::candor in CMake; docs/guide-cpp.md). Experiment grids are the library
// candor::experiments, in candor/grid.hpp.
#include "candor/data.hpp"         // Dataset, and reading ARFF and CSV files
#include "candor/distributed.hpp"  // one fit over rows held in parts elsewhere
#include "candor/errors.hpp"       // InputError, MemoryLimitError, OutputError
#include "candor/evaluate.hpp"     // cross-validation, train/test, stability
#include "candor/export.hpp"       // a model as SQL, Python or C
#include "candor/fit.hpp"          // fit_model
#include "candor/learner.hpp"      // Learner: a learner and its options
#include "candor/model.hpp"        // Model: predict, explain, rules; load_model and save_model
#include "candor/report.hpp"       // a model as an HTML page
