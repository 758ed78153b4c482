// A fit over rows held in parts (candor/distributed.hpp), with the parts in this process behind a transport that
// carries the requests' bytes as a Dask one does: the model must be the fit in one process. Its rule sums are
// exact (util/exact_sum.hpp), so on rows of unit weight it is that fit byte for byte; on weighted rows the
// weights of each part's row patterns are its own sums, and the logistic weights agree within 1e-9.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/distributed.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/fit.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learner.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// Parts of `data` cut at `cuts` (ascending row numbers), each with its scores and the shared value, answering
// through the bytes of PartRows as workers would. Each part is made from its bytes (PartRows::to_bytes), as a
// worker makes the part Dask moved to it.
struct InProcessParts {
  std::vector<std::unique_ptr<PartRows>> parts;
  std::vector<std::vector<double>> scores;
  std::vector<char> started;
  std::string shared;
  std::vector<std::size_t> rows;
  std::size_t asked = 0, shares = 0;
  bool ended = false;  // end_scores was called: the weights' requests were answered without scores

  InProcessParts(const Dataset& data, const std::vector<std::size_t>& cuts) {
    std::size_t from = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
      const std::size_t to = k < cuts.size() ? cuts[k] : data.rows();
      std::vector<std::size_t> ids;
      for (std::size_t r = from; r < to; ++r) ids.push_back(r);
      parts.push_back(PartRows::from_bytes(PartRows(data.subset(ids)).to_bytes()));
      rows.push_back(ids.size());
      from = to;
    }
    scores.resize(parts.size());
    started.assign(parts.size(), 0);
  }

  std::optional<std::span<const double>> scores_of(std::size_t k) const {
    if (!started[k]) return std::nullopt;
    return scores[k];
  }

  PartTransport transport() {
    PartTransport t;
    t.ask = [this](const std::vector<std::string>& requests) {
      ++asked;
      std::vector<std::string> replies;
      for (std::size_t k = 0; k < parts.size(); ++k)
        replies.push_back(parts[k]->answer(requests[k], shared, scores_of(k)));
      return replies;
    };
    t.update = [this](const std::vector<std::string>& requests) {
      for (std::size_t k = 0; k < parts.size(); ++k) {
        scores[k].resize(parts[k]->score_size());
        parts[k]->update(requests[k], shared, scores[k]);
        started[k] = 1;
      }
    };
    t.share = [this](const std::string& value) {
      ++shares;
      shared = value;
    };
    t.end_scores = [this] {
      for (auto& s : scores) s = {};
      started.assign(parts.size(), 0);
      ended = true;
    };
    return t;
  }
};

// Same rules (conditions, classes, counts), probabilities and weights within `tolerance`.
void expect_same_logistic_model(const Model& local, const Model& parts, double tolerance) {
  const auto& a = dynamic_cast<const LogisticRuleModel&>(local);
  const auto& b = dynamic_cast<const LogisticRuleModel&>(parts);
  ASSERT_EQ(a.rules.rules.size(), b.rules.rules.size());
  for (std::size_t k = 0; k < a.rules.rules.size(); ++k) {
    const Rule& x = a.rules.rules[k];
    const Rule& y = b.rules.rules[k];
    EXPECT_EQ(describe_conditions(x.conditions, a.schema), describe_conditions(y.conditions, b.schema)) << "rule " << k;
    EXPECT_EQ(x.conditions, y.conditions) << "rule " << k;
    EXPECT_EQ(x.klass, y.klass);
    EXPECT_EQ(x.training_counts, y.training_counts);
    EXPECT_NEAR(x.probability, y.probability, tolerance);
  }
  EXPECT_EQ(a.training_counts, b.training_counts);
  EXPECT_EQ(a.training_rows, b.training_rows);
  ASSERT_EQ(a.intercepts.size(), b.intercepts.size());
  for (Eigen::Index j = 0; j < a.intercepts.size(); ++j) EXPECT_NEAR(a.intercepts[j], b.intercepts[j], tolerance);
  ASSERT_EQ(a.rule_weights.rows(), b.rule_weights.rows());
  ASSERT_EQ(a.rule_weights.cols(), b.rule_weights.cols());
  EXPECT_LE((a.rule_weights - b.rule_weights).cwiseAbs().maxCoeff(), tolerance);
}

}  // namespace

