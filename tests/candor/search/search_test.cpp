#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/search/refinements.hpp"
#include "test_util.hpp"

using namespace candor;

// The same rule: conditions, class counts and quality.
void expect_same_rule(const std::optional<FoundRule>& a, const std::optional<FoundRule>& b) {
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->conditions, b->conditions);
  EXPECT_EQ(a->counts, b->counts);
  EXPECT_EQ(a->quality, b->quality);
}

// Wide levels fold the tasks' candidate lists into bounded heaps per chunk of tasks, the chunks depending
// on the thread count; narrow levels, and levels on many threads, keep every task's list. Both must give
// the same search: at width 64 on segment (19 numeric attributes), one thread folds (8 chunks) and seven
// threads keep the lists (56 chunks would not save memory).
TEST(BeamSearch, WideBeamsFoldedOrNotFindTheSameRule) {
  const Dataset d = load_dataset(test::shared("segment.arff"));
  const CoverageIndex index(d);
  const Bitset all(d.rows(), true);
  auto laplace = make_quality("laplace");
  for (int width : {64, 150})
    for (bool prune : {false, true})
      for (int target : {0, 3, -1}) {
        std::vector<std::vector<double>> maxima;
        std::vector<std::set<std::vector<int>>> sets;
        std::vector<std::optional<FoundRule>> found;
        for (int threads : {1, 7}) {
          SearchOptions o;
          o.beam_width = width;
          o.max_rule_length = 4;
          o.prune = prune;
          o.threads = threads;
          maxima.emplace_back();
          sets.emplace_back();
          o.level_maxima = &maxima.back();
          o.attribute_sets = &sets.back();
          found.push_back(find_best_rule(index, all, target, *laplace, o));
        }
        SCOPED_TRACE("width " + std::to_string(width) + " prune " + std::to_string(prune) + " target " +
                     std::to_string(target));
        expect_same_rule(found[0], found[1]);
        EXPECT_EQ(maxima[0], maxima[1]);
        EXPECT_EQ(sets[0], sets[1]);
      }
}

// A measure that hides another's batch scoring, batch bounds and refinement bound, so the search evaluates
// its candidates one by one from full class counts.
struct OneByOne final : QualityMeasure {
  explicit OneByOne(const char* name) : inner(make_quality(name)) {}
  std::unique_ptr<QualityMeasure> inner;
  double evaluate(const RuleStats& r) const override { return inner->evaluate(r); }
  bool may_reach(const RuleStats& r, double bar) const override { return inner->may_reach(r, bar); }
};

// A search with the measure as it is and with its batches hidden (OneByOne), under options `o`: the same rule
// and the same level maxima.
void expect_one_by_one_finds_the_same(const CoverageIndex& index, const Bitset& active, int target,
                                      const OneByOne& one_by_one, SearchOptions o) {
  std::vector<std::vector<double>> maxima(2);
  std::vector<std::optional<FoundRule>> found;
  for (int way = 0; way < 2; ++way) {
    o.level_maxima = &maxima[way];
    found.push_back(find_best_rule(index, active, target,
                                   way == 0 ? *one_by_one.inner : static_cast<const QualityMeasure&>(one_by_one), o));
  }
  expect_same_rule(found[0], found[1]);
  EXPECT_EQ(maxima[0], maxima[1]);
}

// Numeric sweeps scored in one batch per attribute (laplace), or bounded in one batch and then evaluated
// (lrs, as EVC's calibration runs it), must find the same rules and record the same level maxima as
// candidates evaluated one by one from full class counts (segment and waveform: numeric; credit-a: mixed
// with missing values).
TEST(BeamSearch, BatchScoredSweepsFindWhatOneByOneFinds) {
  for (const char* measure : {"laplace", "lrs"}) {
    const OneByOne one_by_one(measure);
    for (const char* name : {"segment.arff", "waveform-5000.arff", "credit-a.arff"}) {
      const Dataset d = load_dataset(test::shared(name));
      const CoverageIndex index(d);
      Bitset active(d.rows(), true);
      for (std::size_t r = 0; r < d.rows(); r += 3) active.reset(r);  // a search after some covering
      for (int width : {1, 5})
        for (int target : {0, 1}) {
          SCOPED_TRACE(std::string(measure) + " " + name + " width " + std::to_string(width) + " target " +
                       std::to_string(target));
          SearchOptions o;
          o.beam_width = width;
          o.max_rule_length = 4;
          o.min_covered = 3;
          expect_one_by_one_finds_the_same(index, active, target, one_by_one, o);
        }
    }
  }
}

