#pragma once
// The options of stable rules (learn/stable_rules.cpp; --stable-resamples, --stable-frequency,
// --stable-quantiles, --stable-thresholds, --stable-size): their types and defaults here, their checks and
// help in stable_params(), which param_table() takes in. Every other part of candor sees them as
// LearnerParams::stable.
#include <optional>
#include <vector>

#include "candor/util/names.hpp"

namespace candor {

// Where a stable rule's numeric thresholds come from.
enum class StableThresholds {
  searched,   // the resamples' searches cut the data as it is; rules are counted with their thresholds snapped
              // to the nearest quantile, and a kept rule cuts at the median of the thresholds found for it
  quantiles,  // the searches see the data snapped to the quantiles, so every threshold is one (SIRUS's way)
};
inline constexpr Named<StableThresholds> kStableThresholdNames[] = {{"searched", StableThresholds::searched},
                                                                    {"quantiles", StableThresholds::quantiles}};

// How many of the frequent rules a model keeps.
enum class StableSize {
  learner,   // at most as many as the learner keeps without stable rules on the same data, most frequent first
  frequent,  // every frequent rule
};
inline constexpr Named<StableSize> kStableSizeNames[] = {{"learner", StableSize::learner},
                                                         {"frequent", StableSize::frequent}};

struct StableOptions {
  int resamples = 0;       // 0: off; else the bootstrap resamples whose rules are counted
  double frequency = 0.5;  // the share of them a rule must appear in, in (0, 1]
  int quantiles = 10;      // the training data's q-quantiles the thresholds are counted (or restricted) on
  StableThresholds thresholds = StableThresholds::searched;
  // Unset: learner, except for rule-logistic's covering+additive candidates, whose one-condition rules are the
  // most frequent and under the learner's count would crowd out covering's (resolved_stable_size).
  std::optional<StableSize> size;
  bool operator==(const StableOptions&) const = default;
};

struct LearnerParams;  // learn/params.hpp
// --stable-size as given, else learner (rule-logistic resolves its own default before it fits).
StableSize resolved_stable_size(const LearnerParams& p);

struct ParamInfo;  // learn/params.hpp
// The declarations of the stable-rule options (group "rule"), in the order of `candor params`.
const std::vector<ParamInfo>& stable_params();

}  // namespace candor