TEST(FitOnParts, TheDefaultEqualsTheFitInOneProcess) {
  // credit-a: nominal and numeric attributes with missing values, two classes; parts of uneven size, one of a
  // single row.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const Learner learner;  // the default: rule-logistic over gradient rules
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {100, 101, 400, 520});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  expect_same_logistic_model(*local, *fit.model, 1e-9);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  ASSERT_GT(local->rule_count(), 5u);
  EXPECT_EQ(parts.shares, 2u);  // the binning, then the rules the weights are fitted over
  EXPECT_TRUE(parts.ended);
  // Every ask, and the updates (the start, one a round) and the binning shared.
  EXPECT_GT(parts.asked, 50u);
  EXPECT_GT(fit.requests, parts.asked + 2);
  EXPECT_GT(fit.bytes, 0u);
}

TEST(FitOnParts, SampledRoundsOfThreeClassesEqualTheFitInOneProcess) {
  // waveform-5000's 5,000 numeric rows, three classes, rounds searching samples of 1,000 rows drawn from every
  // part.
  const Dataset d = read_arff(test::shared("waveform-5000.arff"));
  Learner learner;
  learner.set("gradient_rounds", 12).set("gradient_sample", 1000);
  const auto local = fit_model(d, learner, 2);
  InProcessParts parts(d, {1700, 3300});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 2);
  expect_same_logistic_model(*local, *fit.model, 1e-9);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  ASSERT_GT(local->rule_count(), 10u);
}

TEST(FitOnParts, CalibrationOnASampleOfLargeDataEqualsTheFitInOneProcess) {
  // Over kCalibrationRows rows EVC calibrates on a spread sample cut by the bins of every row: in one process by
  // the bins the search cuts by too, across parts by the bins the parts sent. waveform-5000 eleven times over.
  const Dataset waveform = read_arff(test::shared("waveform-5000.arff"));
  std::vector<std::size_t> rows;
  for (int copy = 0; copy < 11; ++copy)
    for (std::size_t r = 0; r < waveform.rows(); ++r) rows.push_back(r);
  const Dataset d = waveform.subset(rows);
  ASSERT_GT(d.rows(), kCalibrationRows);
  Learner learner;
  learner.set("gradient_rounds", 3).set("evc_permutations", 4);
  const auto local = fit_model(d, learner, 2);
  InProcessParts parts(d, {20000, 35000});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 2);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  ASSERT_GT(local->rule_count(), 2u);
}

TEST(FitOnParts, PruningByEvcEqualsTheFitInOneProcess) {
  // --gradient-prune stop asks the parts for the sums of every prefix of the round's rules.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  Learner learner;
  learner.set("gradient_prune", "stop");
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {300, 390});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  ASSERT_GT(local->rule_count(), 2u);
  EXPECT_NE(local->to_json().dump(), fit_model(d, Learner{}, 1)->to_json().dump());
}

TEST(FitOnParts, WeightedRowsGiveTheSameRulesAndWeightsWithinTolerance) {
  Dataset d = read_arff(test::shared("credit-a.arff"));
  for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = 0.25 + 0.1 * static_cast<double>(r % 17);
  const Learner learner;
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {230, 460});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  expect_same_logistic_model(*local, *fit.model, 1e-9);
  ASSERT_GT(local->rule_count(), 5u);
}

TEST(FitOnParts, GradientRulesEqualTheFitInOneProcess) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  Learner learner("gradient-rules");
  learner.set("gradient_rounds", 15);
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {345});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  const auto& a = dynamic_cast<const RuleModel&>(*local);
  const auto& b = dynamic_cast<const RuleModel&>(*fit.model);
  ASSERT_EQ(a.rules.size(), b.rules.size());
  ASSERT_GT(a.rules.size(), 5u);
  for (std::size_t k = 0; k < a.rules.size(); ++k) {
    EXPECT_EQ(a.rules[k].conditions, b.rules[k].conditions);
    EXPECT_EQ(a.rules[k].training_counts, b.rules[k].training_counts);
    EXPECT_NEAR(a.rules[k].probability, b.rules[k].probability, 1e-12);
  }
}