// Under weights other than one per row (gradient rules' residuals, fractions that differ row by row), a binned
// numeric attribute's cuts are scored a sweep at a time from the class weights the search would evaluate them
// by one by one: the same rules, the same qualities to the bit and the same level maxima (segment: seven
// classes; credit-a: two, nominal attributes and missing values; diabetes: two, every attribute numeric), for
// a measure scored in batches (wracc, which ranks gradient rules) and one bounded in batches (lrs).
TEST(BeamSearch, WeightedBinnedSweepsFindWhatOneByOneFinds) {
  for (const char* measure : {"wracc", "lrs"}) {
    const OneByOne one_by_one(measure);
    for (const char* name : {"segment.arff", "credit-a.arff", "diabetes.arff"}) {
      const Dataset d = load_dataset(test::shared(name));
      const CoverageIndex binned(d, 1, 255);
      std::vector<double> residual(d.rows());
      for (std::size_t r = 0; r < d.rows(); ++r)
        residual[r] = 0.05 + 0.9 * std::fmod(0.6180339887 * static_cast<double>(r + 1), 1.0);
      const CoverageIndex weighted(binned, d.y, residual);
      ASSERT_FALSE(weighted.unit_weights());
      const Bitset all(d.rows(), true);
      Bitset some(d.rows(), true);
      for (std::size_t r = 0; r < d.rows(); r += 4) some.reset(r);
      for (const Bitset* active : std::initializer_list<const Bitset*>{&all, &some})
        for (int width : {1, 5})
          for (int target : {0, 1}) {
            SCOPED_TRACE(std::string(measure) + " " + name + " width " + std::to_string(width) + " target " +
                         std::to_string(target) + (active == &all ? " every row" : " some rows"));
            SearchOptions o;
            o.beam_width = width;
            o.max_rule_length = 4;
            o.shortest_thresholds = false;
            expect_one_by_one_finds_the_same(weighted, *active, target, one_by_one, o);
          }
    }
  }
}

// A search over an index of some rows alone, cut by the whole data's binning, is the search of the whole
// index over those rows: what a sampled gradient round and a distributed fit search.
TEST(BeamSearch, ASampleIndexSearchesAsTheWholeIndexOverItsRows) {
  auto laplace = make_quality("laplace");
  Dataset d = load_dataset(test::shared("waveform-5000.arff"));
  for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = 0.5 + static_cast<double>(r % 3);
  const NumericBinning binning = numeric_binning(d, 32);
  const CoverageIndex whole(d, 1, binning);
  std::vector<std::size_t> rows;
  Bitset active(d.rows());
  for (std::size_t r = 0; r < d.rows(); r += 1 + r % 3) {
    rows.push_back(r);
    active.set(r);
  }
  const Dataset sample = d.subset(rows);
  const CoverageIndex part(sample, 1, binning);
  for (int target : {0, 2, -1}) {
    SCOPED_TRACE("target " + std::to_string(target));
    SearchOptions o;
    o.max_rule_length = 3;
    o.shortest_thresholds = false;
    const auto found = find_best_rule(part, Bitset(sample.rows(), true), target, *laplace, o);
    const auto reference = find_best_rule(whole, active, target, *laplace, o);
    ASSERT_TRUE(found && reference);
    EXPECT_EQ(found->counts, reference->counts);
    EXPECT_EQ(found->quality, reference->quality);
    EXPECT_EQ(found->target, reference->target);
    ASSERT_EQ(found->conditions.size(), reference->conditions.size());
    for (std::size_t i = 0; i < found->conditions.size(); ++i) {
      EXPECT_EQ(found->conditions[i].attribute, reference->conditions[i].attribute);
      EXPECT_EQ(found->conditions[i].op, reference->conditions[i].op);
      EXPECT_EQ(found->conditions[i].threshold, reference->conditions[i].threshold);
    }
  }
}

