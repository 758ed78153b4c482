#pragma once
// A sum of doubles that does not depend on the order of its terms: every term is added exactly into a
// fixed-point accumulator that spans the whole range of double (Kulisch's long accumulator), and the sum is
// rounded only when it is read. Sums of parts merge into the sum of the whole, bit for bit, so that a fit over
// rows held in parts (learn/fit_rows.hpp) takes the steps the fit in one process takes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace candor {

class ExactSum {
 public:
  // Finite terms only (a fit's weights and probabilities are).
  void add(double x);
  // a * b, exactly: the rounded product and its rounding error (std::fma), which is exact unless the product is
  // close to the subnormals (below about 2^-968), where the error is rounded in turn.
  void add_product(double a, double b);
  void merge(const ExactSum& other);
  // The sum, to within one unit in the last place; the same for the same exact sum, whatever the order.
  double value() const;
  // The sum as numbers, for a message, and back: {} for zero; else the index of the magnitude's lowest non-zero
  // digit (-(index + 1) for a negative sum), then its digits up to its highest non-zero one. A sum in a fit spans
  // a few of the 70 digits, which a message would otherwise carry in full (a negative one as 2^32 - 1 in each
  // digit above its magnitude). The same sum gives the same numbers, whatever the order of its terms.
  std::vector<std::int64_t> digits() const;
  static ExactSum from_digits(const std::vector<std::int64_t>& digits);
  bool operator==(const ExactSum& other) const { return digits() == other.digits(); }

 private:
  // Digit i weighs 2^(32 i - kBias): the smallest subnormal is bit 0, the largest double fits below the top
  // digit with room for the carries of 2^31 terms.
  static constexpr int kBias = 1074;
  static constexpr std::size_t kDigits = 70;
  // Each digit holds at most 2^32 per term added since the last carry: carries are taken before 2^30 terms.
  static constexpr std::uint32_t kTermsBeforeCarry = 1u << 30;
  void carry();
  std::array<std::int64_t, kDigits> digit_{};
  std::uint32_t terms_ = 0;
};

// The value of each sum.
std::vector<double> values(const std::vector<ExactSum>& sums);
// Each of `from` merged into its place in `into` (empty: as many zeros first); std::invalid_argument for sums of
// another length.
void merge(std::vector<ExactSum>& into, const std::vector<ExactSum>& from);

}  // namespace candor