TEST(FitOnParts, Cn2UnorderedEqualsTheFitInOneProcess) {
  // Each search counts its beam's rules on the parts, over the rows covering left there: the rules, their counts
  // and probabilities (EVC's, calibrated on the same sample) are the fit in one process', byte for byte.
  // credit-a: nominal and numeric attributes with missing values; glass: six classes of numeric attributes.
  struct Case {
    const char* data;
    std::vector<std::size_t> cuts;
    Learner learner;
  };
  const std::vector<Case> cases{
      {"credit-a.arff", {100, 101, 400, 520}, Learner("cn2-unordered")},
      {"glass.arff", {70, 150}, Learner("cn2-unordered")},
      // The paper's Laplace measure with its significance tests, rules of one class, a narrow beam.
      {"credit-a.arff",
       {345},
       Learner("cn2-unordered")
           .set("quality", "laplace")
           .set("alpha", 0.05)
           .set("parent_alpha", 0.5)
           .set("target", "+")
           .set("beam_width", 3)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.data);
    Dataset d = read_arff(test::shared(c.data));
    const auto local = fit_model(d, c.learner, 1);
    InProcessParts parts(d, c.cuts);
    const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), c.learner, 1);
    EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
    ASSERT_GT(local->rule_count(), 3u);
    EXPECT_GT(parts.asked, 2 * local->rule_count());  // a request a level of every search
  }
}

TEST(FitOnParts, Cn2UnorderedOnWholeNumberWeightsEqualsTheFitInOneProcess) {
  // Sums of whole numbers do not depend on their order: weighted tables merge into the whole's.
  Dataset d = read_arff(test::shared("credit-a.arff"));
  for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = static_cast<double>(1 + r % 3);
  const Learner learner("cn2-unordered");
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {230, 460});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  // The weights count: the same rows of unit weight learn other rules.
  EXPECT_NE(local->to_json().dump(), fit_model(read_arff(test::shared("credit-a.arff")), learner, 1)->to_json().dump());
}

TEST(FitOnParts, Cn2UnorderedOnFractionalWeightsFindsTheRulesUpToTiesInTheLastBits) {
  // A cell's weights are summed within each part, then added part by part: in another order than one pass over
  // the rows, so the last bits of the counts differ, and with them the order of candidates whose qualities differ
  // only in those bits. Every rule is counted right over every row; most are the rules of the fit in one process
  // (28 of 31), and the first to differ ends the agreement of its class's later rules (covering then goes on from
  // other rows).
  Dataset d = read_arff(test::shared("credit-a.arff"));
  for (std::size_t r = 0; r < d.rows(); ++r) d.weights[r] = 0.25 + 0.1 * static_cast<double>(r % 17);
  const Learner learner("cn2-unordered");
  const auto local = fit_model(d, learner, 1);
  InProcessParts parts(d, {230, 460});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  const auto& a = dynamic_cast<const RuleModel&>(*local);
  const auto& b = dynamic_cast<const RuleModel&>(*fit.model);
  ASSERT_GT(a.rules.size(), 10u);
  const CoverageIndex index(d);
  auto in_order = [](std::vector<Condition> conditions) {
    std::sort(conditions.begin(), conditions.end(), [](const Condition& x, const Condition& y) {
      return std::tie(x.attribute, x.op, x.value, x.threshold) < std::tie(y.attribute, y.op, y.value, y.threshold);
    });
    return conditions;
  };
  std::size_t same = 0;
  for (std::size_t k = 0; k < b.rules.size(); ++k) {
    const std::vector<double> counts = index.class_counts(index.covered(b.rules[k].conditions));
    for (std::size_t c = 0; c < counts.size(); ++c) EXPECT_NEAR(b.rules[k].training_counts[c], counts[c], 1e-9);
    if (k < a.rules.size() && in_order(a.rules[k].conditions) == in_order(b.rules[k].conditions)) {
      ++same;
      EXPECT_NEAR(a.rules[k].probability, b.rules[k].probability, 1e-9);
    }
  }
  EXPECT_GE(same * 10, a.rules.size() * 8) << same << " of " << a.rules.size();
  EXPECT_LE(b.rules.size(), a.rules.size() + 3);
  EXPECT_GE(b.rules.size() + 3, a.rules.size());
}

