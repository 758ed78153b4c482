#pragma once
// A fixed-size set of example indices stored as 64-bit words. Coverage of every rule is one of these, and
// class counts come from popcounts of intersections, so this is the hot path of all learners.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace candor {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(std::size_t n, bool value = false) : n_(n), words_((n + 63) / 64, value ? ~0ULL : 0ULL) {
    if (value) clear_tail();
  }
  std::size_t size() const { return n_; }
  std::size_t num_words() const { return words_.size(); }
  const std::uint64_t* data() const { return words_.data(); }
  std::uint64_t* data() { return words_.data(); }

  void set(std::size_t i) { words_[i >> 6] |= 1ULL << (i & 63); }
  void reset(std::size_t i) { words_[i >> 6] &= ~(1ULL << (i & 63)); }
  bool test(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1ULL; }

  std::size_t count() const {
    std::size_t c = 0;
    for (auto w : words_) c += static_cast<std::size_t>(std::popcount(w));
    return c;
  }
  bool any() const {
    for (auto w : words_)
      if (w) return true;
    return false;
  }
  Bitset& operator&=(const Bitset& o) {
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
    return *this;
  }
  Bitset& operator|=(const Bitset& o) {
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    return *this;
  }
  // this = this AND NOT o
  Bitset& subtract(const Bitset& o) {
    for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= ~o.words_[i];
    return *this;
  }
  // Whether every member is also one of o's (sets of one size).
  bool is_subset_of(const Bitset& o) const {
    if (n_ != o.n_) return false;
    for (std::size_t i = 0; i < words_.size(); ++i)
      if (words_[i] & ~o.words_[i]) return false;
    return true;
  }
  friend Bitset operator&(Bitset a, const Bitset& b) { return a &= b; }
  bool operator==(const Bitset& o) const { return n_ == o.n_ && words_ == o.words_; }

  // Calls f(index) for every member in ascending order.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t wi = 0; wi < words_.size(); ++wi) {
      std::uint64_t w = words_[wi];
      while (w) {
        f((wi << 6) + static_cast<std::size_t>(std::countr_zero(w)));
        w &= w - 1;
      }
    }
  }
  std::vector<std::uint32_t> members() const {
    std::vector<std::uint32_t> out;
    out.reserve(count());
    for_each([&](std::size_t i) { out.push_back(static_cast<std::uint32_t>(i)); });
    return out;
  }

 private:
  void clear_tail() {
    if (n_ & 63) words_.back() &= (1ULL << (n_ & 63)) - 1;
  }
  std::size_t n_ = 0;
  std::vector<std::uint64_t> words_;
};

// |a AND b|
inline std::size_t count_and(const Bitset& a, const Bitset& b) {
  std::size_t c = 0;
  const auto* x = a.data();
  const auto* y = b.data();
  for (std::size_t i = 0; i < a.num_words(); ++i) c += static_cast<std::size_t>(std::popcount(x[i] & y[i]));
  return c;
}

}  // namespace candor
