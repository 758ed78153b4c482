#pragma once
// Layered search (Quinlan and Cameron-Jones 1995, "Oversearching and layered search in empirical
// learning", paper 002, section 3): beam searches of widths 1, 2, 4, ... each give their best rule; the
// rule kept is the one whose r_w, a pessimistic error estimate that grows with the number of rules the
// search examined, is smallest.
#include <cstddef>
#include <optional>
#include <vector>

#include "candor/search/beam_search.hpp"

namespace candor {

// r solving h * P(n, e, r) = 0.5, with P(n, e, r) the binomial probability of at most e errors in n trials
// at error rate r (Boost.Math binomial; TOMS 748): the error rate at which one of h rules all that bad
// would have an even chance of doing as well as e errors in n. h < 1 counts as 1; e >= n gives 1.
double occam_error_estimate(double h, double n, double e);

struct WidthOutcome {
  int width = 0;
  std::optional<FoundRule> rule;   // best rule of the beam search of this width
  std::size_t attribute_sets = 0;  // h_w: distinct attribute combinations the search evaluated
  double n = 0, e = 0;             // the rule's covered examples and errors
  double r = 1;                    // r_w
};

struct LayeredOutcome {
  std::optional<FoundRule> best;  // the rule of the width with the smallest r_w
  int chosen_width = 0;
  std::vector<WidthOutcome> widths;  // in the order searched
};

// Layered search's choice among the outcomes of widths 1, 2, 4, ... in order: the width of smallest r_w
// among those searched before two successive widths failed to improve it. `searched` receives how many
// widths layered search would have run.
struct LayeredChoice {
  std::optional<std::size_t> chosen;  // index into the outcomes; none when no width found a rule
  std::size_t searched = 0;
  bool stopped = false;  // two successive widths failed to improve: no wider search is needed
};
LayeredChoice layered_choice(const std::vector<WidthOutcome>& widths);

// Beam searches of widths 1, 2, 4, ... up to max_width with `options` otherwise (options.beam_width and
// options.attribute_sets are set per width), keeping the rule with the smallest r_w and stopping when two
// successive widths fail to improve it. Needs a target class (the errors are the other classes).
LayeredOutcome layered_search(const CoverageIndex& index, const Bitset& active, int target,
                              const QualityMeasure& quality, SearchOptions options, int max_width);

// One width's outcome (the search of layered_search and of the oversearching experiment's curves).
WidthOutcome search_width(const CoverageIndex& index, const Bitset& active, int target, const QualityMeasure& quality,
                          SearchOptions options, int width);

}  // namespace candor
