#pragma once
// The options of the `boost` learner (learners/boost/fit_boost.cpp, paper 001): their types and defaults here
// (--boosting and --calibrate read into their enums, model/boost_model.hpp, and --base into BaseLearner, by
// their names),
// their checks and help in boost_params(), which the folder registers (learners/boost/register.cpp). Every other
// part of candor sees them as LearnerParams::options<BoostOptions>() and by their names (--boosting,
// --iterations, ...).
#include <string>
#include <vector>

#include "candor/learn/base_learner.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/util/names.hpp"

namespace candor {

struct BoostOptions {
  BoostingMethod boosting = BoostingMethod::kbs;
  // Fitted on internal folds: discount (the default: docs/boosting.md, "The defaults"), temperature or
  // smoothing; none: the ensemble's own scores, as the paper's (its experiments pin it).
  BoostCalibration calibrate = BoostCalibration::discount;
  BaseLearner base = BaseLearner::stump;
  int iterations = 10;
  double subsample = 0;  // 0: the weighted training set; S > 0: round(S x rows) rows drawn by weight
  bool stratify = false;
  bool operator==(const BoostOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of boost's options (group "boost"), in the order of `candor params`.
const std::vector<ParamInfo>& boost_params();

}  // namespace candor
