#pragma once
// Seeded randomness with the same sequence on every platform: std::mt19937_64's output is fixed by the
// standard, but std::uniform_int_distribution and std::shuffle are not, so we draw bounded integers here.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <unordered_set>
#include <vector>

namespace candor {

using Rng = std::mt19937_64;

// Uniform integer in [0, bound), by rejection (no modulo bias).
inline std::uint64_t uniform_below(Rng& rng, std::uint64_t bound) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  std::uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % bound;
}

// Uniform double in [0, 1) with 53 random bits.
inline double uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[uniform_below(rng, i)]);
}

// n rows drawn with replacement from [0, n): a bootstrap resample, in the order drawn.
inline std::vector<std::size_t> bootstrap_rows(std::size_t n, Rng& rng) {
  std::vector<std::size_t> rows(n);  // empty for n = 0 (uniform_below needs a positive bound)
  for (auto& r : rows) r = uniform_below(rng, n);
  return rows;
}

// Half the rows of [0, n) (at least one), drawn without replacement, ascending.
inline std::vector<std::size_t> half_subsample_rows(std::size_t n, Rng& rng) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  shuffle(all, rng);
  all.resize(std::max<std::size_t>(n / 2, 1));
  std::sort(all.begin(), all.end());
  return all;
}

// `count` distinct rows of [0, n) (all of them when count >= n), drawn uniformly, ascending. Floyd's algorithm:
// the draws grow with `count`, not with n, so that a fit over rows it does not hold (a distributed fit) draws the
// same sample from the row count alone.
inline std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count, Rng& rng) {
  if (count >= n) {
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }
  std::vector<std::size_t> out;
  out.reserve(count);
  if (n <= (std::size_t{1} << 27) || n / 320 <= count) {
    // The same draws, marked in a bit a row (at most 16 MB, or less than a set's 40-odd bytes a chosen row): a
    // gradient round draws 10,000 of every row, and the set's nodes cost more than the search on them.
    std::vector<std::uint64_t> chosen((n + 63) / 64, 0);
    auto take = [&](std::size_t r) {
      const std::uint64_t bit = std::uint64_t{1} << (r & 63);
      const bool fresh = (chosen[r >> 6] & bit) == 0;
      chosen[r >> 6] |= bit;
      return fresh;
    };
    for (std::size_t j = n - count; j < n; ++j)
      if (!take(static_cast<std::size_t>(uniform_below(rng, j + 1)))) take(j);
    for (std::size_t w = 0; w < chosen.size(); ++w)
      for (std::uint64_t bits = chosen[w]; bits; bits &= bits - 1)
        out.push_back(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    return out;
  }
  std::unordered_set<std::size_t> chosen;
  chosen.reserve(count * 2);
  for (std::size_t j = n - count; j < n; ++j) {
    const auto t = static_cast<std::size_t>(uniform_below(rng, j + 1));
    const std::size_t pick = chosen.insert(t).second ? t : j;
    if (pick == j) chosen.insert(j);
    out.push_back(pick);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace candor