TEST(FitOnParts, RefusesWhatNeedsEveryRowInOneProcess) {
  EXPECT_EQ(refuses_parts(Learner()), "");
  EXPECT_EQ(refuses_parts(Learner("gradient-rules")), "");
  EXPECT_EQ(refuses_parts(Learner("cn2-unordered")), "");
  EXPECT_NE(refuses_parts(Learner("cn2-ordered")).find("needs every row in one process"), std::string::npos);
  EXPECT_NE(refuses_parts(Learner("cn2-unordered").set("covering", "probabilistic")).find("--covering probabilistic"),
            std::string::npos);
  EXPECT_NE(refuses_parts(Learner("cn2-unordered").set("numeric_bins", 0)).find("--numeric-bins 0"), std::string::npos);
  EXPECT_NE(refuses_parts(Learner("cn2-unordered").set("stable_resamples", 5)).find("--stable-resamples"),
            std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("features", "rules+attributes")).find("--features rules+attributes"),
            std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("stable_resamples", 10)).find("--stable-resamples"), std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("lambda_search", "refit")).find("--lambda-search"), std::string::npos);
  EXPECT_EQ(refuses_parts(Learner().set("lambda_search", "refit").set("lambda", 0.1)), "");
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  InProcessParts parts(d, {345});
  EXPECT_THROW(fit_model_on_parts(d, parts.rows, parts.transport(), Learner("cn2-ordered")), std::invalid_argument);
  EXPECT_THROW(
      fit_model_on_parts(d, parts.rows, parts.transport(), Learner("cn2-unordered").set("covering", "probabilistic")),
      std::invalid_argument);
  // Exact cuts need every distinct value of every row.
  EXPECT_THROW(fit_model_on_parts(d, parts.rows, parts.transport(), Learner().set("numeric_bins", 0)),
               std::invalid_argument);
}

// The sums the weights are fitted from (the rows' weights by class under each rule, and the loss with its
// gradient) of parts merge into those of all the rows bit for bit, however the rows are cut.
TEST(FitOnParts, TheWeightsSumsOfPartsMergeIntoThoseOfTheWhole) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const auto model = fit_model(d, Learner(), 1);
  const auto& rules = dynamic_cast<const LogisticRuleModel&>(*model).rules.rules;
  ASSERT_GT(rules.size(), 5u);
  std::vector<Rule> plain;  // the conditions alone, as a part is sent them
  for (const Rule& r : rules) {
    Rule p;
    p.conditions = r.conditions;
    plain.push_back(p);
  }
  RuleLossQuery q;
  q.logits = 1;
  q.intercepts = {0.25};
  for (std::size_t k = 0; k < rules.size(); ++k) {
    q.rule_logit.push_back(0);
    q.rule_sign.push_back(rules[k].klass == 1 ? 1.0 : -1.0);
    q.rules.push_back(0.1 * static_cast<double>(k % 7) - 0.2);
  }
  RowPart whole(d);
  whole.patterns_with(plain);
  const PatternWeights all = whole.pattern_weights();
  const RuleLossSums loss = whole.rule_loss(q);
  ASSERT_GT(loss.loss.value(), 0);
  std::optional<PatternWeights> merged;
  std::optional<RuleLossSums> merged_loss;
  const std::vector<std::size_t> cuts{0, 50, 51, 300, 610, d.rows()};
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    std::vector<std::size_t> ids;
    for (std::size_t r = cuts[k]; r < cuts[k + 1]; ++r) ids.push_back(r);
    RowPart part(d.subset(ids));
    part.patterns_with(plain);
    if (!merged) {
      merged = part.pattern_weights();
      merged_loss = part.rule_loss(q);
    } else {
      merged->merge(part.pattern_weights());
      merged_loss->merge(part.rule_loss(q));
    }
  }
  EXPECT_TRUE(merged->classes == all.classes);
  EXPECT_TRUE(merged->rules == all.rules);
  EXPECT_TRUE(merged_loss->loss == loss.loss);
  EXPECT_TRUE(merged_loss->intercepts == loss.intercepts);
  EXPECT_TRUE(merged_loss->rules == loss.rules);
  // Not the same at another point.
  q.rules[0] += 0.5;
  EXPECT_FALSE(whole.rule_loss(q).loss == loss.loss);
  EXPECT_THROW(RowPart(d).pattern_weights(), std::logic_error);  // no rules given yet
}