// A search with numeric bins is the exact search of the data whose values are replaced by their bin's
// largest: the same rows covered, class counts and quality (counted by bin, where the exact search sweeps
// rows in value order; the weights are sums exact in binary), with
// thresholds midway between a bin's largest value and a later bin's smallest (credit-a: missing values;
// waveform: weighted rows). With 255 bins and a search of a few hundred rows, most rules cover fewer rows than
// there are bins: their bins are listed from the rows, and the counts of one rule must not linger into the next.
TEST(BeamSearch, BinnedSearchIsTheExactSearchOfBinnedValues) {
  auto laplace = make_quality("laplace");
  for (const char* name : {"segment.arff", "credit-a.arff", "waveform-5000.arff"}) {
    Dataset d = load_dataset(test::shared(name));
    if (std::string(name) == "waveform-5000.arff")
      for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = 0.5 + static_cast<double>(r % 3);
    for (std::size_t bins : {4u, 32u, 255u}) {
      const CoverageIndex binned(d, 1, bins);
      Dataset by_bin = d;
      std::size_t binned_attributes = 0;
      for (std::size_t a = 0; a < d.num_attributes(); ++a) {
        if (d.attribute(a).is_nominal()) continue;
        const int ai = static_cast<int>(a);
        if (!binned.binned(ai)) continue;
        ++binned_attributes;
        for (std::size_t r = 0; r < d.rows(); ++r)
          if (binned.bin_of(ai)[r] != CoverageIndex::kNoBin)
            by_bin.columns[a].values[r] = binned.code_max(ai)[binned.bin_of(ai)[r]];
      }
      ASSERT_GT(binned_attributes, 0u);
      const CoverageIndex exact(by_bin);
      const Bitset all(d.rows(), true);
      Bitset some(d.rows());
      for (std::size_t r = 0; r < d.rows(); r += d.rows() / 300) some.set(r);
      for (int target : {0, 1, -1})
        for (const Bitset* active : std::initializer_list<const Bitset*>{&all, &some}) {
          SCOPED_TRACE(std::string(name) + " bins " + std::to_string(bins) + " target " + std::to_string(target) +
                       " rows " + std::to_string(active->count()));
          SearchOptions o;
          o.max_rule_length = 3;
          o.shortest_thresholds = false;
          const auto found = find_best_rule(binned, *active, target, *laplace, o);
          const auto reference = find_best_rule(exact, *active, target, *laplace, o);
          ASSERT_TRUE(found && reference);
          EXPECT_EQ(found->counts, reference->counts);
          EXPECT_EQ(found->quality, reference->quality);
          EXPECT_TRUE(found->covered == reference->covered);
          // Over every row only where every row was searched: between two bins of the searched rows lie other
          // rows' bins, which the two thresholds part differently.
          if (active == &all) {
            EXPECT_TRUE(binned.covered(found->conditions) == exact.covered(reference->conditions));
          }
          ASSERT_EQ(found->conditions.size(), reference->conditions.size());
          for (const Condition& c : found->conditions) {
            if (c.op != Op::le && c.op != Op::gt) continue;
            const auto& lo = binned.code_min(c.attribute);
            const auto& hi = binned.code_max(c.attribute);
            // Midway between the rule's nearest bins on either side (bins it covers no row of lie between).
            bool between_bins = false;
            for (std::size_t b = 0; b < hi.size(); ++b)
              for (std::size_t next = b + 1; next < hi.size(); ++next)
                between_bins = between_bins || c.threshold == hi[b] + (lo[next] - hi[b]) / 2;
            EXPECT_TRUE(between_bins) << c.threshold;
          }
        }
    }
  }
}

