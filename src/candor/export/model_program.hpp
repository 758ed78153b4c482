#pragma once
// Every model kind's prediction as a Program (export/program.hpp): the same arithmetic as the model's
// predict_proba, with each rule's, leaf's and member's constants computed here by the model's own
// functions, so that an export can only differ from `candor predict --proba` by rounding.
#include "candor/export/program.hpp"
#include "candor/model/model.hpp"

namespace candor {

// Throws std::invalid_argument for a model kind without a program.
Program model_program(const Model& m);

}  // namespace candor
