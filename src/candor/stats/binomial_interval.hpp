#pragma once
// Exact (Clopper-Pearson) confidence interval of a binomial proportion, from Boost.Math's beta quantiles.
#include <utility>

namespace candor {

// The two-sided interval at `confidence` for s successes in n trials (weights allowed: non-integer s and
// n are read through the beta distribution). s = 0 gives lower 0, s = n gives upper 1; n = 0 gives [0, 1].
std::pair<double, double> clopper_pearson(double s, double n, double confidence = 0.95);

}  // namespace candor
