#pragma once
// The options of stable rules (learn/stable_rules.cpp; --stable-resamples, --stable-frequency,
// --stable-quantiles): their types and defaults here, their checks and help in stable_params(), which
// param_table() takes in. Every other part of candor sees them as LearnerParams::stable.
#include <vector>

namespace candor {

struct StableOptions {
  int resamples = 0;       // 0: off; else the bootstrap resamples whose rules are counted
  double frequency = 0.5;  // the share of them a rule must appear in, in (0, 1]
  int quantiles = 10;      // thresholds restricted to the training data's q-quantiles
  bool operator==(const StableOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of the stable-rule options (group "rule"), in the order of `candor params`.
const std::vector<ParamInfo>& stable_params();

}  // namespace candor
