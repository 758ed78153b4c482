#pragma once
// Seeded, stratified splits of a data set's rows by their classes: the folds of cross-validation and a
// holdout. Learners use them for their internal folds (lambda search, calibration) and evaluation for its
// outer ones, so they sit below both.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace candor {

// Splits rows into k folds with each class spread as evenly as possible: the rows of each class are
// shuffled with `seed` and dealt to the folds in turn, continuing from class to class. Returns the test
// rows of each fold, ascending.
std::vector<std::vector<std::size_t>> stratified_folds(const std::vector<int>& y, int k, std::uint64_t seed);

// The rows 0..n-1 that are not in `rows` (the training rows of a test fold), ascending.
std::vector<std::size_t> rows_not_in(std::size_t n, const std::vector<std::size_t>& rows);

// Splits rows into a stratified holdout: of each class's rows, shuffled with `seed`, round(fraction * n_c)
// go to the test side (at least one row stays on each side where the class has two or more). Returns
// {train rows, test rows}, each ascending.
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> stratified_holdout(const std::vector<int>& y,
                                                                                 double test_fraction,
                                                                                 std::uint64_t seed);

// `count` rows of 0..n-1 spread evenly over them, ascending (row floor(i n / count) for i < count); every row
// when n <= count. Needs no seed, and picks the same rows wherever the rows are held: a distributed fit
// draws the samples its bins and its EVC calibration are taken from by these positions.
std::vector<std::size_t> spread_rows(std::size_t n, std::size_t count);

}  // namespace candor