// Searches that share a memo (covering: each on the rows the last one left) find what fresh searches find,
// also when the memo's rows are not a superset (another class's sequence) or its index is another (the
// same rows, labels permuted: the old lists would carry the old labels).
TEST(BeamSearch, MemoOfThePreviousSearchNeverChangesTheRule) {
  const Dataset d = load_dataset(test::shared("segment.arff"));
  const CoverageIndex index(d);
  Dataset shuffled = d;
  std::mt19937 rng(3);
  std::shuffle(shuffled.y.begin(), shuffled.y.end(), rng);
  const CoverageIndex permuted(index, shuffled.y, shuffled.weights);
  auto laplace = make_quality("laplace");
  SearchMemo memo;
  SearchOptions with, without;
  with.beam_width = without.beam_width = 4;
  with.memo = &memo;
  std::size_t searches = 0;
  for (const CoverageIndex* idx : {&index, &permuted})
    for (int target : {2, 5}) {
      Bitset active(d.rows(), true);
      for (int step = 0; step < 6; ++step) {
        const auto a = find_best_rule(*idx, active, target, *laplace, with);
        const auto b = find_best_rule(*idx, active, target, *laplace, without);
        ASSERT_EQ(a.has_value(), b.has_value());
        if (!a) break;
        ++searches;
        expect_same_rule(a, b);
        active.subtract(a->covered & idx->class_rows(target));
      }
    }
  EXPECT_GE(searches, 20u);
  // Fewer rows on the permuted index right after a search on the original one, and back.
  Bitset fewer(d.rows(), true);
  for (const CoverageIndex* idx : {&index, &permuted, &index}) {
    for (std::size_t r = 0; r < 10; ++r) fewer.reset(r * 7 + (idx == &permuted));
    const auto a = find_best_rule(*idx, fewer, 1, *laplace, with);
    expect_same_rule(a, find_best_rule(*idx, fewer, 1, *laplace, without));
  }
}

// The returned rule's thresholds move to short decimals inside their gaps without changing a single training
// row's coverage: the same counts and quality as the search's midpoints, the same rows covered by the rule
// and, within it, by each condition; each threshold lies in the middle half of its gap among the rows the
// other conditions cover (found here by brute force over the rows), and is written in no more digits.
TEST(BeamSearch, ThresholdsAreShortDecimalsSelectingTheSameRows) {
  int moved = 0;
  for (const char* name : {"iris.arff", "credit-a.arff", "segment.arff", "diabetes.arff"}) {
    const Dataset d = load_dataset(test::shared(name));
    const CoverageIndex index(d);
    const Bitset all(d.rows(), true);
    auto mest = make_quality("m-estimate", {22.466, nullptr});
    for (int target = 0; target < static_cast<int>(d.num_classes()); ++target) {
      SearchOptions o;
      const auto shortened = find_best_rule(index, all, target, *mest, o);
      o.shortest_thresholds = false;
      const auto midpoints = find_best_rule(index, all, target, *mest, o);
      SCOPED_TRACE(std::string(name) + " target " + std::to_string(target));
      ASSERT_TRUE(shortened && midpoints);
      EXPECT_EQ(shortened->counts, midpoints->counts);
      EXPECT_EQ(shortened->quality, midpoints->quality);
      ASSERT_EQ(shortened->conditions.size(), midpoints->conditions.size());
      auto covered_by = [&](const std::vector<Condition>& conds, std::size_t skip) {
        Bitset b = all;
        for (std::size_t j = 0; j < conds.size(); ++j)
          if (j != skip) b = index.covered(conds[j], b);
        return b;
      };
      EXPECT_EQ(covered_by(shortened->conditions, SIZE_MAX), covered_by(midpoints->conditions, SIZE_MAX));
      for (std::size_t i = 0; i < shortened->conditions.size(); ++i) {
        const Condition& c = shortened->conditions[i];
        const Condition& m = midpoints->conditions[i];
        EXPECT_EQ(c.attribute, m.attribute);
        EXPECT_EQ(c.op, m.op);
        if (c.op != Op::le && c.op != Op::gt) continue;
        const Bitset others = covered_by(shortened->conditions, i);
        EXPECT_EQ(index.covered(c, others), index.covered(m, others));
        double lo = -INFINITY, hi = INFINITY;
        for (std::size_t r = 0; r < d.rows(); ++r) {
          const double x = d.columns[c.attribute].values[r];
          if (!others.test(r) || std::isnan(x)) continue;
          if (x <= m.threshold) lo = std::max(lo, x);
          if (x > m.threshold) hi = std::min(hi, x);
        }
        if (std::isfinite(lo) && std::isfinite(hi)) {
          EXPECT_GE(c.threshold, lo + (hi - lo) / 4);
          EXPECT_LE(c.threshold, hi - (hi - lo) / 4);
        }
        EXPECT_LE(format_number(c.threshold).size(), format_number(m.threshold).size());
        moved += c.threshold != m.threshold;
      }
    }
  }
  EXPECT_GT(moved, 5);
  // iris: petal length's gap between setosa (at most 1.9) and the rest (at least 3.0) is cut at 2.5.
  const Dataset iris = load_dataset(test::shared("iris.arff"));
  const CoverageIndex index(iris);
  auto laplace = make_quality("laplace");
  const auto setosa = find_best_rule(index, Bitset(iris.rows(), true), 0, *laplace, SearchOptions{});
  ASSERT_TRUE(setosa);
  EXPECT_EQ(describe_conditions(setosa->conditions, iris.schema), "petallength <= 2.5");
}

