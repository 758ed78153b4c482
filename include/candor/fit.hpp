#pragma once
// candor's public API: fitting. A learner (candor/learner.hpp) fitted on data (candor/data.hpp) gives a model
// (candor/model.hpp).
#include <memory>

#include "candor/data.hpp"
#include "candor/learner.hpp"
#include "candor/model.hpp"

namespace candor {

// Fits `learner` on `data`, a training set (LoadOptions::require_labels). `threads` parallelises the search,
// the calibration and the weights and never changes the model: the same data and options give the same
// model, byte for byte, on any thread count. Throws std::invalid_argument for options the data cannot take
// and MemoryLimitError (candor/errors.hpp) for work that cannot fit in memory.
std::unique_ptr<Model> fit_model(const Dataset& data, const Learner& learner, int threads = 1);

// Whether long work (a fit's rounds, EVC's permutations, a cross-validation's folds) reports its progress on
// stderr: quiet silences it; everywhere reports where stderr is no terminal too (a notebook's, a log).
void set_progress_quiet(bool quiet);
void set_progress_everywhere(bool everywhere);

}  // namespace candor
