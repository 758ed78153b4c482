// Standard errors and Wald tests of the logistic solver's estimates: the Hessian against finite differences
// of the objective's gradient, and the errors and tests against SciPy's maximum likelihood
// (tests/tools/scipy_wald.py, an independent fit in the reference-class parameterisation).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "candor/linear/logit_inference.hpp"
#include "candor/linear/penalised_logistic.hpp"
#include "candor/util/process.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// `rows` x 3 Gaussian columns; the class follows columns 0 and 1 (not 2) with logistic noise.
LogisticProblem attribute_problem(int rows, int logits, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(0.5, 1.5);
  std::extreme_value_distribution<double> gumbel;
  LogisticProblem p;
  p.logits = logits;
  const int classes = logits == 1 ? 2 : logits;
  p.X.resize(rows, 3);
  for (int i = 0; i < rows; ++i) {
    for (int c = 0; c < 3; ++c) p.X(i, c) = normal(rng);
    int best = 0;
    double top = -1e300;
    for (int k = 0; k < classes; ++k) {
      const double score = 0.8 * k * p.X(i, 0) - 0.5 * (k % 2) * p.X(i, 1) + gumbel(rng);
      if (score > top) top = score, best = k;
    }
    p.y.push_back(best);
    p.w.push_back(unit(rng));
  }
  return p;
}

LogisticWeights weights_from(const LogisticProblem& p, const Eigen::VectorXd& theta) {
  LogisticWeights w;
  w.intercepts = theta.head(p.logits);
  w.attributes.resize(p.logits, p.X.cols());
  for (int j = 0; j < p.logits; ++j)
    for (Eigen::Index c = 0; c < p.X.cols(); ++c) w.attributes(j, c) = theta[p.logits + j * p.X.cols() + c];
  w.rules.resize(0);
  return w;
}

nlohmann::json scipy_wald(const LogisticProblem& p, const std::vector<std::vector<Eigen::Index>>& groups,
                          const std::string& name) {
  std::vector<double> X;
  for (Eigen::Index i = 0; i < p.X.rows(); ++i)
    for (Eigen::Index c = 0; c < p.X.cols(); ++c) X.push_back(p.X(i, c));
  const nlohmann::json j = {{"X", X}, {"y", p.y}, {"w", p.w}, {"logits", p.logits}, {"groups", groups}};
  const std::string file = test::write_temp(name + ".json", j.dump());
  ProcessOptions o;
  o.capture_stdout = true;
  const ProcessResult r = run_process({CANDOR_TEST_PYTHON, test::repo("tests/tools/scipy_wald.py"), file}, o);
  if (r.exit_code != 0) {
    ADD_FAILURE() << "SciPy reference failed (exit " << r.exit_code
                  << "); the test command installs python3-scipy (scripts/install-deps.sh)";
    return nullptr;
  }
  return nlohmann::json::parse(r.output);
}

}  // namespace

TEST(LogitInference, HessianMatchesFiniteDifferencesOfTheGradient) {
  for (int logits : {1, 3}) {
    LogisticProblem p = attribute_problem(50, logits, 5);
    p.lambda = 0.4;
    const Eigen::Index size = logits + logits * 3;
    Eigen::VectorXd theta(size);
    std::mt19937 rng(9);
    std::normal_distribution<double> normal(0, 0.5);
    for (Eigen::Index i = 0; i < size; ++i) theta[i] = normal(rng);
    const Eigen::MatrixXd h = logistic_hessian(p, weights_from(p, theta));
    ASSERT_EQ(h.rows(), size);
    for (Eigen::Index i = 0; i < size; ++i) {
      Eigen::VectorXd up = theta, down = theta, g_up, g_down;
      up[i] += 1e-5;
      down[i] -= 1e-5;
      logistic_objective(p, up, &g_up);
      logistic_objective(p, down, &g_down);
      const Eigen::VectorXd column = (g_up - g_down) / 2e-5;
      for (Eigen::Index r = 0; r < size; ++r)
        EXPECT_NEAR(h(r, i), column[r], 1e-5 * std::max(1.0, std::abs(column[r])))
            << "logits " << logits << " entry " << r << "," << i;
    }
  }
}