// The cuts of a run of positions, found from the groups that straddle it, are those of the whole list that
// lie in the run, with the same positives before each: lists of few values (long groups, pure or mixed) and
// of distinct values, cut into runs of every length from 1 to the whole.
TEST(BeamSearch, CutsOfARunAreTheWholeListsCutsInIt) {
  std::mt19937 rng(7);
  std::size_t compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t m = 2 + rng() % 300;
    const unsigned values = 1 + rng() % (trial % 3 == 0 ? 4 : trial % 3 == 1 ? 40 : 1000);
    std::vector<std::uint32_t> vals(m);
    for (auto& v : vals) v = static_cast<std::uint32_t>(rng() % values);
    std::sort(vals.begin(), vals.end());
    std::vector<ClassCode> cls(m);
    // Labels in blocks, so that some groups are pure.
    for (std::size_t j = 0; j < m; ++j) cls[j] = static_cast<ClassCode>(j % 17 < 9 ? rng() % 2 : rng() % 3);
    const ClassCode target = 1;
    // The whole list's cuts, by find_cuts (as target_cuts runs it).
    RefinementScratch sc;
    std::vector<std::uint32_t> prefix(m);
    std::uint32_t positives = cls[0] == target;
    prefix[0] = positives;
    const std::size_t count = detail::find_cuts(
        vals.data(), m, [&](std::size_t j) { return cls[j] == target; },
        [&](std::size_t j, bool positive) { prefix[j] = positives += positive; }, sc);
    std::vector<std::uint32_t> whole(sc.cuts.begin(), sc.cuts.begin() + static_cast<long>(count));
    const std::size_t run = 1 + rng() % m;
    std::vector<std::uint32_t> found, below_found;
    for (std::size_t from = 1; from < m; from += run) {
      const std::size_t to = std::min(m, from + run);
      std::vector<std::uint32_t> position(to - from), below(to - from);
      const std::size_t k = target_cuts_between(vals.data(), cls.data(), m, target, from, to, prefix[from - 1],
                                                position.data(), below.data());
      for (std::size_t i = 0; i < k; ++i) {
        EXPECT_GE(position[i], from);
        EXPECT_LT(position[i], to);
        found.push_back(position[i]);
        below_found.push_back(below[i]);
      }
    }
    ASSERT_EQ(found, whole) << "trial " << trial << " run " << run;
    for (std::size_t i = 0; i < found.size(); ++i) EXPECT_EQ(below_found[i], prefix[found[i] - 1]);
    compared += found.size();
  }
  EXPECT_GT(compared, 5000u);
}

