#pragma once
// The options of EVC's calibration (learn/fit.cpp builds it; evc/calibration.hpp runs it: --evc-permutations,
// --evc-fit, --evc-pool): their types and defaults here, their checks and help in evc_params(), which
// param_table() takes in. Every other part of candor sees them as LearnerParams::evc.
#include <string>
#include <vector>

#include "candor/evc/calibration.hpp"
#include "candor/evc/gumbel.hpp"

namespace candor {

struct EvcOptions {
  // 20 permutations pooled across classes: about the laws of 100 unpooled at a quarter of the time
  // (docs/evc_calibration.md); paper_params pins the papers' 100, unpooled.
  int permutations = 20;
  GumbelFit fit = GumbelFit::fixed_beta;  // read by the names of evc/gumbel.hpp's kGumbelFitNames
  EvcPool pool = EvcPool::classes;        // ... of evc/calibration.hpp's kEvcPoolNames
  bool operator==(const EvcOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the EVC options (group "rule"), in the order of `candor params`.
const std::vector<ParamInfo>& evc_params();

}  // namespace candor
