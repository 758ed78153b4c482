#include "candor/util/exact_sum.hpp"

#include <cmath>
#include <stdexcept>

namespace candor {

void ExactSum::add(double x) {
  if (x == 0) return;
  if (!std::isfinite(x)) throw std::invalid_argument("ExactSum: a term that is not finite");
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f 2^e, 0.5 <= |f| < 1
  // x = m 2^(e - 53), m an integer of at most 53 bits; its lowest bit is bit e - 53 + kBias of the accumulator.
  auto m = static_cast<std::int64_t>(std::ldexp(f, 53));
  int bit = e - 53 + kBias;
  if (bit < 0) {
    // A subnormal: the bits of m below 2^-1074 are zero; shifting them out is exact.
    m /= std::int64_t{1} << -bit;
    bit = 0;
  }
  const auto at = static_cast<std::size_t>(bit / 32);
  // The magnitude shifted into place (at most 85 bits), its three 32-bit digits added or taken away.
  const bool negative = m < 0;
  const unsigned __int128 v = static_cast<unsigned __int128>(negative ? -m : m) << (bit % 32);
  constexpr unsigned __int128 kLow = 0xFFFFFFFF;
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
  return std::vector<std::int64_t>(c.digit_.begin(), c.digit_.end());
}

ExactSum ExactSum::from_digits(const std::vector<std::int64_t>& digits) {
  if (digits.size() != kDigits) throw std::invalid_argument("ExactSum: digits of another accumulator");
  ExactSum out;
  for (std::size_t i = 0; i < kDigits; ++i) {
    if (i + 1 < kDigits && (digits[i] < 0 || digits[i] >= (std::int64_t{1} << 32)))
      throw std::invalid_argument("ExactSum: a digit out of range");
    out.digit_[i] = digits[i];
  }
  return out;
}

}  // namespace candor