// On permuted labels (what EVC's calibration searches) sweeps by bounds pass over most runs of rows, and
// sweeps by scores (m-estimate, precision) over many once their bars rise; the rules and level maxima must
// be those of candidates evaluated one by one. Lists of 1,024 rows and more go by
// runs: waveform-5000 with its labels permuted, and 60 tables of 1,100 to 3,000 rows whose labels follow
// their attributes weakly or not at all, with few or many distinct values.
TEST(BeamSearch, SweepsByRunsFindWhatOneByOneFinds) {
  std::vector<Dataset> sets;
  Dataset waveform = load_dataset(test::shared("waveform-5000.arff"));
  std::mt19937 rng(21);
  std::shuffle(waveform.y.begin(), waveform.y.end(), rng);
  sets.push_back(waveform);
  for (int t = 0; t < 60; ++t) {
    const int rows = 1100 + static_cast<int>(rng() % 1900);
    const double signal = (t % 3) * 0.15;
    std::string csv = "few,many,class\n";
    for (int r = 0; r < rows; ++r) {
      const int few = static_cast<int>(rng() % 9);
      const double many = static_cast<double>(rng() % 100000) / 1000.0;
      const double lean = signal * ((few > 5) - (many < 30.0));
      const bool a = std::uniform_real_distribution<double>(0, 1)(rng) < 0.35 + lean;
      csv += std::to_string(few) + "," + std::to_string(many) + "," + (a ? "a" : "b") + "\n";
    }
    sets.push_back(parse_csv(csv, "generated.csv"));
  }
  for (const char* measure : {"lrs", "m-estimate", "precision"}) {
    const OneByOne one_by_one(measure);
    for (const Dataset& d : sets) {
      const CoverageIndex index(d);
      const Bitset all(d.rows(), true);
      for (int target : {0, 1}) {
        std::vector<std::vector<double>> maxima(2);
        std::vector<std::optional<FoundRule>> found;
        for (int way = 0; way < 2; ++way) {
          SearchOptions o;
          o.beam_width = d.rows() > 4000 ? 5 : 1 + static_cast<int>(d.rows() % 4);
          o.max_rule_length = d.rows() > 4000 ? 5 : 3;
          o.level_maxima = &maxima[way];
          found.push_back(find_best_rule(
              index, all, target, way == 0 ? *one_by_one.inner : static_cast<const QualityMeasure&>(one_by_one), o));
        }
        SCOPED_TRACE(std::string(measure) + ", " + std::to_string(d.rows()) + " rows, target " +
                     std::to_string(target));
        expect_same_rule(found[0], found[1]);
        EXPECT_EQ(maxima[0], maxima[1]);
      }
    }
  }
}

namespace {

// A beam search on nominal data written out plainly: every refinement A = v of every beam rule, ranked by
// quality then the search's tie-breaks (more rows, shorter, earlier parent, attribute, value); the next beam
// is the first `width` distinct ones, skipping those safe pruning rules out. The reference for the search's
// lists, heaps and retries.
std::optional<FoundRule> plain_beam_search(const CoverageIndex& index, const Bitset& active, int target,
                                           const QualityMeasure& q, int width, int max_length, bool prune) {
  struct Candidate {
    std::size_t parent;
    int length;
    Condition condition;
    std::vector<double> counts;
    Bitset covered;
    double quality, bound;
    std::size_t rows;
  };
  struct Rule {
    std::vector<Condition> conditions;
    Bitset covered;
  };
  const std::vector<double> totals = index.class_counts(active);
  const double n_total = std::accumulate(totals.begin(), totals.end(), 0.0);
  const Dataset& d = index.data();
  std::vector<Rule> beam{{{}, active}};
  std::optional<Candidate> best;
  std::vector<Condition> best_conditions;
  auto key = [](const std::vector<Condition>& conditions) {
    std::set<std::pair<int, int>> k;
    for (const auto& c : conditions) k.emplace(c.attribute, c.value);
    return k;
  };
  for (int length = 1; length <= max_length && !beam.empty(); ++length) {
    std::vector<Candidate> level;
    for (std::size_t p = 0; p < beam.size(); ++p)
      for (int a = 0; a < static_cast<int>(d.num_attributes()); ++a) {
        const auto& used = beam[p].conditions;
        if (std::any_of(used.begin(), used.end(), [&](const Condition& c) { return c.attribute == a; })) continue;
        for (int v = 0; v < static_cast<int>(d.attribute(a).values.size()); ++v) {
          const Condition c{a, Op::eq, v, 0.0};
          Bitset covered = index.covered(c, beam[p].covered);
          const std::size_t rows = covered.count();
          const std::vector<double> counts = index.class_counts(covered);
          if (rows == 0 || rows >= beam[p].covered.count() || counts[target] <= 0) continue;
          const RuleStats stats{counts, totals, target, length, static_cast<double>(rows), n_total};
          level.push_back(
              {p, length, c, counts, std::move(covered), q.evaluate(stats), q.refinement_bound(stats), rows});
        }
      }
    auto better = [&](const Candidate& x, const Candidate& y) {
      if (x.quality != y.quality) return x.quality > y.quality;
      if (x.rows != y.rows) return x.rows > y.rows;
      if (x.length != y.length) return x.length < y.length;
      if (x.parent != y.parent) return x.parent < y.parent;
      return std::tie(x.condition.attribute, x.condition.value) < std::tie(y.condition.attribute, y.condition.value);
    };
    std::sort(level.begin(), level.end(), better);
    if (!level.empty() && (!best || better(level.front(), *best))) {
      best = level.front();
      best_conditions = beam[best->parent].conditions;
      best_conditions.push_back(best->condition);
    }
    if (length == max_length) break;
    std::vector<Rule> next;
    std::set<std::set<std::pair<int, int>>> seen;
    for (const auto& c : level) {
      if (next.size() == static_cast<std::size_t>(width)) break;
      if (prune && c.bound <= best->quality) continue;
      std::vector<Condition> conditions = beam[c.parent].conditions;
      conditions.push_back(c.condition);
      if (!seen.insert(key(conditions)).second) continue;
      next.push_back({std::move(conditions), c.covered});
    }
    beam = std::move(next);
  }
  if (!best) return std::nullopt;
  return FoundRule{best_conditions, target, best->counts, best->covered, best->quality, best->quality};
}

}  // namespace