namespace {

// credit-a with ties (a third of A2 and A3 rounded to whole numbers) beside its missing values, and random rules
// over it: nominal = and !=, numeric <= and > at values of the data (NaN among them: nothing covered), between
// them, and below and above every value.
struct RandomRules {
  Dataset d = read_arff(test::shared("credit-a.arff"));
  std::vector<std::size_t> numeric, nominal;
  std::mt19937 random{7};

  RandomRules() {
    for (std::size_t r = 0; r < d.rows(); r += 3)
      for (const std::size_t a : {std::size_t{1}, std::size_t{2}})
        d.columns[a].values[r] = std::round(d.columns[a].values[r]);
    for (std::size_t a = 0; a < d.num_attributes(); ++a) (d.attribute(a).is_nominal() ? nominal : numeric).push_back(a);
  }
  std::size_t pick(const std::vector<std::size_t>& from) { return from[random() % from.size()]; }
  Condition condition(bool numeric_one) {
    if (numeric_one) {
      const std::size_t a = pick(numeric);
      const std::vector<double>& x = d.columns[a].values;
      double t = x[random() % x.size()];
      switch (random() % 6) {
        case 0: t = -1e9; break;
        case 1: t = 1e12; break;
        case 2: t += 0.5; break;
        default: break;
      }
      return Condition{static_cast<int>(a), random() % 2 ? Op::le : Op::gt, -1, t};
    }
    const std::size_t a = pick(nominal);
    const int v = static_cast<int>(random() % d.attribute(a).values.size());
    return Condition{static_cast<int>(a), random() % 2 ? Op::eq : Op::ne, v, 0};
  }
  // 1 to 4 conditions, at least one numeric, in random order.
  std::vector<Condition> rule() {
    std::vector<Condition> out;
    const std::size_t length = 1 + random() % 4;
    for (std::size_t j = 0; j < length; ++j) out.push_back(condition(j == 0 || random() % 2));
    std::shuffle(out.begin(), out.end(), random);
    return out;
  }
};

}  // namespace

TEST(FitOnParts, AThresholdsGapIsThatOfTheRowsTheOtherConditionsCover) {
  // A part reads the rows near a threshold in value order (by bin when binned) instead of covering the other
  // conditions' rows: its gap must be the one over every row they cover (beam_search's threshold_gap), on data
  // with missing values and ties, binned coarsely, finely or not at all, for thresholds inside, at the ends of and
  // beyond the values, and for rules whose other conditions cover no row.
  RandomRules random;
  const Dataset& d = random.d;
  std::size_t narrow = 0, empty = 0;
  for (const std::size_t bins : {std::size_t{0}, std::size_t{4}, std::size_t{255}}) {
    const NumericBinning binning = bins ? numeric_binning(d, bins) : NumericBinning{};
    const CoverageIndex whole(d, 1, binning);
    RowPart part(d);
    part.index_with(binning, 1);
    for (int k = 0; k < 400; ++k) {
      const std::vector<Condition> rule = random.rule();
      for (std::size_t i = 0; i < rule.size(); ++i) {
        if (rule[i].op != Op::le && rule[i].op != Op::gt) continue;
        const ThresholdGap expected = threshold_gap(rule, i, whole), got = part.threshold_gap(rule, i);
        EXPECT_EQ(got.below, expected.below) << bins << " " << k << " " << i;
        EXPECT_EQ(got.above, expected.above) << bins << " " << k << " " << i;
        narrow += std::isfinite(expected.below) && std::isfinite(expected.above);
        empty += !std::isfinite(expected.below) && !std::isfinite(expected.above);
      }
    }
  }
  EXPECT_GT(narrow, 300u);  // the cases are not all of one kind
  EXPECT_GT(empty, 50u);
}

