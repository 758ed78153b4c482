#pragma once
// A process-wide memo of results that are expensive to compute and asked for again with identical inputs
// (an EVC calibration by learners sharing a training fold; a PrIL experiment's main-effects logit model by
// its settings sharing a training set). The key is a digest of everything the result depends on;
// concurrent callers with one key wait for a single computation; the least recently used entry is
// forgotten beyond a capacity.
#include <atomic>
#include <cstdint>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace candor {

// Two independent 64-bit digests of the bytes added; a false match needs both to collide.
struct Digest {
  std::uint64_t a = 1469598103934665603ull, b = 0x9E3779B97F4A7C15ull;
  void add(const void* bytes, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < size; ++i) {
      a = (a ^ p[i]) * 1099511628211ull;  // FNV-1a
      b = (b ^ p[i]) * 0xff51afd7ed558ccdull;
      b ^= b >> 29;
    }
  }
  template <class T>
  void add_value(const T& v) {
    add(&v, sizeof v);
  }
  template <class T>
  void add_vector(const std::vector<T>& v) {
    add_value(v.size());
    if (!v.empty()) add(v.data(), v.size() * sizeof(T));
  }
  bool operator<(const Digest& o) const { return std::tie(a, b) < std::tie(o.a, o.b); }
};

template <class Value>
class MemoCache {
 public:
  explicit MemoCache(std::size_t capacity) : capacity_(capacity) {}

  // The value stored under `key`, or compute()'s, stored. An exception from compute() reaches every caller
  // waiting on it and leaves nothing stored.
  template <class Compute>
  Value get(const Digest& key, Compute&& compute) {
    std::promise<Value> promise;
    std::shared_future<Value> result;
    bool mine = false;
    {
      std::lock_guard lock(mutex_);
      auto it = entries_.find(key);
      if (it != entries_.end()) {
        it->second.first = ++clock_;
        result = it->second.second;
        ++hits_;
      } else {
        if (entries_.size() >= capacity_) {  // forget the least recently used
          auto oldest = entries_.begin();
          for (auto i = entries_.begin(); i != entries_.end(); ++i)
            if (i->second.first < oldest->second.first) oldest = i;
          entries_.erase(oldest);
        }
        result = promise.get_future().share();
        entries_.emplace(key, std::make_pair(++clock_, result));
        mine = true;
      }
    }
    if (mine) {
      try {
        promise.set_value(compute());
      } catch (...) {
        {
          std::lock_guard lock(mutex_);
          entries_.erase(key);
        }
        promise.set_exception(std::current_exception());
      }
    }
    return result.get();
  }

  // How many get() calls were answered from the memo (for tests and benchmarks).
  std::size_t hits() const { return hits_; }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::map<Digest, std::pair<std::uint64_t, std::shared_future<Value>>> entries_;
  std::uint64_t clock_ = 0;
  std::atomic<std::size_t> hits_{0};
};

}  // namespace candor