// On nominal data the search finds the rule the plain reference finds, pruned or not, for beams from 1 to
// 64 wide. Pruning and duplicates skip candidates when the next beam is chosen, so a beam may need more of
// one (rule, attribute) task's refinements than the beam is wide: the search must then evaluate the level
// again keeping more, not take what its shorter lists hold (breast-cancer and soybean found other rules).
TEST(BeamSearch, NominalSearchFindsWhatAPlainBeamSearchFinds) {
  auto laplace = make_quality("laplace");
  for (const char* name : {"breast-cancer.arff", "vote.arff", "soybean.arff"}) {
    const Dataset d = load_dataset(test::shared(name));
    const CoverageIndex index(d);
    const Bitset all(d.rows(), true);
    for (int target = 0; target < static_cast<int>(d.num_classes()); ++target) {
      if (index.class_counts(all)[target] == 0) continue;
      for (int width : {1, 2, 4, 8, 16, 64})
        for (bool prune : {false, true}) {
          SearchOptions o;
          o.beam_width = width;
          o.max_rule_length = 6;
          o.prune = prune;
          const auto found = find_best_rule(index, all, target, *laplace, o);
          const auto plain = plain_beam_search(index, all, target, *laplace, width, o.max_rule_length, prune);
          SCOPED_TRACE(std::string(name) + " class " + std::to_string(target) + " width " + std::to_string(width) +
                       " prune " + std::to_string(prune));
          expect_same_rule(found, plain);
        }
    }
  }
}

