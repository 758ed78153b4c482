#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/resampling.hpp"
#include "candor/search/refinements.hpp"
#include "candor/util/random.hpp"

using namespace candor;

TEST(Bitset, SetCountAndIterate) {
  Bitset b(130);
  b.set(0);
  b.set(64);
  b.set(129);
  EXPECT_EQ(b.count(), 3u);
  EXPECT_EQ(b.members(), (std::vector<std::uint32_t>{0, 64, 129}));
  Bitset all(130, true);
  EXPECT_EQ(all.count(), 130u);  // no stray bits past the end
  Bitset c = all;
  c.subtract(b);
  EXPECT_EQ(c.count(), 127u);
  EXPECT_EQ(count_and(all, b), 3u);
  EXPECT_FALSE(c.test(64));
}

namespace {

// A random data set with nominal and numeric attributes, missing values, repeated numeric values and
// (optionally) non-unit weights.
Dataset random_dataset(std::size_t rows, bool weighted, unsigned seed) {
  std::mt19937 rng(seed);
  Dataset d;
  d.source = "random";
  d.schema.attributes = {{"n1", AttributeType::nominal, {"a", "b", "c"}},
                         {"x", AttributeType::numeric, {}},
                         {"n2", AttributeType::nominal, {"u", "v"}},
                         {"z", AttributeType::numeric, {}}};
  d.schema.class_attribute = {"cls", AttributeType::nominal, {"p", "q", "r"}};
  d.columns.resize(4);
  for (std::size_t r = 0; r < rows; ++r) {
    d.columns[0].codes.push_back(rng() % 10 == 0 ? kMissing : static_cast<int>(rng() % 3));
    d.columns[1].values.push_back(rng() % 8 == 0 ? NAN : static_cast<double>(rng() % 17) / 4.0);
    d.columns[2].codes.push_back(rng() % 7 == 0 ? kMissing : static_cast<int>(rng() % 2));
    d.columns[3].values.push_back(static_cast<double>(rng() % 1000) / 10.0);
    d.y.push_back(static_cast<int>(rng() % 3));
    d.weights.push_back(weighted ? 0.25 * static_cast<double>(1 + rng() % 8) : 1.0);
    d.lines.push_back(r + 1);
  }
  return d;
}

std::vector<double> brute_counts(const Dataset& d, const Bitset& within, const Condition& c, std::size_t& rows) {
  std::vector<double> out(d.num_classes(), 0.0);
  rows = 0;
  within.for_each([&](std::size_t r) {
    if (!c.covers(d, r)) return;
    out[d.y[r]] += d.weights[r];
    ++rows;
  });
  return out;
}

}  // namespace

// Every condition the refinement sweep reports must have exactly the counts a direct scan finds, every
// numeric threshold must lie strictly between two adjacent covered values, and every boundary where the
// labels change must be offered.
class RefinementTest : public ::testing::TestWithParam<std::tuple<bool, std::size_t, int>> {};

