#pragma once
// The general extreme value correction of paper 000, section 3.3, and the pessimistic correction of
// section 3.2, for any learner that picks the best of many hypotheses by a chi-squared quality.
//
// EVC in two steps: fit a Gumbel law to the best qualities the learner finds on class-permuted data
// (`permutation_maxima` + `fit_gumbel`); then a best quality q is corrected to the value a single,
// unselected chi2 hypothesis would need to be as surprising: P_a = P(Gumbel > q), q' = chi2 upper
// quantile at P_a (`evc_correct_chi2`).
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "candor/evc/gumbel.hpp"
#include "candor/util/random.hpp"

namespace candor {

// The x with P(chi2(df) > x) = exp(log_p); 0 when log_p >= 0. Exact (Boost.Math) where p is a normal
// double; below that, from the asymptotic upper tail of the gamma distribution, so that rules with huge
// statistics keep distinct, finite corrected values.
double chi2_upper_quantile_log(double log_p, double df);

// Best quality found on one class-permuted copy of the data. The callee permutes with `rng` (and nothing
// else random), runs its usual search and returns the best quality it saw.
using BestOnPermuted = std::function<double(Rng& rng)>;

// Runs `best_on_permuted` `permutations` times, permutation i with a generator seeded from (seed, i), on up
// to `threads` threads. The result is in permutation order and the same for any thread count.
std::vector<double> permutation_maxima(const BestOnPermuted& best_on_permuted, int permutations, std::uint64_t seed,
                                       int threads);

// Seed of the i-th independent stream derived from `seed` (splitmix64), for callers that need the same
// per-permutation generators as permutation_maxima.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t i);

// Section 3.3: the corrected value of a best quality q_max that would be chi2(df) for a single hypothesis,
// given the law of best qualities on permuted data. Never negative.
double evc_correct_chi2(double q_max, const GumbelLaw& law, double df = 1.0);

// Section 3.2, for the paper's 2x2 tables. `table` = {x0&C1, x0&C2, x1&C1, x1&C2}, the best attribute's
// counts; `permuted_mean` = pi_p, the mean best Pearson chi2 on class-permuted data. Assuming every
// hypothesis has the same true strength, the true table has P(x=0|C1) = P(x=1|C2) = p0; p0 is the value
// at which the observed table's chi2 against the true one equals pi_p, and the corrected quality is the
// chi2 of the true table against independence.
struct PessimisticCorrection {
  double p0 = 0.5;       // P(x = 0 | C1) of the implied true table (mirrored when the table leans to C2)
  double tail = 1;       // P(chi2(1) > pi_p)
  double corrected = 0;  // corrected chi2
};
PessimisticCorrection pessimistic_chi2_correction(const std::array<double, 4>& table, double permuted_mean);

// Pearson chi2 of a 2x2 table {a, b, c, d} against independence of its own margins.
double pearson_chi2_2x2(const std::array<double, 4>& table);

}  // namespace candor
