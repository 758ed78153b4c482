#pragma once
// PrIL's subset elimination in one branch (paper 004). With the required reliabilities {r_k} stepped down
// from near 1 to the minimum R_k: for every attribute (then every pair, up to `max_attributes`, only when no
// single attribute gives a rule), build its rule set over the cases left: for each value (combination) with
// more than `min_cases` cases, the rule "value -> class k" when the class's share holds r_k at risk alpha
// (reliability.hpp); post the rule set of largest significance S(A_i), eliminate the cases its rules cover,
// repeat; when nothing qualifies, step the reliabilities down. Cases left at the end are undecided. With
// the n-option, one last pass at the minimum reliabilities drops the minimum-cases requirement for them.
#include <cstddef>
#include <vector>

namespace candor {

struct PrilRule {
  std::vector<int> values;  // one category per attribute of its rule set
  int klass = 0;
  double reliability = 0;           // the level it was posted at
  double covered = 0, correct = 0;  // training weight covered and of its class, when posted
};

struct PrilRuleSet {
  std::vector<int> attributes;
  std::vector<PrilRule> rules;
  double significance = 0;  // S(A_i)
  int step = 0;             // 0-based reliability step it was posted at (steps: the n-option pass)
};

struct PrilSettings {
  std::vector<std::vector<double>> levels;  // [step][class]: required reliabilities, the last the minimum
  int max_attributes = 2;
  double min_cases = 5;
  bool n_option = true;
  double alpha = 0.05;
};

// `codes[a][row]`: category of attribute a in each row (-1 missing), `categories[a]` their number; `rows`
// the branch's cases with weights `weights` (one per row of the data, indexed by row) and classes `y`;
// `attributes`: those the rules may use. Returns the posted rule sets in order.
std::vector<PrilRuleSet> eliminate_subsets(const std::vector<std::vector<int>>& codes,
                                           const std::vector<int>& categories, const std::vector<int>& y,
                                           const std::vector<double>& weights, const std::vector<std::size_t>& rows,
                                           const std::vector<int>& attributes, std::size_t classes,
                                           const PrilSettings& settings);

// Builds the rule set of `attributes` over `rows` at reliabilities `levels` (one per class); empty rules
// when no value qualifies. Exposed for tests.
PrilRuleSet build_rule_set(const std::vector<std::vector<int>>& codes, const std::vector<int>& categories,
                           const std::vector<int>& y, const std::vector<double>& weights,
                           const std::vector<std::size_t>& rows, const std::vector<int>& attributes,
                           std::size_t classes, const std::vector<double>& levels, double min_cases, double alpha);

}  // namespace candor