TEST_P(RefinementTest, CountsMatchBruteForce) {
  // Plain variables, not a structured binding: clang 14 (the sanitized build) cannot capture a binding in
  // the lambdas below.
  const bool weighted = std::get<0>(GetParam());
  const std::size_t rows = std::get<1>(GetParam());
  const int target = std::get<2>(GetParam());
  Dataset d = random_dataset(rows, weighted, 7u + static_cast<unsigned>(rows));
  CoverageIndex index(d);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 4; ++trial) {
    Bitset covered(d.rows());
    for (std::size_t r = 0; r < d.rows(); ++r)
      if (trial == 0 || rng() % 3 != 0) covered.set(r);
    auto members = covered.members();
    RuleCoverage rule{&covered, &members};
    RefinementScratch scratch;
    RefinementKinds kinds;
    kinds.not_equal = true;
    for (int a = 0; a < 4; ++a) {
      std::size_t seen = 0;
      std::vector<double> thresholds;
      evaluate_attribute(index, rule, a, kinds, target, scratch,
                         [&](const Condition& c, const double* counts, std::size_t n) {
                           std::size_t expected_rows;
                           auto expected = brute_counts(d, covered, c, expected_rows);
                           ASSERT_EQ(n, expected_rows) << describe(c, d.schema);
                           for (std::size_t k = 0; k < d.num_classes(); ++k)
                             ASSERT_NEAR(counts[k], expected[k], 1e-9) << describe(c, d.schema);
                           if (c.op == Op::le) thresholds.push_back(c.threshold);
                           ++seen;
                         });
      EXPECT_GT(seen, 0u);
      if (d.attribute(a).is_nominal()) continue;
      // Reference boundaries: distinct covered values in order; cut between neighbours unless both value
      // groups carry one and the same label.
      std::map<double, std::set<int>> labels;
      covered.for_each([&](std::size_t r) {
        double x = d.columns[a].values[r];
        if (!std::isnan(x)) labels[x].insert(target < 0 ? d.y[r] : static_cast<int>(d.y[r] == target));
      });
      std::vector<double> expected;
      for (auto it = labels.begin(); std::next(it) != labels.end(); ++it) {
        auto nx = std::next(it);
        bool same = it->second.size() == 1 && nx->second.size() == 1 && *it->second.begin() == *nx->second.begin();
        if (!same) expected.push_back((it->first + nx->first) / 2);
      }
      ASSERT_EQ(thresholds.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_DOUBLE_EQ(thresholds[i], expected[i]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(WeightsSizesTargets, RefinementTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(std::size_t{40}, std::size_t{3000}),
                                            ::testing::Values(-1, 1)));

TEST(CoverageIndex, ConditionCoverageAndMissingValues) {
  Dataset d = random_dataset(500, true, 11);
  CoverageIndex index(d);
  Bitset all(d.rows(), true);
  for (Condition c : {Condition{0, Op::eq, 1, 0}, Condition{0, Op::ne, 1, 0}, Condition{1, Op::le, 0, 2.0},
                      Condition{1, Op::gt, 0, 2.0}}) {
    Bitset cov = index.covered(c, all);
    std::size_t rows;
    auto expected = brute_counts(d, all, c, rows);
    EXPECT_EQ(cov.count(), rows);
    auto counts = index.class_counts(cov);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(counts[k], expected[k], 1e-9);
    // A missing value satisfies neither a condition nor its complement.
    Condition opposite = c;
    opposite.op = c.op == Op::eq ? Op::ne : c.op == Op::ne ? Op::eq : c.op == Op::le ? Op::gt : Op::le;
    Bitset other = index.covered(opposite, all);
    std::size_t missing = 0;
    for (std::size_t r = 0; r < d.rows(); ++r) missing += d.is_missing(c.attribute, r);
    EXPECT_EQ(cov.count() + other.count() + missing, d.rows());
  }
}

TEST(CoverageIndex, NumericCoverageSparseAndDenseAgree) {
  // covered() visits members when few rows are inside and sweeps every row when most are: both must give
  // the brute-force answer, missing values excluded.
  Dataset d = random_dataset(3000, false, 5);
  CoverageIndex index(d);
  for (std::size_t step : {std::size_t{1}, std::size_t{2}, std::size_t{37}}) {
    Bitset within(d.rows());
    for (std::size_t r = 0; r < d.rows(); r += step) within.set(r);
    for (Op op : {Op::le, Op::gt})
      for (double t : {-1e9, 0.5, 2.0, 1e9}) {
        const Condition c{1, op, 0, t};
        std::size_t rows;
        brute_counts(d, within, c, rows);
        const Bitset cov = index.covered(c, within);
        EXPECT_EQ(cov.count(), rows) << "step " << step << " threshold " << t;
        EXPECT_EQ(count_and(cov, within), cov.count());
      }
  }
}

TEST(CoverageIndex, RelabelledCopyEqualsAFreshIndex) {
  Dataset d = random_dataset(700, true, 3);
  const CoverageIndex base(d, 2);
  Dataset relabelled = d;
  for (std::size_t r = 0; r < d.rows(); ++r)
    if (relabelled.y[r] != kMissing) relabelled.y[r] = (relabelled.y[r] + 1) % 3;
  const CoverageIndex fresh(relabelled), reused(base, relabelled.y, relabelled.weights);
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    const int ai = static_cast<int>(a);
    EXPECT_EQ(reused.sorted_rows(ai), fresh.sorted_rows(ai));
    EXPECT_EQ(reused.sorted_classes(ai), fresh.sorted_classes(ai));
    EXPECT_EQ(reused.sorted_codes(ai), fresh.sorted_codes(ai));
    EXPECT_EQ(reused.code_max(ai), fresh.code_max(ai));
  }
  for (int c = 0; c < 3; ++c) EXPECT_TRUE(reused.class_rows(c) == fresh.class_rows(c));
  EXPECT_NE(reused.sorted_classes(1), base.sorted_classes(1));
}

// The index of some rows of a binned index, their bins copied, is the index built on those rows with its binning:
// nominal and numeric attributes with missing values, rows repeated and out of order, a bin that no chosen row
// holds; and the same rule coverage and counts.
TEST(CoverageIndex, RowsOfABinnedIndexEqualAnIndexBuiltOnThem) {
  const Dataset d = random_dataset(900, true, 5);
  const NumericBinning binning = numeric_binning(d, 8);
  const CoverageIndex base(d, 2, binning);
  const std::vector<std::size_t> rows{5, 3, 3, 800, 17, 0, 899, 450, 451, 452, 100, 7};
  const Dataset sample = d.subset(rows);
  const CoverageIndex built(sample, 1, binning), copied(sample, base, rows);
  EXPECT_EQ(copied.numeric_bins(), built.numeric_bins());
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    SCOPED_TRACE("attribute " + std::to_string(a));
    const int ai = static_cast<int>(a);
    EXPECT_EQ(copied.bin_of(ai), built.bin_of(ai));
    EXPECT_TRUE(copied.present_rows(ai) == built.present_rows(ai));
    EXPECT_EQ(copied.code_min(ai), built.code_min(ai));
    EXPECT_EQ(copied.code_max(ai), built.code_max(ai));
    EXPECT_EQ(copied.binned(ai), built.binned(ai));
    if (d.attribute(a).is_nominal()) {
      for (std::size_t v = 0; v < d.attribute(a).values.size(); ++v) {
        EXPECT_TRUE(copied.value_rows(ai, static_cast<int>(v)) == built.value_rows(ai, static_cast<int>(v)));
      }
    }
  }
  for (int c = 0; c < 3; ++c) EXPECT_TRUE(copied.class_rows(c) == built.class_rows(c));
  const Bitset all(sample.rows(), true);
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    if (d.attribute(a).is_nominal()) continue;
    Condition c;
    c.attribute = static_cast<int>(a);
    c.op = Op::le;
    c.threshold = binning.upper[a].at(2);
    EXPECT_TRUE(copied.covered(c, all) == built.covered(c, all));
  }
  const CoverageIndex exact(d);
  EXPECT_THROW(CoverageIndex(sample, exact, rows), std::invalid_argument);  // not binned
  EXPECT_THROW(CoverageIndex(sample, base, std::vector<std::size_t>{1, 2}), std::invalid_argument);
}

