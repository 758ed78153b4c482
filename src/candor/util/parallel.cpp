#include "candor/util/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace candor {

int resolve_threads(int requested) {
  if (requested > 0) return requested;
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

namespace {

// One parallel_for call: its caller and up to `helpers` pool threads take indices from `next`.
struct Job {
  std::size_t n;
  const std::function<void(std::size_t)>* f;
  std::size_t helpers;  // pool threads that may still join
  std::atomic<std::size_t> next{0};
  std::size_t running = 0;  // pool threads inside run(); guarded by the pool's mutex
  std::exception_ptr error;
  std::mutex error_mutex;

  void run() {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        (*f)(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = n;
      }
    }
  }
};

// Threads started once and kept for the life of the process: a beam search calls parallel_for at every
// level of every search, and starting threads each time cost more than small levels' work. A job's caller
// always works on its own job, so nested calls (a task that calls parallel_for) cannot deadlock: at worst
// the caller does all of its job alone.
class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
    return pool;
  }

  void run(Job& job, std::size_t workers) {
    {
      std::lock_guard lock(mutex_);
      while (threads_.size() < workers - 1) threads_.emplace_back([this] { serve(); });
      job.helpers = workers - 1;
      queue_.push_back(&job);
      ++queued_;
    }
    if (sleepers_.load() > 0) wake_.notify_all();
    job.run();
    std::unique_lock lock(mutex_);
    // No pool thread joins once the caller has finished its share; wait for those that did.
    if (auto it = std::find(queue_.begin(), queue_.end(), &job); it != queue_.end()) queue_.erase(it);
    done_.wait(lock, [&] { return job.running == 0; });
  }

  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      ++queued_;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!stop_ && queue_.empty()) {
        // A search's levels come in quick succession: spin a little before sleeping, for the next job is
        // usually a few microseconds away and a sleeping thread takes tens of them to wake.
        const std::size_t seen = queued_.load();
        lock.unlock();
        for (int i = 0; i < kSpins && queued_.load(std::memory_order_relaxed) == seen; ++i) pause();
        lock.lock();
      }
      ++sleepers_;
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      --sleepers_;
      if (stop_) return;
      Job* job = queue_.front();
      if (--job->helpers == 0) queue_.pop_front();
      ++job->running;
      lock.unlock();
      job->run();
      lock.lock();
      if (--job->running == 0) done_.notify_all();
    }
  }

  static constexpr int kSpins = 20000;
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  std::atomic<std::size_t> queued_{0};    // jobs ever queued
  std::atomic<std::size_t> sleepers_{0};  // pool threads waiting on wake_ (or about to)
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Job*> queue_;
  std::vector<std::thread> threads_;
  bool stop_ = false;
};

}  // namespace

void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& f) {
  const std::size_t workers = std::min<std::size_t>(n, static_cast<std::size_t>(resolve_threads(threads)));
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  Job job;
  job.n = n;
  job.f = &f;
  Pool::instance().run(job, workers);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace candor
