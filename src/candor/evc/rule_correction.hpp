#pragma once
// The extreme value corrected relative frequency of a rule (paper 000, section 4.1, five steps):
//   1. LRS of the rule, eq. (14), against the data its search ran on (0 when s <= e_s);
//   2. P_a = P(Gumbel > LRS), with the law of the best LRS of rules of the rule's length on permuted data;
//   3. P_a^s = 2 P_a (only rules above the prior count, so the chi2 tail is half the hypotheses);
//   4. corrected LRS = the chi2(1) value with upper tail P_a^s (0 when P_a^s >= 1);
//   5. corrected s' in [n P/N, s] with LRS(s', n; P, N) = corrected LRS (Brent-type root finding);
// and the probability s'/n, as in the paper (no m-estimate on top).
// A rule whose relative frequency is not above the prior is not corrected (s' = s): there is no optimism
// to remove where the search did not find anything.
#include "candor/evc/gumbel.hpp"

namespace candor {

struct EvcEstimate {
  double lrs = 0;            // step 1
  double log_p_a = 0;        // step 2, log P_a
  double p_a_s = 1;          // step 3, min(1, 2 P_a)
  double corrected_lrs = 0;  // step 4
  double s = 0;              // step 5: corrected positives
  double probability = 0;    // s / n
};

// s positives among n covered examples; p_total positives among n_total examples the search ran on.
// Counts may be weighted (fractional). n must be positive.
EvcEstimate evc_correct(double s, double n, double p_total, double n_total, const GumbelLaw& law);

// Steps 2 to 4 alone, for any statistic whose value for one rule is chi2(1) distributed under the null and whose
// best over a search follows `law`: the chi2(1) value with upper tail 2 P(law > statistic), 0 when that tail is
// 1 or more (the search finds a statistic this large by chance at least half the time).
double evc_corrected_statistic(double statistic, const GumbelLaw& law);

}  // namespace candor
