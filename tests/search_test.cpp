#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/readers.hpp"
#include "candor/search/beam_search.hpp"
#include "test_util.hpp"

using namespace candor;

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
        ASSERT_TRUE(found[0] && found[1]);
        EXPECT_EQ(found[0]->conditions, found[1]->conditions);
        EXPECT_EQ(found[0]->counts, found[1]->counts);
        EXPECT_EQ(found[0]->quality, found[1]->quality);
        EXPECT_EQ(maxima[0], maxima[1]);
        EXPECT_EQ(sets[0], sets[1]);
      }
}

// A measure that hides Laplace's batch scoring, so the search evaluates its candidates one by one.
struct LaplaceOneByOne final : QualityMeasure {
  std::unique_ptr<QualityMeasure> laplace = make_quality("laplace");
  double evaluate(const RuleStats& r) const override { return laplace->evaluate(r); }
};

// Numeric sweeps scored in one batch per attribute and candidate by candidate must find the same rules and
// record the same level maxima (segment and waveform: numeric; credit-a: mixed with missing values).
TEST(BeamSearch, BatchScoredSweepsFindWhatOneByOneFinds) {
  const LaplaceOneByOne one_by_one;
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
          found.push_back(find_best_rule(index, active, target, way == 0 ? *one_by_one.laplace : static_cast<const QualityMeasure&>(one_by_one), o));
        }
        SCOPED_TRACE(std::string(name) + " width " + std::to_string(width) + " target " + std::to_string(target));
        ASSERT_TRUE(found[0] && found[1]);
        EXPECT_EQ(found[0]->conditions, found[1]->conditions);
        EXPECT_EQ(found[0]->counts, found[1]->counts);
        EXPECT_EQ(found[0]->quality, found[1]->quality);
        EXPECT_EQ(maxima[0], maxima[1]);
      }
  }
}
