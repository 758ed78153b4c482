#pragma once
// Runs f(0..n) on up to `threads` threads. Each index is one task; callers write results into slots
// indexed by task, so the outcome never depends on scheduling. The first exception thrown by a task is
// rethrown on the calling thread after all threads have stopped.
#include <cstddef>
#include <functional>

namespace candor {

// 0 (or negative) means every hardware thread.
int resolve_threads(int requested);
// threads <= 0: every hardware thread (resolve_threads).
void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& f);

}  // namespace candor
