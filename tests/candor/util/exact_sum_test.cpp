#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "candor/util/exact_sum.hpp"

using candor::ExactSum;

namespace {

ExactSum sum_of(const std::vector<double>& terms) {
  ExactSum s;
  for (double x : terms) s.add(x);
  return s;
}

}  // namespace

TEST(ExactSum, AddsEveryTermExactly) {
  // What rounding after each term loses: 1 between two terms of 1e100, ten times 0.1 (0.9999999999999999 in
  // plain summation; the exact sum of the ten doubles rounds to 1).
  EXPECT_EQ(sum_of({1e100, 1.0, -1e100}).value(), 1.0);
  EXPECT_EQ(1e100 + 1.0 - 1e100, 0.0);
  EXPECT_EQ(sum_of(std::vector<double>(10, 0.1)).value(), 1.0);
  EXPECT_EQ(sum_of({-3.0, 1.0}).value(), -2.0);
  EXPECT_EQ(sum_of({-0.5}).value(), -0.5);
  EXPECT_EQ(sum_of({}).value(), 0.0);
  EXPECT_EQ(sum_of({2.0, -2.0}).value(), 0.0);
  EXPECT_EQ(sum_of({5e-324, 5e-324}).value(), 1e-323);  // subnormals
  EXPECT_EQ(sum_of({1.7e308, -1.7e308, 1e-300}).value(), 1e-300);
  EXPECT_THROW(ExactSum().add(std::nan("")), std::invalid_argument);
}

TEST(ExactSum, TheOrderAndThePartsDoNotMatter) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> scale(-40, 40);
  std::vector<double> terms;
  for (int i = 0; i < 20000; ++i) terms.push_back(std::ldexp(unit(rng), scale(rng)));
  const ExactSum whole = sum_of(terms);
  long double reference = 0;  // wider, and not exact: the exact sum lies within its rounding
  for (double x : terms) reference += x;
  EXPECT_NEAR(whole.value(), static_cast<double>(reference), 1e-12 * std::abs(static_cast<double>(reference)));
  for (int shuffle = 0; shuffle < 3; ++shuffle) {
    std::shuffle(terms.begin(), terms.end(), rng);
    EXPECT_EQ(sum_of(terms).value(), whole.value());
    // Three parts of uneven size, merged.
    ExactSum merged;
    const std::size_t cuts[] = {0, 3, 12345, terms.size()};
    for (int p = 0; p < 3; ++p)
      merged.merge(sum_of(std::vector<double>(terms.begin() + static_cast<std::ptrdiff_t>(cuts[p]),
                                              terms.begin() + static_cast<std::ptrdiff_t>(cuts[p + 1]))));
    EXPECT_TRUE(merged == whole);
    EXPECT_EQ(merged.value(), whole.value());
  }
  EXPECT_TRUE(ExactSum::from_digits(whole.digits()) == whole);
  EXPECT_EQ(ExactSum::from_digits(whole.digits()).value(), whole.value());
}

TEST(ExactSum, TravelsAsTheDigitsItSpans) {
  // Zero is no numbers; 1 is digit 33 (2^(32 * 33 - 1074) = 2^-18) of 2^18, -1 the same with the index as -34.
  EXPECT_EQ(ExactSum{}.digits(), std::vector<std::int64_t>{});
  ExactSum one, minus_one;
  one.add(1.0);
  minus_one.add(-1.0);
  EXPECT_EQ(one.digits(), (std::vector<std::int64_t>{33, 1 << 18}));
  EXPECT_EQ(minus_one.digits(), (std::vector<std::int64_t>{-34, 1 << 18}));
  // Sums of either sign and of terms cancelling to zero come back whole, and a sum of terms between 2^-40 and 2^20
  // spans 3 of the 70 digits (32 to 34).
  ExactSum mixed, cancelled;
  for (double x : {std::ldexp(1.0, -40), -3.5, 0.25, -1e6}) mixed.add(x);
  cancelled.add(0.1);
  cancelled.add(-0.1);
  for (const ExactSum& s : {one, minus_one, mixed, cancelled}) {
    const ExactSum back = ExactSum::from_digits(s.digits());
    EXPECT_TRUE(back == s);
    EXPECT_EQ(back.value(), s.value());
  }
  EXPECT_EQ(mixed.digits().size(), 4U);
  EXPECT_EQ(cancelled.digits(), std::vector<std::int64_t>{});
  EXPECT_LT(ExactSum::from_digits(mixed.digits()).value(), 0);
  // A sum read back merges as the sum itself.
  ExactSum merged = ExactSum::from_digits(minus_one.digits());
  merged.merge(ExactSum::from_digits(mixed.digits()));
  ExactSum direct = minus_one;
  direct.merge(mixed);
  EXPECT_TRUE(merged == direct);
  // Refused: an index with no digits, an index past the accumulator, more digits than it holds, a digit out of
  // range (negative, or 2^32 below the top).
  for (const std::vector<std::int64_t>& bad : std::vector<std::vector<std::int64_t>>{
           {5}, {70, 1}, {-71, 1}, {68, 1, 2, 3}, {3, -1}, {3, std::int64_t{1} << 32}})
    EXPECT_THROW(ExactSum::from_digits(bad), std::invalid_argument);
  EXPECT_NO_THROW(ExactSum::from_digits({69, std::int64_t{1} << 33}));
}

TEST(ExactSum, AddsProductsExactly) {
  // 0.1 * 3 rounds to 0.30000000000000004; the exact product of the two doubles is below it, by the error fma
  // gives.
  const double a = 0.1, b = 3;
  ExactSum s;
  s.add_product(a, b);
  s.add(-(a * b));
  EXPECT_EQ(s.value(), std::fma(a, b, -(a * b)));
  EXPECT_NE(s.value(), 0.0);
  // A whole-number weight times a term is the term added that many times, exactly: the patterns of parts of the
  // rows sum to those of the whole.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int i = 0; i < 1000; ++i) {
    const double x = unit(rng);
    const double w = static_cast<double>(1 + i % 13);
    ExactSum product, parts;
    product.add_product(w, x);
    for (int k = 0; k < static_cast<int>(w); ++k) parts.add_product(1.0, x);
    ASSERT_TRUE(product == parts) << w << " x " << x;
  }
  EXPECT_THROW(ExactSum().add_product(1e300, 1e300), std::invalid_argument);  // not finite
}
