#include "candor/data/resampling.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "candor/util/random.hpp"

namespace candor {

namespace {
// The rows of each class, each class's rows shuffled in turn with one generator seeded by `seed`.
std::vector<std::vector<std::size_t>> shuffled_rows_by_class(const std::vector<int>& y, std::uint64_t seed) {
  int classes = 0;
  for (int c : y) classes = std::max(classes, c + 1);
  std::vector<std::vector<std::size_t>> by_class(static_cast<std::size_t>(classes));
  for (std::size_t r = 0; r < y.size(); ++r) by_class[y[r]].push_back(r);
  Rng rng(seed);
  for (auto& rows : by_class) shuffle(rows, rng);
  return by_class;
}
}  // namespace

std::vector<std::size_t> rows_not_in(std::size_t n, const std::vector<std::size_t>& rows) {
  std::vector<bool> listed(n, false);
  for (auto r : rows) listed[r] = true;
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < n; ++r)
    if (!listed[r]) out.push_back(r);
  return out;
}

std::vector<std::vector<std::size_t>> stratified_folds(const std::vector<int>& y, int k, std::uint64_t seed) {
  if (k < 2) throw std::invalid_argument("need at least 2 folds");
  if (static_cast<std::size_t>(k) > y.size())
    throw std::invalid_argument(std::to_string(k) + " folds but only " + std::to_string(y.size()) + " rows");
  std::vector<std::vector<std::size_t>> folds(static_cast<std::size_t>(k));
  std::size_t next = 0;
  for (const auto& rows : shuffled_rows_by_class(y, seed))
    for (auto r : rows) folds[next++ % folds.size()].push_back(r);
  for (auto& f : folds) std::sort(f.begin(), f.end());
  return folds;
}

std::pair<std::vector<std::size_t>, std::vector<std::size_t>> stratified_holdout(const std::vector<int>& y,
                                                                                 double test_fraction,
                                                                                 std::uint64_t seed) {
  if (!(test_fraction > 0 && test_fraction < 1)) throw std::invalid_argument("the test fraction must lie in (0, 1)");
  std::vector<std::size_t> train, test;
  for (const auto& rows : shuffled_rows_by_class(y, seed)) {
    auto n_test = static_cast<std::size_t>(std::llround(test_fraction * static_cast<double>(rows.size())));
    if (rows.size() >= 2) n_test = std::clamp<std::size_t>(n_test, 1, rows.size() - 1);
    for (std::size_t i = 0; i < rows.size(); ++i) (i < n_test ? test : train).push_back(rows[i]);
  }
  std::sort(train.begin(), train.end());
  std::sort(test.begin(), test.end());
  return {train, test};
}

std::vector<std::size_t> spread_rows(std::size_t n, std::size_t count) {
  std::vector<std::size_t> out;
  if (n <= count) {
    out.resize(n);
    std::iota(out.begin(), out.end(), std::size_t{0});
    return out;
  }
  out.reserve(count);
  // floor(i n / count) as i q + floor(i r / count), n = q count + r: i n may not fit in 64 bits, i r < count^2 does.
  const std::size_t q = n / count, r = n % count;
  for (std::size_t i = 0; i < count; ++i) out.push_back(i * q + i * r / count);
  return out;
}

}  // namespace candor
