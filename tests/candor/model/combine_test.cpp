// Rule combination (model/combine.hpp) against hand-computed values, and the contract that every learner's
// probabilities stay strictly inside (0, 1).
#include <gtest/gtest.h>

#include <cmath>

#include "candor/data.hpp"
#include "candor/learn/fit.hpp"
#include "candor/model/combine.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

Rule make(int klass, double probability, std::vector<double> training_counts) {
  Rule r;
  r.klass = klass;
  r.probability = probability;
  r.class_counts = training_counts;
  r.training_counts = std::move(training_counts);
  return r;
}

// Prior [0.6, 0.4] from 100 training examples; rule a: class 0, p 0.9, covers [18, 2]; rule b: class 1, p 0.5,
// covers [5, 5].
std::vector<double> combine(const std::string& name, double m = 2) {
  const Rule a = make(0, 0.9, {18, 2}), b = make(1, 0.5, {5, 5});
  const std::vector<const Rule*> firing{&a, &b};
  const std::vector<double> prior{0.6, 0.4};
  return find_combination(name).combine(CombineInput{firing, prior, 100, m, 2});
}

}  // namespace

TEST(Combine, HandComputedTwoRules) {
  auto counts = combine("counts");  // [23, 7] / 30
  EXPECT_NEAR(counts[0], 23.0 / 30, 1e-12);
  auto mcounts = combine("m-counts", 2);  // ([23, 7] + 2 [0.6, 0.4]) / 32
  EXPECT_NEAR(mcounts[0], 24.2 / 32, 1e-12);
  EXPECT_NEAR(mcounts[1], 7.8 / 32, 1e-12);
  auto psum = combine("probability-sum");  // mean of [0.9, 0.1] and [0.5, 0.5]
  EXPECT_NEAR(psum[0], 0.7, 1e-12);
  auto best = combine("best-rule");  // rule a alone
  EXPECT_NEAR(best[0], 0.9, 1e-12);
  // Lift product: class 0: 0.6 * (0.9 / 0.6) * (0.5 / 0.6) = 0.75; class 1: 0.4 * (0.1 / 0.4) * (0.5 / 0.4) = 0.125.
  auto lift = combine("lift-product");
  EXPECT_NEAR(lift[0], 0.75 / 0.875, 1e-12);
  EXPECT_NEAR(lift[1], 0.125 / 0.875, 1e-12);
  EXPECT_THROW(find_combination("vote"), std::invalid_argument);
}

TEST(Combine, RuleDistributionSharesTheRestBySmoothedCounts) {
  // Prior [0.5, 0.3, 0.2]; a class-0 rule with p 0.8 covering [8, 2, 0]: the rest, 0.2, goes to classes 1
  // and 2 in proportion to (2 + 3 * 0.3) and (0 + 3 * 0.2).
  const Rule r = make(0, 0.8, {8, 2, 0});
  auto p = rule_distribution(r, r.class_counts, {0.5, 0.3, 0.2}, 3);
  EXPECT_NEAR(p[0], 0.8, 1e-12);
  EXPECT_NEAR(p[1], 0.2 * 2.9 / 3.5, 1e-12);
  EXPECT_NEAR(p[2], 0.2 * 0.6 / 3.5, 1e-12);
  EXPECT_GT(p[2], 0.0);  // a class the rule never covered keeps a share
  // Mixing with the prior as one pseudo-example of 101.
  auto mixed = mix_with_prior({1.0, 0.0}, {0.6, 0.4}, 100);
  EXPECT_NEAR(mixed[0], 100.6 / 101, 1e-12);
  EXPECT_NEAR(mixed[1], 0.4 / 101, 1e-12);
  EXPECT_EQ(mix_with_prior({1.0, 0.0}, {1.0, 0.0}, 100)[1], 0.0);  // a class absent from training stays 0
  EXPECT_NEAR(mix_with_prior({1.0, 0.0}, {0.6, 0.4}, 100, 4)[1], 1.6 / 104, 1e-12);
  EXPECT_EQ(mix_with_prior({1.0, 0.0}, {0.6, 0.4}, 100, 0)[1], 0.0);  // weight 0: the raw distribution
  // Share m 0: the raw counts (the papers' predictions).
  auto raw = rule_distribution(r, r.class_counts, {0.5, 0.3, 0.2}, 0);
  EXPECT_NEAR(raw[1], 0.2, 1e-12);
  EXPECT_EQ(raw[2], 0.0);
}

TEST(Combine, EveryLearnerPredictsStrictlyInsideZeroOne) {
  for (const char* data : {"iris.arff", "vote.arff", "glass.arff"}) {
    Dataset d = read_arff(test::shared(data));
    std::vector<LearnerParams> learners;
    for (const auto& c : combination_table()) {
      LearnerParams p;
      p.learner = "cn2-unordered";
      p.heuristics.quality = "precision";  // relative frequencies of 1 are the hard case
      p.rule_covering.stop = Stopping::none;
      p.combine = c.name;
      learners.push_back(p);
    }
    for (const char* learner : {"cn2-ordered", "laplace-covering", "decision-list"}) {
      LearnerParams p;
      p.learner = learner;
      if (std::string(learner) == "cn2-ordered") p.heuristics.quality = "entropy";
      if (std::string(learner) == "laplace-covering") p.rule_search.search = SearchKind::beam;
      learners.push_back(p);
    }
    for (const auto& p : learners) {
      RuleModel m = fit(d, p);
      for (std::size_t r = 0; r < d.rows(); ++r) {
        auto pr = m.predict_proba(d, r);
        double sum = 0;
        for (std::size_t c = 0; c < pr.size(); ++c) {
          if (m.training_counts[c] > 0)
            EXPECT_GT(pr[c], 0.0) << data << " " << describe(p);
          else
            EXPECT_EQ(pr[c], 0.0) << data << ": a class absent from training";
          EXPECT_LT(pr[c], 1.0) << data << " " << describe(p);
          sum += pr[c];
        }
        EXPECT_NEAR(sum, 1.0, 1e-9);
      }
    }
  }
}
