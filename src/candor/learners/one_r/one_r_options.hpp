#pragma once
// The options of the one-r learner (learners/one_r/one_r.cpp): their types and defaults here, their checks and
// help in one_r_params(), which the folder registers (learners/one_r/register.cpp). Every other part of
// candor sees them as LearnerParams::options<OneROptions>() and by their names (--min-bucket-size).
#include <vector>

namespace candor {

struct OneROptions {
  // Fewest (weighted) examples of its majority class in a numeric attribute's interval, before the
  // interval may end (Holte 1993's SMALL; Weka's OneR -B, 6).
  double min_bucket_size = 6;
  bool operator==(const OneROptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
const std::vector<ParamInfo>& one_r_params();

}  // namespace candor
