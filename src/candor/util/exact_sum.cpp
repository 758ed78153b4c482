#include "candor/util/exact_sum.hpp"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace candor {

void ExactSum::add(double x) {
  // The term's fields, read from its bits (frexp and ldexp cost most of an addition otherwise).
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased = static_cast<int>((bits >> 52) & 0x7FF);
  if (biased == 0x7FF) throw std::invalid_argument("ExactSum: a term that is not finite");
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0 && fraction == 0) return;  // +0 or -0
  // |x| = m 2^(bit - kBias): a normal number's m has its leading 1 (2^52) and its lowest bit at biased - 1; a
  // subnormal's m is its fraction, from bit 0.
  const std::uint64_t m = biased ? fraction | (std::uint64_t{1} << 52) : fraction;
  const int bit = biased ? biased - 1 : 0;
  const auto at = static_cast<std::size_t>(bit / 32);
  // The magnitude shifted into place (at most 85 bits), its three 32-bit digits added or taken away.
  const bool negative = (bits >> 63) != 0;
  __extension__ typedef unsigned __int128 Wide;  // GCC's and Clang's 128-bit integer
  const Wide v = static_cast<Wide>(m) << (bit % 32);
  constexpr Wide kLow = 0xFFFFFFFF;
  const auto d0 = static_cast<std::int64_t>(v & kLow), d1 = static_cast<std::int64_t>((v >> 32) & kLow),
             d2 = static_cast<std::int64_t>(v >> 64);
  digit_[at] += negative ? -d0 : d0;
  digit_[at + 1] += negative ? -d1 : d1;
  digit_[at + 2] += negative ? -d2 : d2;
  if (++terms_ >= kTermsBeforeCarry) carry();
}

void ExactSum::add_product(double a, double b) {
  const double p = a * b;
  add(p);
  add(std::fma(a, b, -p));
}

void ExactSum::carry() {
  // Every digit but the top into [0, 2^32); the top one keeps the sign.
  for (std::size_t i = 0; i + 1 < kDigits; ++i) {
    const std::int64_t c = digit_[i] >> 32;  // arithmetic: floor(digit / 2^32)
    digit_[i] -= c * (std::int64_t{1} << 32);
    digit_[i + 1] += c;
  }
  terms_ = 0;
}

void ExactSum::merge(const ExactSum& other) {
  ExactSum o = other;
  o.carry();
  carry();
  for (std::size_t i = 0; i < kDigits; ++i) digit_[i] += o.digit_[i];
  carry();
}

double ExactSum::value() const {
  ExactSum c = *this;
  c.carry();
  // A negative sum (its top digit negative, the others counting up from it) is read as its magnitude.
  const bool negative = c.digit_[kDigits - 1] < 0;
  if (negative) {
    for (auto& d : c.digit_) d = -d;
    c.carry();
  }
  // From the top digit down: each digit is exact in a double, and the running sum is rounded once per digit.
  double out = 0;
  for (std::size_t i = kDigits; i-- > 0;)
    if (c.digit_[i] != 0) out += std::ldexp(static_cast<double>(c.digit_[i]), static_cast<int>(32 * i) - kBias);
  return negative ? -out : out;
}

std::vector<std::int64_t> ExactSum::digits() const {
  ExactSum c = *this;
  c.carry();
  const bool negative = c.digit_[kDigits - 1] < 0;
  if (negative) {
    for (auto& d : c.digit_) d = -d;
    c.carry();
  }
  std::size_t low = 0, high = kDigits;
  while (low < kDigits && c.digit_[low] == 0) ++low;
  if (low == kDigits) return {};
  while (c.digit_[high - 1] == 0) --high;
  const auto first = static_cast<std::int64_t>(low);
  std::vector<std::int64_t> out{negative ? -first - 1 : first};
  out.insert(out.end(), c.digit_.begin() + static_cast<std::ptrdiff_t>(low),
             c.digit_.begin() + static_cast<std::ptrdiff_t>(high));
  return out;
}

ExactSum ExactSum::from_digits(const std::vector<std::int64_t>& digits) {
  ExactSum out;
  if (digits.empty()) return out;
  const bool negative = digits[0] < 0;
  const std::int64_t first = negative ? -(digits[0] + 1) : digits[0];
  const auto places = static_cast<std::int64_t>(kDigits);
  if (digits.size() < 2 || first >= places || static_cast<std::int64_t>(digits.size()) - 1 > places - first)
    throw std::invalid_argument("ExactSum: digits of another accumulator");
  for (std::size_t i = 1; i < digits.size(); ++i) {
    const auto at = static_cast<std::size_t>(first) + i - 1;
    // A magnitude's digits: in [0, 2^32) below the top one, which takes the carries.
    if (digits[i] < 0 || (at + 1 < kDigits && digits[i] >= (std::int64_t{1} << 32)))
      throw std::invalid_argument("ExactSum: a digit out of range");
    out.digit_[at] = negative ? -digits[i] : digits[i];
  }
  return out;
}

std::vector<double> values(const std::vector<ExactSum>& sums) {
  std::vector<double> out;
  for (const ExactSum& s : sums) out.push_back(s.value());
  return out;
}

void merge(std::vector<ExactSum>& into, const std::vector<ExactSum>& from) {
  if (into.empty()) into.resize(from.size());
  if (into.size() != from.size()) throw std::invalid_argument("sums of another length");
  for (std::size_t i = 0; i < into.size(); ++i) into[i].merge(from[i]);
}

}  // namespace candor
