#pragma once
// PrIL's options (paper 004), declared beside the learner that reads them (learners/pril/pril.cpp): their types
// and defaults here, their checks and help in pril_params(), which the folder registers
// (learners/pril/register.cpp). Every other part of candor sees them as LearnerParams::options<PrilOptions>()
// and by their names (--reliability, "reliability", ...).
#include <string>
#include <vector>

#include "candor/pril/reliability.hpp"
#include "candor/util/names.hpp"

namespace candor {

// --branching-test: how automatic branching ranks the attributes: the main effects of one logit model
// (paper 004) or each attribute's association with the class on its own.
enum class BranchingTest { logit, association };
inline constexpr Named<BranchingTest> kBranchingTestNames[] = {{"logit", BranchingTest::logit},
                                                               {"association", BranchingTest::association}};

struct PrilOptions {
  std::string reliability = "0.5";  // R_k: one value, or one per class (parse_reliabilities)
  bool reliability_prior = false;
  ReliabilityShape shape = ReliabilityShape::linear;  // read and written by kReliabilityShapeNames
  int steps = 5;
  int max_attributes = 2;  // M, 1 to 3
  double min_cases = 5;    // n
  int n_option = 1;
  int branching = 0;  // -1 (those significant), 0, 1 or 2
  std::string branching_attributes;
  // logit (paper 004's main effects) or association (one at a time), by kBranchingTestNames.
  BranchingTest branching_test = BranchingTest::logit;
  double risk = 0.05;
  int bins = 4;
  bool operator==(const PrilOptions&) const = default;
};

struct ParamInfo;  // learn/params.hpp
// The declarations of PrIL's options (group "pril"), in the order of `candor params`.
const std::vector<ParamInfo>& pril_params();

}  // namespace candor
