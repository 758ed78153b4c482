// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"

namespace candor {

LearnerRegistration register_boost() {
  return {
      .position = 70,
      .learners = {{.name = "boost",
                    .description = "an ensemble of --iterations base models (--base) by --boosting kbs, adaboost-m1 or "
                                   "logitboost (paper 001)",
                    .fit_model = fit_boost,
                    .option_groups = "boost base",
                    .multiclass = kbs_default_multiclass,
                    .base_option = "base",
                    .reads_base = boost_reads_base,
                    .deciding_options = {"boosting", "base"},
                    .also_reads = boost_also_reads,
                    .prediction = "(ensemble, calibrated on internal folds)",
                    .check = check_boost_options,
                    .describe = describe_boost,
                    .write_options = write_boost_options}},
      .params = boost_params,
      .option_groups = {{"boost", "Boosting options"}}};
}

}  // namespace candor
