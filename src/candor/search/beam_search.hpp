#pragma once
// CN2's beam search for one rule (Clark and Niblett 1989; Clark and Boswell 1991).
//
// Starting from the empty rule, every rule in the beam is refined by one condition; refinements must cover
// fewer rows than their parent and at least `min_covered` rows, and predict a class they cover at least one
// example of. The `beam_width` best distinct refinements (by quality, then coverage, then length) form the
// next beam; rules of `max_rule_length` are not refined further. The best rule seen at any level that also
// passes the optional significance tests is returned. Results do not depend on `threads`.
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "candor/coverage/bitset.hpp"
#include "candor/coverage/condition.hpp"
#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/quality/quality.hpp"
#include "candor/search/refinements.hpp"
#include "candor/search/search_kind.hpp"
#include "candor/util/names.hpp"

namespace candor {

// What one search leaves for the next over a subset of its rows (see SearchOptions::memo): the attribute
// lists of the rules it held in its beams. Opaque; one memo serves one caller's searches, one at a time.
class SearchMemo {
 public:
  SearchMemo();
  ~SearchMemo();
  SearchMemo(const SearchMemo&) = delete;
  SearchMemo& operator=(const SearchMemo&) = delete;
  struct Lists;
  std::unique_ptr<Lists> lists;
};

struct SearchOptions {
  int beam_width = 5;
  int max_rule_length = 5;
  std::size_t min_covered = 1;  // rows (unweighted), so that it means the same under any example weights
  // Fewest (weighted) examples of its class among the active rows a rule must cover; a rule below it is
  // neither kept in the beam nor returned (no specialisation covers more).
  double min_positives = 0;
  RefinementKinds kinds{};
  double alpha = 1.0;         // CN2 significance against the class distribution of the search data; 1 = off
  double parent_alpha = 1.0;  // significance against the parent rule's class distribution; 1 = off
  int threads = 1;
  // > 0: the index the search runs on cuts numeric attributes of more distinct values than this only between
  // that many quantile bins (CoverageIndex). Read where the learner builds its index, and by EVC calibration,
  // whose permuted searches must cut where the learner's do.
  std::size_t numeric_bins = 0;
  // When set, receives at [L - 1] the largest quality of any rule of length L that the search evaluated
  // (-infinity for lengths it never reached): what EVC calibration records on permuted data.
  std::vector<double>* level_maxima = nullptr;
  // The returned rule's numeric thresholds are the shortest decimals that select the same training rows
  // (shorten_thresholds). Off where the rule is not kept (EVC's permuted searches): it costs a pass over
  // the rows per condition.
  bool shortest_thresholds = true;
  // Separate selection heuristic (paper 003): the beam is ranked by `quality` (the refinement heuristic)
  // and the returned rule is the best seen by this measure. Null: `quality` does both.
  const QualityMeasure* select_quality = nullptr;
  // The returned rule is the best (by the selection measure) among the rules that entered the beam, the
  // refinement path, instead of among every refinement evaluated (paper 003's top-down learner).
  bool best_from_beam = false;
  // Safe pruning (paper 002, section 2): a refinement whose selection measure's refinement_bound (the best
  // any of its specialisations could score) does not beat the best rule found up to and including its
  // level is not kept in the beam, so the search can end before max_rule_length with the same best rule.
  bool prune = false;
  // When set, a rule is returned only if accept(rule) holds (probabilistic covering: the rule must improve
  // enough examples). Each level tries its candidates best first: the `accept_candidates` best of every
  // (beam rule, attribute) pair, until one is accepted. Not used with best_from_beam.
  std::function<bool(const struct FoundRule&)> accept;
  std::size_t accept_candidates = 4;
  // When set, receives every distinct set of attributes (sorted, unique) the search evaluated
  // refinements on: h_w of paper 002.
  std::set<std::vector<int>>* attribute_sets = nullptr;
  // When set, the search starts from the lists the memo's previous search left, provided its active rows
  // are a subset of that search's (covering only removes rows) on the same index, and leaves its own. A
  // beam rule the previous search also held then builds its attribute lists by filtering its old ones (its
  // rows less the few that were removed) instead of its parent's, much longer, lists: consecutive searches
  // for one class keep many of the same rules. Never changes the result.
  SearchMemo* memo = nullptr;
  // When set, the search's rows are held elsewhere (the parts of a fit across workers) and counted there: it
  // receives the conditions of every rule of a level's beam (the empty rule first, alone) and returns each
  // rule's table (RuleHistogram) over the search's rows. The index then holds no rows, only the schema and the
  // bins every numeric attribute is cut into, and `active` is the counter's to know; a returned rule has no
  // `covered` rows, and takes no accept(), memo or shortest thresholds (its rows' own requests move those).
  std::function<std::vector<RuleHistogram>(const std::vector<std::vector<Condition>>&)> count_rules;
};

struct FoundRule {
  std::vector<Condition> conditions;  // in the order they were added
  int target = 0;
  std::vector<double> counts;  // class counts among the search's active rows
  Bitset covered;              // covered rows among the active ones
  double quality = 0;          // by the refinement measure (`quality`)
  double selection = 0;        // by the selection measure (equal to quality without a select_quality)
};

// Moves each numeric threshold of `conditions` to the shortest decimal (shortest_decimal_in) in the middle
// half of its gap: the open interval between the largest training value at or below it and the smallest
// above it, among all the index's rows that the rule's other conditions cover. Every training row is then
// covered exactly as before, by the rule and by each of its conditions within the rule, so counts, qualities
// and probabilities do not move; values between two training values are split at a round number (2.5, 0.4,
// 300) with at least a quarter of the gap on either side, instead of at the midpoint the search cuts at
// (2.45, 0.39749999999999996, 323.5). A condition with no training value on one side keeps its threshold.
void shorten_thresholds(std::vector<Condition>& conditions, const CoverageIndex& index);

// The gap of condition `i`'s threshold that shorten_thresholds moves it into, over the index's rows: the largest
// value at or below the threshold and the smallest above it among the rows the other conditions cover
// (-inf, +inf where none). Gaps of parts of the rows merge (ThresholdGap::merge) into the gap of all of them.
struct ThresholdGap {
  double below = -std::numeric_limits<double>::infinity();
  double above = std::numeric_limits<double>::infinity();
  void merge(const ThresholdGap& other);
};
ThresholdGap threshold_gap(const std::vector<Condition>& conditions, std::size_t i, const CoverageIndex& index);
// shorten_thresholds' move of one numeric condition into its gap, for rows counted elsewhere: the conditions of
// a rule move in their order, each gap taken with the earlier ones moved.
void move_into_gap(Condition& c, const ThresholdGap& gap);

// Searches the rows in `active`. target >= 0 looks for rules predicting that class; target < 0 lets each
// rule predict the majority class of what it covers (ordered CN2). Returns nothing when no refinement
// qualifies.
std::optional<FoundRule> find_best_rule(const CoverageIndex& index, const Bitset& active, int target,
                                        const QualityMeasure& quality, const SearchOptions& options);

}  // namespace candor
