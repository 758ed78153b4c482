#pragma once
// SIRUS's quantile grids of numeric attributes, on which rules are compared across resamples.
#include <vector>

#include "candor/data.hpp"

namespace candor {

// The q-quantile grid of each numeric attribute of `data`: the values at ranks ceil(k n / q) of its sorted
// known values, k = 1 .. q-1, duplicates dropped (empty for nominal attributes and for numeric ones without
// a known value). SIRUS's grid (stability of rules, and thresholds of --stable-resamples).
std::vector<std::vector<double>> quantile_grid(const Dataset& data, int quantiles);
// The value of an attribute's grid nearest to threshold t (the lower one on a tie); t itself where the grid
// is empty. Rules are compared with their thresholds snapped so (stability, stable rules).
double snap_to_grid(double t, const std::vector<double>& grid);

}  // namespace candor