// A search over rows held elsewhere (SearchOptions::count_rules) reads each level's rules' tables and no row: on
// an index of no rows with the same bins, it finds the rule, counts and quality the search of the rows' own index
// finds, on every measure's path (batch-scored sweeps, significance tests, pruning, a separate selection measure),
// over a subset of the rows (covering's rows left) and under whole-number weights.
TEST(BeamSearch, RowsCountedElsewhereFindWhatTheRowsIndexFinds) {
  auto laplace = make_quality("laplace");
  auto precision = make_quality("precision");
  for (const char* name : {"credit-a.arff", "glass.arff"}) {
    for (bool weighted : {false, true}) {
      Dataset d = load_dataset(test::shared(name));
      if (weighted)
        for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = static_cast<double>(1 + r % 4);
      const NumericBinning binning = numeric_binning(d, 16);
      const CoverageIndex index(d, 1, binning);
      Dataset layout;
      layout.schema = d.schema;
      layout.columns.resize(d.num_attributes());
      const CoverageIndex no_rows(layout, 1, binning);
      Bitset active(d.rows(), true);
      for (std::size_t r = 0; r < d.rows(); r += 3) active.reset(r);
      int counted = 0;
      for (int target : {0, 1})
        for (int variant = 0; variant < 4; ++variant) {
          SCOPED_TRACE(std::string(name) + (weighted ? " weighted" : "") + " target " + std::to_string(target) +
                       " variant " + std::to_string(variant));
          SearchOptions o;
          o.max_rule_length = 4;
          o.shortest_thresholds = false;
          o.kinds.not_equal = variant == 1;
          if (variant == 2) {
            o.alpha = 0.05;
            o.parent_alpha = 0.5;
          }
          if (variant == 3) {
            o.prune = true;
            o.select_quality = precision.get();
          }
          const auto local = find_best_rule(index, active, target, *laplace, o);
          o.count_rules = [&](const std::vector<std::vector<Condition>>& rules) {
            ++counted;
            return rule_histograms(index, active, rules);
          };
          const auto elsewhere = find_best_rule(no_rows, Bitset(), target, *laplace, o);
          ASSERT_TRUE(local && elsewhere);
          EXPECT_EQ(local->conditions, elsewhere->conditions);
          EXPECT_EQ(local->counts, elsewhere->counts);
          EXPECT_EQ(local->quality, elsewhere->quality);
          EXPECT_EQ(local->selection, elsewhere->selection);
        }
      EXPECT_GE(counted, 8 * 2);
    }
  }
}

// A rule's table counts the rows of each condition on its attribute as the index does.
TEST(BeamSearch, ARulesTableCountsEachConditionsRows) {
  Dataset d = load_dataset(test::shared("credit-a.arff"));
  for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = 0.5 + static_cast<double>(r % 3);
  const CoverageIndex index(d, 1, std::size_t{8});
  Bitset rule(d.rows(), true);
  for (std::size_t r = 0; r < d.rows(); r += 2) rule.reset(r);
  const RuleHistogram table = rule_histogram(index, rule);
  EXPECT_EQ(table.rows, rule.count());
  EXPECT_EQ(table.counts, index.class_counts(rule));
  EXPECT_FALSE(table.unit_weights);
  std::size_t checked = 0;
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    const int ai = static_cast<int>(a);
    std::vector<Condition> conditions;
    if (d.attribute(a).is_nominal()) {
      for (int v = 0; v < static_cast<int>(d.attribute(a).values.size()); ++v) {
        conditions.push_back(Condition{ai, Op::eq, v, 0.0});
        conditions.push_back(Condition{ai, Op::ne, v, 0.0});
      }
    } else {
      const auto& hi = index.code_max(ai);
      const auto& lo = index.code_min(ai);
      for (std::size_t b = 0; b + 1 < hi.size(); ++b) {
        const double t = hi[b] + (lo[b + 1] - hi[b]) / 2;
        conditions.push_back(Condition{ai, Op::le, 0, t});
        conditions.push_back(Condition{ai, Op::gt, 0, t});
      }
    }
    for (const Condition& c : conditions) {
      std::vector<double> counts;
      const std::size_t rows = condition_counts(index, table, c, counts);
      const Bitset covered = index.covered(c, rule);
      EXPECT_EQ(rows, covered.count()) << a;
      const std::vector<double> expected = index.class_counts(covered);
      ASSERT_EQ(counts.size(), expected.size());
      for (std::size_t k = 0; k < counts.size(); ++k) EXPECT_NEAR(counts[k], expected[k], 1e-9) << a;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50u);
  // Tables of two halves of the rows merge into the table of both.
  Bitset first = rule, second = rule;
  for (std::size_t r = 0; r < d.rows(); ++r) (r < d.rows() / 2 ? second : first).reset(r);
  RuleHistogram merged = rule_histogram(index, first);
  merged.merge(rule_histogram(index, second));
  EXPECT_EQ(merged.rows, table.rows);
  EXPECT_EQ(merged.cell_rows, table.cell_rows);
  for (std::size_t a = 0; a < d.num_attributes(); ++a)
    for (std::size_t i = 0; i < table.cell_weights[a].size(); ++i)
      EXPECT_NEAR(merged.cell_weights[a][i], table.cell_weights[a][i], 1e-9);
}