TEST(FitOnParts, ThresholdsMovedTogetherAreThoseMovedOneAtATime) {
  // shorten_thresholds over parts asks every gap from a rule's first condition still to move at once and moves
  // those the moves before them cannot change: the rules must be those moved one condition at a time over every
  // row (beam_search's shorten_thresholds), over three parts and in one process, and the rules of several numeric
  // conditions must take fewer requests than conditions, some of them more than one (a gap not settled).
  RandomRules random;
  const Dataset& d = random.d;
  std::size_t fewer = 0, again = 0;
  for (const std::size_t bins : {std::size_t{4}, std::size_t{255}}) {
    const NumericBinning binning = numeric_binning(d, bins);
    const CoverageIndex whole(d, 1, binning);
    InProcessParts parts(d, {200, 450});
    RemoteRows remote(d.schema, d.source, parts.rows, parts.transport());
    remote.index_with(binning);
    LocalRows local(d, 1);
    local.index_with(binning);
    for (int k = 0; k < 300; ++k) {
      std::vector<Condition> expected = random.rule(), over_parts = expected, in_one = expected;
      const auto numeric = static_cast<std::size_t>(std::count_if(
          expected.begin(), expected.end(), [](const Condition& c) { return c.op == Op::le || c.op == Op::gt; }));
      shorten_thresholds(expected, whole);
      const std::size_t before = remote.requests();
      shorten_thresholds(remote, {&over_parts});
      shorten_thresholds(local, {&in_one});
      // A threshold drawn from a missing value is NaN, which equals nothing: compared as text.
      EXPECT_EQ(describe_conditions(over_parts, d.schema), describe_conditions(expected, d.schema)) << bins << " " << k;
      EXPECT_EQ(describe_conditions(in_one, d.schema), describe_conditions(expected, d.schema)) << bins << " " << k;
      const std::size_t asked = remote.requests() - before;
      EXPECT_GE(asked, 1u);
      EXPECT_LE(asked, numeric);
      if (numeric > 1) {
        fewer += asked < numeric;
        again += asked > 1;
      }
    }
  }
  EXPECT_GT(fewer, 100u);
  EXPECT_GT(again, 0u);
}

TEST(FitOnParts, TheRowsOfEachRuleAreTheRowsItCovers) {
  // covered_rows finds a rule's rows 64 at a time, condition by condition: they must be those Rule::covers
  // finds, of every row (690: not a whole number of words) and of a list of rows (repeats, any order).
  RandomRules random;
  const Dataset& d = random.d;
  std::vector<Rule> rules(1);  // the empty rule: every row
  for (int k = 0; k < 300; ++k) {
    rules.emplace_back();
    rules.back().conditions = random.rule();
  }
  std::vector<std::size_t> listed;
  for (int i = 0; i < 333; ++i) listed.push_back(static_cast<std::size_t>(random.random() % d.rows()));
  const std::vector<std::size_t>* every = nullptr;
  for (const std::vector<std::size_t>* rows : {every, static_cast<const std::vector<std::size_t>*>(&listed)}) {
    const auto got = covered_rows(d, rules, rows);
    ASSERT_EQ(got.size(), rules.size());
    std::size_t some = 0;
    for (std::size_t k = 0; k < rules.size(); ++k) {
      std::vector<std::uint32_t> expected;
      const std::size_t n = rows ? rows->size() : d.rows();
      for (std::size_t i = 0; i < n; ++i)
        if (rules[k].covers(d, rows ? (*rows)[i] : i)) expected.push_back(static_cast<std::uint32_t>(i));
      EXPECT_EQ(got[k], expected) << k << (rows ? " listed" : "");
      some += !expected.empty() && expected.size() < n;
    }
    EXPECT_EQ(got[0].size(), rows ? rows->size() : d.rows());
    EXPECT_GT(some, 100u);
  }
}

