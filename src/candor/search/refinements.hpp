#pragma once
// Evaluates every condition on one attribute over the examples a rule covers, without building a bitset
// per condition: nominal attributes by popcounts of (rule AND value AND class) or by one pass over the
// covered rows, whichever is cheaper; numeric attributes by one sweep over the covered rows in value
// order, cutting at boundary points (midpoints between adjacent distinct values, skipped only where the
// examples on both sides are all of one and the same class).
#include <cstdint>
#include <functional>
#include <vector>

#include "candor/coverage/coverage_index.hpp"

namespace candor {

// What a refinement would cover: its class counts (weighted) and its number of rows.
using RefinementSink = std::function<void(const Condition&, const double* counts, std::size_t rows)>;

struct RuleCoverage {
  const Bitset* covered;                     // rows the rule covers
  const std::vector<std::uint32_t>* rows;    // the same rows as a sorted list
};

struct RefinementKinds {
  bool equal = true;      // A = v
  bool not_equal = false; // A != v
  bool less_equal = true; // A <= t
  bool greater = true;    // A > t
};

// Scratch memory reused across calls by one thread.
struct RefinementScratch {
  std::vector<double> table;
  std::vector<std::size_t> row_counts;
  std::vector<std::uint32_t> order;
  std::vector<double> cum, total, group;
};

void evaluate_attribute(const CoverageIndex& index, const RuleCoverage& rule, int attribute, RefinementKinds kinds,
                        RefinementScratch& scratch, const RefinementSink& sink);

}  // namespace candor
