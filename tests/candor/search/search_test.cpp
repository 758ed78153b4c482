#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/readers.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/search/beam_search.hpp"
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
          std::vector<std::vector<double>> maxima(2);
          std::vector<std::optional<FoundRule>> found;
          for (int way = 0; way < 2; ++way) {
            SearchOptions o;
            o.beam_width = width;
            o.max_rule_length = 4;
            o.min_covered = 3;
            o.level_maxima = &maxima[way];
            found.push_back(
                find_best_rule(index, active, target,
                               way == 0 ? *one_by_one.inner : static_cast<const QualityMeasure&>(one_by_one), o));
          }
          SCOPED_TRACE(std::string(measure) + " " + name + " width " + std::to_string(width) + " target " +
                       std::to_string(target));
          expect_same_rule(found[0], found[1]);
          EXPECT_EQ(maxima[0], maxima[1]);
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
  const CoverageIndex permuted(index, shuffled);
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