TEST(FitOnParts, ScoresMoveOnTheRowsOfEachStepsRule) {
  // A round's rule_sums keep the rows they covered for that round's same_rows and add_scores: every step must
  // move the rows of its own rule, whether rule_sums asked of it, of other rules first, or of more rules than
  // a round keeps, and whatever the order of the steps.
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  const std::size_t n = d.rows(), classes = d.num_classes();
  std::vector<std::vector<Condition>> rules;
  for (std::size_t a = 0; a < d.num_attributes() && rules.size() < 24; ++a) {
    if (!d.attribute(a).is_nominal()) continue;
    for (int v = 0; v < static_cast<int>(d.attribute(a).values.size()) && rules.size() < 24; ++v)
      rules.push_back({Condition{static_cast<int>(a), Op::eq, v, 0}});
  }
  rules.push_back({Condition{1, Op::le, -1, 30.0}, Condition{0, Op::ne, 0, 0}});
  for (int t = 15; rules.size() <= RowPart::kept_coverages(classes) + 5; ++t)  // A2 (numeric) <= t, A1 = b
    rules.push_back({Condition{1, Op::le, -1, static_cast<double>(t)}, Condition{0, Op::eq, 0, 0}});
  ASSERT_GT(rules.size(), RowPart::kept_coverages(classes));  // more than the rows a part keeps
  std::vector<ScoreStep> steps;
  for (std::size_t k = 0; k < rules.size(); ++k)
    steps.push_back(ScoreStep{rules[k], static_cast<int>(k % classes), 0.125 * static_cast<double>(k + 1)});

  std::vector<double> expected(n * classes, 0.0);
  for (const ScoreStep& s : steps)
    for (std::size_t r = 0; r < n; ++r) {
      bool covers = true;
      for (const Condition& c : s.conditions) covers = covers && c.covers(d, r);
      if (covers) expected[r * classes + static_cast<std::size_t>(s.klass)] += s.delta;
    }

  for (const bool asked_first : {false, true})
    for (const bool reversed : {false, true}) {
      RowPart part(d);
      part.index_with(NumericBinning{}, 1);
      std::vector<double> scores(n * classes, 0.0);
      if (asked_first)
        for (std::size_t k = 0; k < rules.size(); ++k) {
          part.rule_sums(rules[k], steps[k].klass, scores.data());
          EXPECT_TRUE(part.same_rows(rules[k], {rules[k], rules[(k + 1) % rules.size()]}).at(0)) << k;
        }
      std::vector<ScoreStep> ordered = steps;
      if (reversed) std::reverse(ordered.begin(), ordered.end());
      part.add_scores(scores.data(), ordered);
      EXPECT_EQ(scores, expected) << asked_first << reversed;
    }
}

