// A fit over rows held in parts (candor/distributed.hpp), with the parts in this process behind a transport that
// carries the requests' bytes as a Dask one does: the model must be the fit in one process. Its rule sums are
// exact (util/exact_sum.hpp), so on rows of unit weight it is that fit byte for byte; on weighted rows the
// weights of its row patterns are summed part by part, and the logistic weights agree within 1e-9.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"
#include "candor/distributed.hpp"
#include "candor/fit.hpp"
#include "candor/learner.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/rule_model.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// Parts of `data` cut at `cuts` (ascending row numbers), each with its scores and the shared value, answering
// through the bytes of PartRows as workers would.
struct InProcessParts {
  std::vector<std::unique_ptr<PartRows>> parts;
  std::vector<std::vector<double>> scores;
  std::vector<char> started;
  std::string shared;
  std::vector<std::size_t> rows;
  std::size_t asked = 0;

  InProcessParts(const Dataset& data, const std::vector<std::size_t>& cuts) {
    std::size_t from = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
      const std::size_t to = k < cuts.size() ? cuts[k] : data.rows();
      std::vector<std::size_t> ids;
      for (std::size_t r = from; r < to; ++r) ids.push_back(r);
      parts.push_back(std::make_unique<PartRows>(data.subset(ids)));
      rows.push_back(ids.size());
      from = to;
    }
    scores.resize(parts.size());
    started.assign(parts.size(), 0);
  }

  PartTransport transport() {
    PartTransport t;
    t.ask = [this](const std::vector<std::string>& requests) {
      ++asked;
      std::vector<std::string> replies;
      for (std::size_t k = 0; k < parts.size(); ++k)
        replies.push_back(parts[k]->answer(requests[k], shared, started[k] ? scores[k].data() : nullptr));
      return replies;
    };
    t.update = [this](const std::vector<std::string>& requests) {
      for (std::size_t k = 0; k < parts.size(); ++k) {
        scores[k] = parts[k]->update(requests[k], shared, scores[k]);
        started[k] = 1;
      }
    };
    t.share = [this](const std::string& value) { shared = value; };
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
  InProcessParts parts(d, {100, 101, 400});
  const PartsFit fit = fit_model_on_parts(d, parts.rows, parts.transport(), learner, 1);
  expect_same_logistic_model(*local, *fit.model, 1e-9);
  EXPECT_EQ(local->to_json().dump(), fit.model->to_json().dump());
  ASSERT_GT(local->rule_count(), 5u);
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

TEST(FitOnParts, RefusesWhatNeedsEveryRowInOneProcess) {
  EXPECT_EQ(refuses_parts(Learner()), "");
  EXPECT_EQ(refuses_parts(Learner("gradient-rules")), "");
  EXPECT_NE(refuses_parts(Learner("cn2-unordered")).find("needs every row in one process"), std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("features", "rules+attributes")).find("--features rules+attributes"),
            std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("stable_resamples", 10)).find("--stable-resamples"), std::string::npos);
  EXPECT_NE(refuses_parts(Learner().set("lambda_search", "refit")).find("--lambda-search"), std::string::npos);
  EXPECT_EQ(refuses_parts(Learner().set("lambda_search", "refit").set("lambda", 0.1)), "");
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  InProcessParts parts(d, {345});
  EXPECT_THROW(fit_model_on_parts(d, parts.rows, parts.transport(), Learner("cn2-unordered")), std::invalid_argument);
  // Exact cuts need every distinct value of every row.
  EXPECT_THROW(fit_model_on_parts(d, parts.rows, parts.transport(), Learner().set("numeric_bins", 0)),
               std::invalid_argument);
}

TEST(FitOnParts, APartRefusesWhatIsNoRequest) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  PartRows part(d.subset({0, 1, 2}));
  EXPECT_THROW(part.answer("not msgpack", "", nullptr), std::exception);
  EXPECT_THROW(part.answer(std::string("\x81\xa2op\xa3now", 8), "", nullptr), std::invalid_argument);  // {"op": "now"}
}