// The check: standard errors and Wald tests of small unpenalised problems agree with SciPy's.
TEST(LogitInference, StandardErrorsAndWaldTestsAgreeWithScipy) {
  const std::vector<std::vector<Eigen::Index>> groups = {{0}, {2}, {1, 2}, {0, 1, 2}};
  for (int logits : {1, 3}) {
    LogisticProblem p = attribute_problem(300, logits, 17 + static_cast<std::uint32_t>(logits));
    p.lambda = 0;
    const LogisticWeights w = solve_logistic(p, SolverOptions{1e-10, 100000});
    const Eigen::MatrixXd cov = logistic_covariance(p, logistic_hessian(p, w));
    const nlohmann::json ref = scipy_wald(p, groups, "wald-" + std::to_string(logits));
    if (ref.is_null()) return;
    // Our errors in the reference's order: per contrast logit, the intercept then the columns.
    const int contrasts = logits == 1 ? 1 : logits - 1;
    const auto se = ref["se"].get<std::vector<double>>();
    ASSERT_EQ(se.size(), static_cast<std::size_t>(contrasts * 4));
    for (int j = 0; j < contrasts; ++j)
      for (int c = 0; c < 4; ++c) {
        Eigen::VectorXd v = Eigen::VectorXd::Zero(cov.rows());
        const auto at = [&](int logit) { return c == 0 ? logit : logits + logit * 3 + (c - 1); };
        if (logits == 1) {
          v[at(0)] = 1;
        } else {
          v[at(j + 1)] = 1;
          v[at(0)] = -1;
        }
        const double ours = std::sqrt(v.dot(cov * v));
        EXPECT_NEAR(ours, se[static_cast<std::size_t>(j * 4 + c)], 2e-4 * ours) << "logits " << logits << " " << j << c;
      }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const WaldTest t = wald_test(p, w, cov, groups[g]);
      const auto& r = ref["wald"][g];
      EXPECT_EQ(t.df, r[1].get<int>()) << "group " << g;
      EXPECT_NEAR(t.statistic, r[0].get<double>(), 1e-3 * std::max(1.0, t.statistic)) << "group " << g;
      EXPECT_NEAR(t.p_value, r[2].get<double>(), 1e-4 + 1e-3 * t.p_value) << "group " << g;
    }
    // Column 0 drives the class strongly, column 2 not at all.
    EXPECT_LT(wald_test(p, w, cov, {0}).p_value, 1e-6);
    EXPECT_GT(wald_test(p, w, cov, {0}).statistic, 4 * wald_test(p, w, cov, {2}).statistic);
  }
}

// A column that separates the classes has no finite maximum-likelihood estimate; the L2 penalty keeps the
// estimate, its error and its test finite, and the test still finds the effect.
TEST(LogitInference, PenaltyKeepsASeparatingColumnTestable) {
  LogisticProblem p = attribute_problem(80, 1, 3);
  for (int i = 0; i < 80; ++i) p.X(i, 2) = p.y[static_cast<std::size_t>(i)] == 1 ? 1.0 : 0.0;
  p.lambda = 1;
  const LogisticWeights w = solve_logistic(p, SolverOptions{1e-8, 100000});
  const Eigen::MatrixXd cov = logistic_covariance(p, logistic_hessian(p, w));
  ASSERT_TRUE(cov.allFinite());
  const WaldTest t = wald_test(p, w, cov, {2});
  EXPECT_EQ(t.df, 1);
  EXPECT_TRUE(std::isfinite(t.statistic));
  EXPECT_LT(t.p_value, 1e-3);
}

// Two identical columns: the covariance falls back to the Moore-Penrose inverse, and their joint test has
// one degree of freedom, not two.
TEST(LogitInference, AliasedColumnsLoseADegreeOfFreedom) {
  LogisticProblem p = attribute_problem(200, 1, 8);
  p.X.col(2) = p.X.col(0);
  p.lambda = 0;
  const LogisticWeights w = solve_logistic(p, SolverOptions{1e-10, 100000});
  const Eigen::MatrixXd cov = logistic_covariance(p, logistic_hessian(p, w));
  const WaldTest t = wald_test(p, w, cov, {0, 2});
  EXPECT_EQ(t.df, 1);
  EXPECT_LT(t.p_value, 1e-3);
}