TEST(FitOnParts, APartsBytesHoldItsRows) {
  Dataset d = read_arff(test::shared("credit-a.arff"));
  d.columns[0].codes[3] = kMissing;
  d.columns[1].values[4] = std::nan("");
  d.weights[5] = 0.25;
  const std::string bytes = part_bytes(d);
  const Dataset back = rows_of_bytes(bytes);
  EXPECT_EQ(back.source, d.source);
  ASSERT_EQ(back.num_attributes(), d.num_attributes());
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    EXPECT_EQ(back.attribute(a).name, d.attribute(a).name);
    EXPECT_EQ(back.attribute(a).type, d.attribute(a).type);
    EXPECT_EQ(back.attribute(a).values, d.attribute(a).values);
    EXPECT_EQ(back.columns[a].codes, d.columns[a].codes);
    ASSERT_EQ(back.columns[a].values.size(), d.columns[a].values.size());
    for (std::size_t r = 0; r < d.columns[a].values.size(); ++r)  // NaN != NaN: compare the bits
      EXPECT_EQ(std::memcmp(&back.columns[a].values[r], &d.columns[a].values[r], sizeof(double)), 0);
  }
  EXPECT_EQ(back.schema.class_attribute.values, d.schema.class_attribute.values);
  EXPECT_EQ(back.y, d.y);
  EXPECT_EQ(back.weights, d.weights);
  EXPECT_EQ(part_bytes(back), bytes);
  // What the part holds, as a transport weighs it: at least its values, classes and weights.
  std::size_t values = 0;
  for (std::size_t a = 0; a < d.num_attributes(); ++a) values += d.attribute(a).is_nominal() ? 4 : 8;
  EXPECT_GE(PartRows(d).bytes(), d.rows() * (values + 12));
  // Bytes cut short, or a column of another length, are refused, not read past.
  EXPECT_THROW(rows_of_bytes(bytes.substr(0, bytes.size() / 2)), std::invalid_argument);
  Dataset shorter = d;
  shorter.columns[1].values.pop_back();
  EXPECT_THROW(rows_of_bytes(part_bytes(shorter)), std::invalid_argument);
  Dataset bad_code = d;
  bad_code.columns[0].codes[0] = 99;
  EXPECT_THROW(rows_of_bytes(part_bytes(bad_code)), std::invalid_argument);
  Dataset bad_weight = d;
  bad_weight.weights[0] = -1;
  EXPECT_THROW(rows_of_bytes(part_bytes(bad_weight)), std::invalid_argument);
}

TEST(FitOnParts, APartRefusesWhatIsNoRequest) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  PartRows part(d.subset({0, 1, 2}));
  EXPECT_THROW(part.answer("not msgpack", "", {}), std::exception);
  EXPECT_THROW(part.answer(std::string("\x81\xa2op\xa3now", 8), "", {}), std::invalid_argument);  // {"op": "now"}
  // Scores of another part's size are refused before any request reads them.
  std::vector<double> scores(part.score_size() + 1);
  EXPECT_THROW(part.answer("x", "", std::span<const double>(scores)), std::invalid_argument);
  EXPECT_THROW(part.update("x", "", scores), std::invalid_argument);
  // A part of no rows (an empty partition) has scores of no values once they started, and answers for them.
  PartRows empty(d.subset({}));
  std::vector<double> none;
  const auto msgpack = [](const nlohmann::json& j) {
    const std::vector<std::uint8_t> b = nlohmann::json::to_msgpack(j);
    return std::string(b.begin(), b.end());
  };
  empty.update(msgpack({{"op", "start"}, {"start", {0.0, 0.0}}}), "", none);
  const std::string gather = msgpack({{"op", "gather"}, {"rows", nlohmann::json::array()}, {"probabilities", true}});
  EXPECT_THROW(empty.answer(gather, "", std::nullopt), std::invalid_argument);
  EXPECT_NO_THROW(empty.answer(gather, "", std::span<const double>(none)));
  // The weights' sums read the patterns of the rules shared, and no other shared value; a rule query reads a
  // shared binning, and not the rules.
  const std::string weights = msgpack({{"op", "pattern_weights"}});
  const std::string rules = msgpack({{"rules", nlohmann::json::array({nlohmann::json::array()})}});
  EXPECT_THROW(part.answer(weights, "", std::nullopt), std::invalid_argument);
  EXPECT_THROW(part.answer(weights, msgpack({{"bins", 4}}), std::nullopt), std::invalid_argument);
  EXPECT_NO_THROW(part.answer(weights, rules, std::nullopt));
  EXPECT_NO_THROW(empty.answer(weights, rules, std::nullopt));
  const std::string gaps = msgpack({{"op", "threshold_gaps"}, {"queries", nlohmann::json::array()}});
  EXPECT_THROW(part.answer(gaps, rules, std::nullopt), std::invalid_argument);
  const std::string loss = msgpack({{"op", "rule_loss"},
                                    {"logits", 1},
                                    {"positive", -1},
                                    {"rule_logit", {0}},
                                    {"rule_sign", {1.0}},
                                    {"intercepts", {0.0}},
                                    {"rules", {0.5, 0.5}},
                                    {"curvature", false}});  // a weight per rule of the patterns
  EXPECT_THROW(part.answer(loss, rules, std::nullopt), std::invalid_argument);
}