TEST(CoverageIndex, ValueCodesGiveBackEveryValueAndShareOnlyEqualOnes) {
  Dataset d = random_dataset(500, true, 3);
  // Ties, infinities and both zeros on the first numeric attribute.
  std::size_t a = 0;
  while (d.attribute(a).is_nominal()) ++a;
  auto& x = d.columns[a].values;
  for (std::size_t r = 0; r < x.size(); r += 7) x[r] = 2.5;
  x[1] = -0.0;
  x[2] = 0.0;
  x[3] = std::numeric_limits<double>::infinity();
  x[4] = -std::numeric_limits<double>::infinity();
  const CoverageIndex index(d);
  for (std::size_t b = 0; b < d.num_attributes(); ++b) {
    if (d.attribute(b).is_nominal()) continue;
    const int bi = static_cast<int>(b);
    const auto& rows = index.sorted_rows(bi);
    const auto& codes = index.sorted_codes(bi);
    const auto& distinct = index.code_max(bi);
    ASSERT_EQ(codes.size(), rows.size());
    ASSERT_FALSE(codes.empty());
    EXPECT_EQ(codes.front(), 0u);
    EXPECT_EQ(codes.back() + 1, distinct.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(distinct[codes[i]], d.columns[b].values[rows[i]]);
      if (i > 0) {
        const double prev = d.columns[b].values[rows[i - 1]], cur = d.columns[b].values[rows[i]];
        EXPECT_EQ(codes[i], codes[i - 1] + (cur != prev ? 1u : 0u));
      }
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
      EXPECT_EQ(index.sorted_classes(bi)[i], static_cast<ClassCode>(d.y[rows[i]]));
  }
  const int ai = static_cast<int>(a);
  const auto& codes = index.sorted_codes(ai);
  auto code_of = [&](std::size_t row) { return codes[index.rank(ai)[row]]; };
  EXPECT_EQ(static_cast<std::size_t>(std::count(codes.begin(), codes.end(), code_of(0))),
            static_cast<std::size_t>(std::count(x.begin(), x.end(), 2.5)));
  EXPECT_EQ(code_of(1), code_of(2));  // -0 == 0
  EXPECT_EQ(code_of(4), 0u);
  EXPECT_EQ(code_of(3) + 1, index.code_max(ai).size());
}

// A binned attribute has at most `bins` bins, each a run of whole values (equal values share one) holding
// about as many rows as the others, between its code_min and code_max; it keeps no value order. An
// attribute of no more distinct values than bins has a bin per value.
TEST(CoverageIndex, QuantileBinsHoldWholeValues) {
  const Dataset d = random_dataset(2000, false, 5);  // z: up to 1,000 values of about two rows each; x: 17
  const CoverageIndex exact(d), binned(d, 1, 16), wide(d, 1, 17);
  EXPECT_EQ(binned.numeric_bins(), 16u);
  for (int a : {1, 3}) {
    SCOPED_TRACE("attribute " + std::to_string(a));
    ASSERT_TRUE(binned.binned(a));
    EXPECT_TRUE(binned.sorted_rows(a).empty());
    const auto& bin = binned.bin_of(a);
    const auto& lo = binned.code_min(a);
    const auto& hi = binned.code_max(a);
    const auto& x = d.columns[static_cast<std::size_t>(a)].values;
    ASSERT_LE(hi.size(), 16u);
    ASSERT_EQ(lo.size(), hi.size());
    std::vector<std::size_t> per_bin(hi.size(), 0);
    std::size_t present = 0;
    for (std::size_t r = 0; r < d.rows(); ++r) {
      if (std::isnan(x[r])) {
        EXPECT_EQ(bin[r], CoverageIndex::kNoBin);
        continue;
      }
      ++present;
      ASSERT_LT(bin[r], hi.size());
      ++per_bin[bin[r]];
      EXPECT_LE(lo[bin[r]], x[r]);
      EXPECT_GE(hi[bin[r]], x[r]);
    }
    EXPECT_EQ(present, exact.sorted_rows(a).size());
    for (std::size_t b = 0; b < hi.size(); ++b) {
      EXPECT_GT(per_bin[b], 0u) << "bin " << b;
      EXPECT_LE(lo[b], hi[b]);
      if (b > 0) {
        EXPECT_LT(hi[b - 1], lo[b]);
      }
    }
    // Quantile bins: none holds more than a sixteenth of the rows and the largest run of one value.
    if (a == 3) {
      EXPECT_EQ(hi.size(), 16u);
      for (std::size_t b = 0; b < per_bin.size(); ++b) EXPECT_LE(per_bin[b], present / 16 + 10) << "bin " << b;
    }
  }
  // A bin per value where the values are no more than the bins.
  ASSERT_TRUE(wide.binned(1));
  EXPECT_EQ(wide.code_max(1), exact.code_max(1));
  EXPECT_EQ(wide.code_min(1), exact.code_max(1));
  for (std::size_t r = 0; r < d.rows(); ++r)
    if (exact.rank(1)[r] != UINT32_MAX) {
      EXPECT_EQ(wide.bin_of(1)[r], exact.sorted_codes(1)[exact.rank(1)[r]]);
    }
  EXPECT_FALSE(exact.binned(1));
}

// The bins of data held in parts are the bins of the same rows held whole: the bounds from the whole's spread
// sample, the ranges of each part merged. Below kBinSampleRows the sample is every row, and the index cuts
// exactly as the quantile bins of every row (QuantileBinsHoldWholeValues).
// bin_of is a binary search written without branches: the first bound at or above a value, the last bin for
// a value above every bound, on bounds of every length from 1 to 300 and values on, between and beyond them.
TEST(NumericBinning, BinOfIsTheFirstBoundAtOrAboveTheValue) {
  for (std::size_t len = 1; len <= 300; ++len) {
    NumericBinning b;
    b.bins = 255;
    b.upper.assign(1, {});
    for (std::size_t i = 0; i < len; ++i) b.upper[0].push_back(static_cast<double>(2 * i));
    for (double v = -2.0; v <= static_cast<double>(2 * len + 1); v += 0.5) {
      const auto& u = b.upper[0];
      const auto at = static_cast<std::size_t>(std::lower_bound(u.begin(), u.end(), v) - u.begin());
      ASSERT_EQ(b.bin_of(0, v), std::min(at, len - 1)) << "bounds " << len << ", value " << v;
    }
  }
  NumericBinning none;
  none.upper.assign(1, {});
  EXPECT_EQ(none.bin_of(0, 3.0), 0u);
}

TEST(NumericBinning, PartsMergeToTheWhole) {
  const Dataset d = random_dataset(3000, false, 11);
  const NumericBinning whole = numeric_binning(d, 16);
  NumericBinning merged = binning_bounds(d, 16);
  std::vector<std::size_t> first(1000), second(2000);
  std::iota(first.begin(), first.end(), std::size_t{0});
  std::iota(second.begin(), second.end(), std::size_t{1000});
  NumericBinning other = merged;
  add_bin_ranges(merged, d.subset(first));
  add_bin_ranges(other, d.subset(second));
  EXPECT_NE(merged, whole);
  merge_bin_ranges(merged, other);
  EXPECT_EQ(merged, whole);
  EXPECT_EQ(whole.upper[3].size(), 16u);                   // z: 1,000 values in 16 bins
  EXPECT_EQ(numeric_binning(d, 17).upper[1].size(), 17u);  // x: 17 values, a bin each
  EXPECT_TRUE(whole.upper[0].empty());                     // nominal
  // Each bin's range lies within its bounds.
  for (std::size_t b = 0; b < whole.upper[3].size(); ++b) {
    EXPECT_LE(whole.high[3][b], whole.upper[3][b]);
    if (b > 0) {
      EXPECT_GT(whole.low[3][b], whole.upper[3][b - 1]);
    }
  }
  EXPECT_THROW(merge_bin_ranges(merged, binning_bounds(d.subset(first), 4)), std::invalid_argument);
}

// Past kBinSampleRows the bounds are those of the spread sample, and every row still lies in its bin's range.
TEST(NumericBinning, LargeDataTakesItsBoundsFromASpreadSample) {
  const std::size_t n = kBinSampleRows * 2 + 77;
  const Dataset d = random_dataset(n, false, 5);
  const NumericBinning b = numeric_binning(d, 16);
  const NumericBinning sample = binning_bounds(d.subset(spread_rows(n, kBinSampleRows)), 16);
  EXPECT_EQ(b.upper, sample.upper);
  const CoverageIndex index(d, 1, 16);
  for (std::size_t r = 0; r < n; r += 97) {
    const double x = d.columns[3].values[r];
    const auto bin = index.bin_of(3)[r];
    EXPECT_LE(index.code_min(3)[bin], x);
    EXPECT_GE(index.code_max(3)[bin], x);
  }
}

TEST(Sampling, SampledRowsAreFloydsDrawsWhateverHoldsThem) {
  // sample_rows marks its draws in a bit a row, or in a set where the rows are many and the draws few: both must
  // be Floyd's algorithm on the same random numbers, the sample a fit across parts draws from the count alone.
  auto floyd = [](std::size_t n, std::size_t count, Rng& rng) {
    std::set<std::size_t> chosen;
    for (std::size_t j = n - count; j < n; ++j)
      if (!chosen.insert(static_cast<std::size_t>(uniform_below(rng, j + 1))).second) chosen.insert(j);
    return std::vector<std::size_t>(chosen.begin(), chosen.end());
  };
  const std::size_t huge = (std::size_t{1} << 28) + 3;  // over 2^27 rows and 320 x the draws: the set
  for (const auto& [n, count] : std::vector<std::pair<std::size_t, std::size_t>>{
           {100, 99}, {1000, 50}, {100000, 10000}, {64, 63}, {huge, 1000}}) {
    Rng a(n + count), b(n + count);
    EXPECT_EQ(sample_rows(n, count, a), floyd(n, count, b)) << n << " " << count;
    EXPECT_EQ(a(), b()) << "the same random numbers used";
  }
}

TEST(Sampling, SpreadRowsAndSampledRows) {
  EXPECT_EQ(spread_rows(10, 3), (std::vector<std::size_t>{0, 3, 6}));
  EXPECT_EQ(spread_rows(4, 10), (std::vector<std::size_t>{0, 1, 2, 3}));
  const auto huge = spread_rows(std::size_t{1} << 62, 3);  // i * n overflows 64 bits
  EXPECT_EQ(huge[2], (std::size_t{1} << 62) / 3 * 2);
  Rng a(4), b(4);
  EXPECT_EQ(sample_rows(1000, 50, a), sample_rows(1000, 50, b));
  EXPECT_EQ(sample_rows(5, 9, a).size(), 5u);
  // Distinct, ascending, and each row about equally likely: 3 of 10 rows, 3,000 times.
  std::vector<int> seen(10, 0);
  Rng rng(9);
  for (int t = 0; t < 3000; ++t) {
    const auto rows = sample_rows(10, 3, rng);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_TRUE(rows[0] < rows[1] && rows[1] < rows[2]);
    for (std::size_t r : rows) ++seen[r];
  }
  for (int count : seen) {
    EXPECT_GT(count, 900 - 90);  // 900 expected; sd about 25
    EXPECT_LT(count, 900 + 90);
  }
}

// A rule's text: a numeric attribute's two sides written once, where the first of them stands; other
// conditions as they are, in order.
TEST(ConditionText, AnIntervalOnOneAttributeIsWrittenOnce) {
  Schema s;
  for (const char* name : {"sepallength", "petallength", "petalwidth"}) {
    Attribute a;
    a.name = name;
    a.type = AttributeType::numeric;
    s.attributes.push_back(a);
  }
  Attribute colour;
  colour.name = "colour";
  colour.type = AttributeType::nominal;
  colour.values = {"red", "blue"};
  s.attributes.push_back(colour);
  const std::vector<Condition> rule{
      {1, Op::gt, 0, 2.45}, {2, Op::le, 0, 1.75}, {3, Op::eq, 1, 0.0}, {1, Op::le, 0, 4.95}};
  EXPECT_EQ(describe_conditions(rule, s), "2.45 < petallength <= 4.95 AND petalwidth <= 1.75 AND colour = blue");
  // The upper side first: still lo < A <= hi, where the upper side stood.
  EXPECT_EQ(describe_conditions({{3, Op::ne, 0, 0.0}, {0, Op::le, 0, 6.5}, {0, Op::gt, 0, 5.0}}, s),
            "colour != red AND 5 < sepallength <= 6.5");
  // One side alone is written as it is; no conditions is TRUE.
  EXPECT_EQ(describe_conditions({{0, Op::gt, 0, 0.22999999999999998}}, s), "sepallength > 0.22999999999999998");
  EXPECT_EQ(describe_conditions({}, s), "TRUE");
}

// Worked by hand: the fewest significant digits in the interval, nearest its middle where several fit.
TEST(Condition, ShortestDecimalInAnInterval) {
  auto text = [](double a, double b) {
    const auto x = shortest_decimal_in(a, b);
    return x ? format_number(*x) : std::string("none");
  };
  EXPECT_EQ(text(2.175, 2.725), "2.5");  // iris: the gap (1.9, 3.0), midpoint 2.45
  EXPECT_EQ(text(270, 377), "300");
  EXPECT_EQ(text(-0.2, 0.3), "0");  // never "-0"
  EXPECT_EQ(text(-0.3, 0.2), "0");
  EXPECT_EQ(text(-2.725, -2.175), "-2.5");
  EXPECT_EQ(text(0.3, 0.45), "0.4");  // 0.4 is the double nearest 0.4, written as such
  EXPECT_EQ(text(0.1, 0.1), "0.1");
  EXPECT_EQ(text(19.25, 19.75), "19.5");  // midpoint 19.5: the one-digit 19 and 20 are outside
  EXPECT_EQ(text(5.01, 8.99), "7");       // 6, 7 and 8 fit; 7 is nearest the middle
  EXPECT_EQ(text(1234.5671, 1234.5679), "1234.5675");
  EXPECT_EQ(text(1e21, 3e21), "2e+21");
  EXPECT_EQ(text(2, 1), "none");
  EXPECT_EQ(text(std::nan(""), 1), "none");
  EXPECT_EQ(text(1e300, 1e300), "none");  // past the exact powers of ten
  EXPECT_EQ(text(1e-30, 2e-30), "none");
  EXPECT_EQ(text(0.1, std::nextafter(0.1, 1.0)), "0.1");
  EXPECT_EQ(text(1e15 + 0.25, 1e15 + 0.5), "none");  // needs 17 digits
}
