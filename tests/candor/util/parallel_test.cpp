#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "candor/util/parallel.hpp"

using namespace candor;

TEST(ParallelFor, EveryIndexOnceAcrossManyCalls) {
  // The pool's threads serve call after call; each call must run each index exactly once.
  for (int call = 0; call < 200; ++call) {
    const std::size_t n = static_cast<std::size_t>(call % 17);
    std::vector<std::atomic<int>> hits(n);
    parallel_for(n, 3, [&](std::size_t i) { ++hits[i]; });
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "call " << call << " index " << i;
  }
}

TEST(ParallelFor, NestedCallsFinish) {
  // Tasks that call parallel_for themselves (cross-validation folds running parallel searches).
  std::vector<long> sums(8);
  parallel_for(sums.size(), 2, [&](std::size_t i) {
    std::vector<long> inner(100);
    parallel_for(inner.size(), 2, [&](std::size_t j) { inner[j] = static_cast<long>(i * j); });
    sums[i] = std::accumulate(inner.begin(), inner.end(), 0L);
  });
  for (std::size_t i = 0; i < sums.size(); ++i) EXPECT_EQ(sums[i], static_cast<long>(i * 4950));
}

TEST(ParallelFor, FirstExceptionReachesTheCaller) {
  EXPECT_THROW(parallel_for(50, 2,
                            [](std::size_t i) {
                              if (i == 7) throw std::runtime_error("task 7");
                            }),
               std::runtime_error);
  // The pool still works afterwards.
  std::atomic<int> count{0};
  parallel_for(10, 2, [&](std::size_t) { ++count; });
  EXPECT_EQ(count.load(), 10);
}
