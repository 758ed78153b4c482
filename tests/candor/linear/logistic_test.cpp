// rule-logistic: the penalised logistic solver against SciPy and eq. (22), the attribute encoding, and the
// learner end to end (model file, explanation, determinism, parameter checks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learners/rule_logistic/rule_logistic.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"
#include "candor/linear/attribute_encoding.hpp"
#include "candor/linear/pattern_sums.hpp"
#include "candor/linear/penalised_logistic.hpp"
#include "candor/linear/row_patterns.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/util/process.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// A small random problem: `rows` x `columns` Gaussian attributes, `rules` random rules with their q below
// the rule's training share (so gamma > 0), labels drawn from a model that uses both.
LogisticProblem random_problem(int rows, int columns, int rules, int logits, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  LogisticProblem p;
  p.logits = logits;
  const int classes = logits == 1 ? 2 : logits;
  p.X.resize(rows, columns);
  for (int i = 0; i < rows; ++i)
    for (int c = 0; c < columns; ++c) p.X(i, c) = normal(rng);
  p.rule_rows.resize(static_cast<std::size_t>(rules));
  for (int k = 0; k < rules; ++k) {
    for (int i = 0; i < rows; ++i)
      if (unit(rng) < 0.3) p.rule_rows[static_cast<std::size_t>(k)].push_back(static_cast<std::uint32_t>(i));
    const int klass = static_cast<int>(rng() % static_cast<std::uint32_t>(classes));
    p.rule_logit.push_back(logits == 1 ? 0 : klass);
    p.rule_sign.push_back(logits == 1 ? (klass == 1 ? 1.0 : -1.0) : 1.0);
  }
  for (int i = 0; i < rows; ++i) {
    std::vector<double> score(static_cast<std::size_t>(classes), 0.0);
    for (int c = 0; c < classes; ++c)
      score[static_cast<std::size_t>(c)] = (c + 1) * 0.7 * p.X(i, c % columns) + normal(rng);
    for (int k = 0; k < rules; ++k) {
      const auto& rr = p.rule_rows[static_cast<std::size_t>(k)];
      if (std::find(rr.begin(), rr.end(), static_cast<std::uint32_t>(i)) == rr.end()) continue;
      const int target = logits == 1 ? (p.rule_sign[static_cast<std::size_t>(k)] > 0 ? 1 : 0)
                                     : p.rule_logit[static_cast<std::size_t>(k)];
      score[static_cast<std::size_t>(target)] += 1.5;
    }
    p.y.push_back(static_cast<int>(std::max_element(score.begin(), score.end()) - score.begin()));
    p.w.push_back(0.5 + unit(rng));  // example weights
  }
  for (int k = 0; k < rules; ++k) {
    double s = 0, n = 0;
    for (auto i : p.rule_rows[static_cast<std::size_t>(k)]) {
      n += p.w[i];
      if (p.rule_positive(static_cast<std::size_t>(k), i)) s += p.w[i];
    }
    p.rule_q.push_back(n > 0 ? 0.8 * s / n : 0.5);
  }
  return p;
}

nlohmann::json problem_json(const LogisticProblem& p) {
  std::vector<double> X;
  for (Eigen::Index i = 0; i < p.X.rows(); ++i)
    for (Eigen::Index c = 0; c < p.X.cols(); ++c) X.push_back(p.X(i, c));
  return {{"X", X},
          {"y", p.y},
          {"w", p.w},
          {"logits", p.logits},
          {"rule_rows", p.rule_rows},
          {"rule_logit", p.rule_logit},
          {"rule_sign", p.rule_sign},
          {"rule_q", p.rule_q},
          {"lambda", p.lambda},
          {"rule_penalty", p.rule_penalty},
          {"sign_constrained", p.sign_constrained},
          {"lasso", p.lasso}};
}

nlohmann::json scipy_solution(const LogisticProblem& p, const std::string& name) {
  const std::string problem = test::write_temp(name + ".json", problem_json(p).dump());
  ProcessOptions o;
  o.capture_stdout = true;
  const ProcessResult r = run_process({CANDOR_TEST_PYTHON, test::repo("tests/tools/scipy_logistic.py"), problem}, o);
  if (r.exit_code != 0) {
    ADD_FAILURE() << "SciPy reference failed (exit " << r.exit_code
                  << "); the test command installs python3-scipy (scripts/install-deps.sh)";
    return nullptr;
  }
  return nlohmann::json::parse(r.output);
}

}  // namespace

TEST(LogisticSolver, GradientMatchesFiniteDifferences) {
  for (int logits : {1, 3})
    for (bool lasso : {false, true}) {
      LogisticProblem p = random_problem(40, 3, 4, logits, 7);
      p.lambda = 0.7;
      p.lasso = lasso;
      const Eigen::Index size = logits + (lasso ? 2 : 1) * logits * 3 + 2 * 4;
      Eigen::VectorXd theta(size);
      std::mt19937 rng(3);
      std::uniform_real_distribution<double> u(0.1, 1.0);  // b+, b- > 0: away from the bounds' kinks
      for (Eigen::Index i = 0; i < size; ++i) theta[i] = u(rng);
      Eigen::VectorXd g;
      logistic_objective(p, theta, &g);
      for (Eigen::Index i = 0; i < size; ++i) {
        Eigen::VectorXd up = theta, down = theta;
        up[i] += 1e-6;
        down[i] -= 1e-6;
        const double numeric = (logistic_objective(p, up, nullptr) - logistic_objective(p, down, nullptr)) / 2e-6;
        EXPECT_NEAR(g[i], numeric, 1e-5 * std::max(1.0, std::abs(numeric))) << "logits " << logits << " entry " << i;
      }
    }
}

// The check: the solution of small problems agrees with SciPy's L-BFGS-B on an independent NumPy
// implementation of the same loss, objective and weights to 1e-6.
TEST(LogisticSolver, AgreesWithScipy) {
  struct Case {
    int logits;
    double lambda;
    bool penalty, constrained, lasso;
  };
  int index = 0;
  for (const Case c :
       {Case{1, 1.0, true, true, false}, Case{1, 0.3, true, false, false}, Case{1, 2.0, false, false, false},
        Case{3, 1.0, true, true, false}, Case{3, 0.5, true, false, false}, Case{1, 3.0, false, false, true},
        Case{3, 2.0, false, false, true}}) {
    LogisticProblem p = random_problem(60, 3, 5, c.logits, 11 + static_cast<std::uint32_t>(index));
    p.lambda = c.lambda;
    p.rule_penalty = c.penalty;
    p.sign_constrained = c.constrained;
    p.lasso = c.lasso;
    const LogisticWeights ours = solve_logistic(p, SolverOptions{1e-11, 100000});
    const nlohmann::json ref = scipy_solution(p, "logistic-case-" + std::to_string(index++));
    if (ref.is_null()) return;
    const std::string label = "case " + std::to_string(index);
    EXPECT_NEAR(ours.objective, ref["objective"].get<double>(), 1e-6 * std::abs(ours.objective)) << label;
    // Softmax intercepts are determined up to a common shift: compare them centred.
    const auto a = ref["intercepts"].get<std::vector<double>>();
    const double ref_mean = std::accumulate(a.begin(), a.end(), 0.0) / static_cast<double>(a.size());
    const double our_mean = c.logits == 1 ? 0.0 : ours.intercepts.mean();
    for (int j = 0; j < c.logits; ++j)
      EXPECT_NEAR(ours.intercepts[j] - (c.logits == 1 ? 0 : our_mean),
                  a[static_cast<std::size_t>(j)] - (c.logits == 1 ? 0 : ref_mean), 1e-6)
          << label;
    const auto A = ref["attributes"].get<std::vector<std::vector<double>>>();
    for (int j = 0; j < c.logits; ++j)
      for (int col = 0; col < 3; ++col)
        EXPECT_NEAR(ours.attributes(j, col), A[static_cast<std::size_t>(j)][static_cast<std::size_t>(col)], 1e-6)
            << label;
    const auto b = ref["rules"].get<std::vector<double>>();
    for (std::size_t k = 0; k < b.size(); ++k)
      EXPECT_NEAR(ours.rules[static_cast<Eigen::Index>(k)], b[k], 1e-6) << label;
  }
}

// Eq. (22): at lambda 0, a rule whose weight is positive leaves the mean predicted probability of its class
// over the examples it covers at exactly q_k. The numbers are paper 000's worked example: a rule covering
// 10 examples, 8 of them positive, corrected to q = 0.65, among 20 examples with prior 0.5.
TEST(LogisticSolver, RuleProbabilityIsPinnedAtItsCorrectedValue) {
  LogisticProblem p;
  p.X.resize(20, 0);
  for (int i = 0; i < 20; ++i) {
    p.y.push_back(i < 10 ? (i < 8 ? 1 : 0) : (i < 12 ? 1 : 0));
    p.w.push_back(1.0);
  }
  p.rule_rows = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  p.rule_logit = {0};
  p.rule_sign = {1.0};
  p.rule_q = {0.65};
  p.lambda = 0;
  p.sign_constrained = true;
  EXPECT_NEAR(p.gammas()[0], 8 - 0.65 * 10, 1e-12);  // gamma = s - q n = 1.5
  const LogisticWeights w = solve_logistic(p, SolverOptions{1e-12, 10000});
  ASSERT_GT(w.rules[0], 0.1);
  const Eigen::MatrixXd eta = logistic_logits(p, w);
  double covered = 0;
  for (int i = 0; i < 10; ++i) covered += logit_probabilities(&eta(i, 0), 1)[1];
  EXPECT_NEAR(covered / 10, 0.65, 1e-6);
  // Without the penalty the model reproduces the training share, 0.8: the optimism gamma removes.
  p.rule_penalty = false;
  const LogisticWeights plain = solve_logistic(p, SolverOptions{1e-12, 10000});
  const Eigen::MatrixXd eta2 = logistic_logits(p, plain);
  double covered2 = 0;
  for (int i = 0; i < 10; ++i) covered2 += logit_probabilities(&eta2(i, 0), 1)[1];
  EXPECT_NEAR(covered2 / 10, 0.8, 1e-6);
}

TEST(LogisticSolver, ProbabilitiesStayInsideTheUnitInterval) {
  const double big[] = {800.0, -800.0, 0.0};
  for (double p : logit_probabilities(big, 3)) {
    EXPECT_GT(p, 0.0);
    EXPECT_LT(p, 1.0);
  }
  const double one = 1e6;
  const auto q = logit_probabilities(&one, 1);
  EXPECT_GT(q[0], 0.0);
  EXPECT_NEAR(q[0] + q[1], 1.0, 1e-15);
}

// The solver centres the attribute columns (the intercepts unpenalised, a column shifted by a constant is the
// same model): a problem whose columns are shifted far from zero, as a 0/1 column of a common nominal value
// is, gives the same logits as the unshifted one even at the lambda path's loose tolerance, and converges no
// slower; the intercepts take the shift.
TEST(LogisticSolver, ShiftedColumnsGiveTheSameModel) {
  for (int logits : {1, 3}) {
    for (int rules : {0, 2}) {
      const LogisticProblem p = random_problem(80, 3, rules, logits, 11u + static_cast<std::uint32_t>(logits));
      LogisticProblem shifted = p;
      const Eigen::RowVector3d shift(5.0, -3.0, 0.9);
      shifted.X.rowwise() += shift;
      for (double lambda : {10.0, 0.1}) {
        LogisticProblem a = p, b = shifted;
        a.lambda = b.lambda = lambda;
        SolverOptions loose;
        loose.tolerance = 3e-2;
        const LogisticWeights wa = solve_logistic(a, loose), wb = solve_logistic(b, loose);
        EXPECT_LT((logistic_logits(a, wa) - logistic_logits(b, wb)).cwiseAbs().maxCoeff(), 1e-8) << logits << lambda;
        EXPECT_LT((wa.attributes - wb.attributes).cwiseAbs().maxCoeff(), 1e-8) << logits << lambda;
        EXPECT_LT((wb.intercepts - (wa.intercepts - wa.attributes * shift.transpose())).cwiseAbs().maxCoeff(), 1e-8);
        EXPECT_EQ(wa.iterations, wb.iterations) << logits << lambda;
      }
    }
  }
}

// Rows of one class covered by the same rules are one pattern of their summed weight, numbered by first row.
TEST(RowPatterns, GroupRowsByClassAndCoveringRules) {
  // Rows 0..5: classes 0 1 0 0 1 0; rule 0 covers 0 2 3 4, rule 1 covers 3 4 5.
  const RowPatterns p = row_patterns({0, 1, 0, 0, 1, 0}, {1, 2, 0.5, 1, 1, 3}, {{0, 2, 3, 4}, {3, 4, 5}});
  // Patterns: {0, 2} (class 0, rule 0), {1} (class 1, none), {3} (class 0, both), {4} (class 1, both),
  // {5} (class 0, rule 1).
  EXPECT_EQ(p.of_row, (std::vector<std::uint32_t>{0, 1, 0, 2, 3, 4}));
  EXPECT_EQ(p.y, (std::vector<int>{0, 1, 0, 1, 0}));
  EXPECT_EQ(p.w, (std::vector<double>{1.5, 2, 1, 1, 3}));
  EXPECT_EQ(p.covered, (std::vector<std::vector<std::uint32_t>>{{0, 2, 3}, {2, 3, 4}}));
  EXPECT_THROW(row_patterns({0, -1}, {1, 1}, {}), std::invalid_argument);
  EXPECT_THROW(row_patterns({0}, {1}, {{3}}), std::invalid_argument);
}

// A problem over rules alone solved on its row patterns has the weights of the problem on its rows: the same
// objective with its terms grouped (here 400 rows on 6 rules collapse to far fewer patterns).
TEST(RowPatterns, AProblemOnItsPatternsHasTheSameWeights) {
  for (int logits : {1, 3}) {
    SCOPED_TRACE("logits " + std::to_string(logits));
    LogisticProblem rows = random_problem(400, 1, 6, logits, 21u + static_cast<std::uint32_t>(logits));
    rows.X.resize(400, 0);
    const RowPatterns p = row_patterns(rows.y, rows.w, rows.rule_rows);
    ASSERT_LT(p.y.size(), 150u);
    LogisticProblem grouped = rows;
    grouped.X.resize(static_cast<Eigen::Index>(p.y.size()), 0);
    grouped.y = p.y;
    grouped.w = p.w;
    grouped.rule_rows = p.covered;
    const SolverOptions tight{1e-10, 100000};
    const LogisticWeights a = solve_logistic(rows, tight), b = solve_logistic(grouped, tight);
    EXPECT_NEAR(a.objective, b.objective, 1e-9 * std::abs(a.objective));
    for (Eigen::Index k = 0; k < a.rules.size(); ++k) EXPECT_NEAR(a.rules[k], b.rules[k], 1e-6) << "rule " << k;
    for (Eigen::Index c = 0; c < a.intercepts.size(); ++c) EXPECT_NEAR(a.intercepts[c], b.intercepts[c], 1e-6);
  }
}

// The sums the weights over rules alone are fitted from, over row patterns, against the solver's own objective on
// the rows: the loss and gradient of rule_loss are logistic_objective's at lambda 0 without rule penalties, and
// the weights by class give row_sums' sums. Binary, softmax and one-vs-rest (class 1 against the others).
TEST(PatternSums, AreTheObjectiveAndSumsOfTheRows) {
  for (int logits : {1, 3}) {
    for (int positive : logits == 1 ? std::vector<int>{-1, 1} : std::vector<int>{-1}) {
      SCOPED_TRACE("logits " + std::to_string(logits) + " positive " + std::to_string(positive));
      LogisticProblem rows = random_problem(300, 1, 5, logits, 31u + static_cast<std::uint32_t>(logits));
      rows.X.resize(300, 0);
      rows.lambda = 0;
      rows.rule_penalty = false;
      std::vector<int> classes = rows.y;  // the patterns' classes: a 3-class problem for one-vs-rest
      if (positive >= 0)
        for (std::size_t i = 0; i < classes.size(); ++i) classes[i] = static_cast<int>(i % 3);
      const std::size_t class_count = positive >= 0 ? 3 : (logits == 1 ? 2 : 3);
      LogisticProblem labelled = rows;
      if (positive >= 0)
        for (std::size_t i = 0; i < classes.size(); ++i) labelled.y[i] = classes[i] == positive ? 1 : 0;
      const RowPatterns patterns = row_patterns(classes, rows.w, rows.rule_rows);
      ASSERT_LT(patterns.y.size(), rows.rows());

      RuleLossQuery q;
      q.logits = logits;
      q.positive = positive;
      q.rule_logit = labelled.rule_logit;
      q.rule_sign = labelled.rule_sign;
      Eigen::VectorXd theta = Eigen::VectorXd::Zero(logits + 2 * 5);
      for (int j = 0; j < logits; ++j) {
        theta[j] = 0.3 * (j + 1) - 0.5;
        q.intercepts.push_back(theta[j]);
      }
      for (int k = 0; k < 5; ++k) {
        const double b = 0.4 * k - 0.7;
        theta[logits + k] = std::max(b, 0.0);
        theta[logits + 5 + k] = std::max(-b, 0.0);
        q.rules.push_back(b);
      }
      Eigen::VectorXd gradient;
      const double f = logistic_objective(labelled, theta, &gradient);
      const RuleLossSums sums = rule_loss(patterns, class_count, q);
      EXPECT_NEAR(sums.loss.value(), f, 1e-12 * std::abs(f));
      for (int j = 0; j < logits; ++j) EXPECT_NEAR(sums.intercepts[j].value(), gradient[j], 1e-10) << "logit " << j;
      for (std::size_t k = 0; k < 5; ++k)
        EXPECT_NEAR(labelled.rule_sign[k] * sums.rules[k].value(), gradient[logits + static_cast<Eigen::Index>(k)],
                    1e-10)
            << "rule " << k;

      const PatternWeights weights = pattern_weights(patterns, class_count);
      const LogisticRowSums expected = row_sums(labelled);
      double total = 0;
      for (const ExactSum& c : weights.classes) total += c.value();
      EXPECT_NEAR(total, expected.total, 1e-12 * expected.total);
      for (std::size_t k = 0; k < 5; ++k) {
        double n = 0;
        for (const ExactSum& c : weights.rules[k]) n += c.value();
        EXPECT_NEAR(n, expected.rule_weight[k], 1e-12 * (1 + n)) << "rule " << k;
      }
    }
  }
  const RowPatterns patterns = row_patterns({0, 1}, {1, 1}, {{0}});
  RuleLossQuery q;
  q.logits = 1;
  q.rule_logit = {0};
  q.rule_sign = {1};
  q.intercepts = {0};
  q.rules = {1};
  EXPECT_NO_THROW(rule_loss(patterns, 2, q));
  q.rules = {1, 2};
  EXPECT_THROW(rule_loss(patterns, 2, q), std::invalid_argument);  // a weight per rule
  q.rules = {1};
  q.rule_logit = {1};
  EXPECT_THROW(rule_loss(patterns, 2, q), std::invalid_argument);  // a logit out of range
  q.rule_logit = {0};
  EXPECT_THROW(rule_loss(patterns, 3, q), std::invalid_argument);  // one logit of three classes needs `positive`
  q.positive = 1;
  EXPECT_NO_THROW(rule_loss(patterns, 3, q));
}

// The curvature rule_loss sums is the derivative of its gradient: each column against central differences of the
// gradient, the logits of the rows the variable reaches moved by +-h. Binary, softmax and one-vs-rest, on whole and
// fractional weights.
TEST(PatternSums, CurvatureIsTheDerivativeOfTheGradient) {
  for (int logits : {1, 3}) {
    for (int positive : logits == 1 ? std::vector<int>{-1, 2} : std::vector<int>{-1}) {
      SCOPED_TRACE("logits " + std::to_string(logits) + " positive " + std::to_string(positive));
      const std::size_t classes = positive >= 0 ? 3 : (logits == 1 ? 2 : 3);
      RowPatterns patterns;
      patterns.y = {0, 1, 1, 0, static_cast<int>(classes) - 1, 1, 0};
      patterns.w = {2, 0.75, 5, 1.5, 1, 3.25, 4};
      patterns.covered = {{0, 1, 2, 4}, {1, 3, 5}, {0, 2, 3, 4, 5}, {6}};
      RuleLossQuery q;
      q.logits = logits;
      q.positive = positive;
      q.rule_logit = logits == 1 ? std::vector<int>{0, 0, 0, 0} : std::vector<int>{1, 2, 0, 1};
      q.rule_sign = {1, -1, 1, -1};
      q.intercepts = logits == 1 ? std::vector<double>{-0.4} : std::vector<double>{0.1, -0.3, 0.2};
      q.rules = {0.7, 1.3, -0.45, 0.2};
      q.curvature = true;
      const std::size_t n = static_cast<std::size_t>(logits) + 4;
      const Eigen::MatrixXd H = curvature_matrix(rule_loss(patterns, classes, q).curvature, n);
      auto gradient = [&](const RuleLossQuery& at) {
        const RuleLossSums s = rule_loss(patterns, classes, at);
        std::vector<double> g = values(s.intercepts);
        for (const ExactSum& r : s.rules) g.push_back(r.value());
        return g;
      };
      const double h = 1e-5;
      for (std::size_t v = 0; v < n; ++v) {
        RuleLossQuery up = q, down = q;
        up.curvature = down.curvature = false;
        if (v < static_cast<std::size_t>(logits)) {
          up.intercepts[v] += h;
          down.intercepts[v] -= h;
        } else {  // the rule's weight moved so that its logit moves by +-h
          const std::size_t k = v - static_cast<std::size_t>(logits);
          up.rules[k] += h * q.rule_sign[k];
          down.rules[k] -= h * q.rule_sign[k];
        }
        const std::vector<double> gu = gradient(up), gd = gradient(down);
        for (std::size_t u = 0; u < n; ++u)
          EXPECT_NEAR(H(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(v)), (gu[u] - gd[u]) / (2 * h), 1e-7)
              << "entry " << u << ", " << v;
      }
      EXPECT_GT(H(0, 0), 0);
      EXPECT_EQ(H(static_cast<Eigen::Index>(logits), static_cast<Eigen::Index>(logits) + 3), 0.0);  // no shared rows
      EXPECT_THROW(curvature_matrix(rule_loss(patterns, classes, q).curvature, n + 1), std::invalid_argument);
    }
  }
}

// A pattern's terms are the same sum whether its weight comes whole (3), in whole parts (1 + 2, the fast integer
// path) or in fractional ones (1.5 + 1.5 and 0.75 + 2.25, exact products): the loss and gradient, bit for bit.
TEST(PatternSums, APatternsWeightSumsAlikeInWholeAndFractionalParts) {
  const std::vector<std::vector<double>> splits{{3}, {1, 2}, {1.5, 1.5}, {0.75, 2.25}};
  RuleLossQuery q;
  q.logits = 3;
  q.rule_logit = {1, 2};
  q.rule_sign = {1, 1};
  q.intercepts = {0.1, -0.3, 0.2};
  q.rules = {0.7, 1.3};
  q.curvature = true;
  std::optional<RuleLossSums> first;
  for (const auto& split : splits) {
    // Each weight of the split is one part's three patterns: classes 0, 1 and 2 under rules {0}, {0, 1} and none,
    // summed as the parts of a fit are.
    RuleLossSums sums;
    for (std::size_t copy = 0; copy < split.size(); ++copy) {
      RowPatterns one;
      one.y = {0, 1, 2};
      one.w.assign(3, split[copy]);
      one.covered = {{0, 1}, {1}};
      const RuleLossSums s = rule_loss(one, 3, q);
      if (copy == 0)
        sums = s;
      else
        sums.merge(s);
    }
    if (!first) {
      first = sums;
      EXPECT_GT(sums.loss.value(), 0);
      continue;
    }
    EXPECT_TRUE(sums.loss == first->loss) << split[0];
    EXPECT_TRUE(sums.intercepts == first->intercepts) << split[0];
    EXPECT_TRUE(sums.rules == first->rules) << split[0];
    // The curvature: bit for bit in whole parts; in fractional ones each part's rounded product is cut alone.
    ASSERT_EQ(sums.curvature.size(), first->curvature.size());
    for (std::size_t e = 0; e < sums.curvature.size(); ++e) {
      if (split[0] == 1)
        EXPECT_TRUE(sums.curvature[e] == first->curvature[e]) << "entry " << e;
      else  // under a step of 2^-52 per fractional term: three patterns in each of two parts
        EXPECT_LT(std::abs(static_cast<double>(sums.curvature[e] - first->curvature[e])), 6.0)
            << split[0] << " entry " << e;
    }
  }
}

// Patterns of whole weights (their terms summed as integers) and of fractional ones (exact products) in one
// call give, bit for bit, the sums of each pattern asked alone and merged: no term is lost or counted twice
// where the two kinds meet under a rule. Binary (the loss and residual from one exponential) and softmax.
TEST(PatternSums, WholeAndFractionalPatternsInOneCallSumAsEachAlone) {
  for (int logits : {1, 3}) {
    SCOPED_TRACE("logits " + std::to_string(logits));
    const std::size_t classes = logits == 1 ? 2 : 3;
    RowPatterns all;
    all.y = {0, 1, 1, 0, static_cast<int>(classes) - 1, 1};
    all.w = {2, 0.75, 5, 1.5, 1, 3.25};
    all.covered = {{0, 1, 2, 4}, {1, 3, 5}, {0, 2, 3, 4, 5}};
    RuleLossQuery q;
    q.logits = logits;
    q.rule_logit = logits == 1 ? std::vector<int>{0, 0, 0} : std::vector<int>{1, 2, 0};
    q.rule_sign = {1, -1, 1};
    q.intercepts = logits == 1 ? std::vector<double>{-0.4} : std::vector<double>{0.1, -0.3, 0.2};
    q.rules = {0.7, 1.3, -0.45};
    std::optional<RuleLossSums> merged;
    for (std::size_t i = 0; i < all.y.size(); ++i) {
      RowPatterns one;
      one.y = {all.y[i]};
      one.w = {all.w[i]};
      for (const auto& rows : all.covered)
        one.covered.push_back(std::find(rows.begin(), rows.end(), i) != rows.end() ? std::vector<std::uint32_t>{0}
                                                                                   : std::vector<std::uint32_t>{});
      const RuleLossSums s = rule_loss(one, classes, q);
      if (merged)
        merged->merge(s);
      else
        merged = s;
    }
    const RuleLossSums together = rule_loss(all, classes, q);
    EXPECT_GT(together.loss.value(), 0);
    EXPECT_TRUE(together.loss == merged->loss);
    EXPECT_TRUE(together.intercepts == merged->intercepts);
    EXPECT_TRUE(together.rules == merged->rules);
    for (const ExactSum& r : together.rules) EXPECT_NE(r.value(), 0.0);
  }
}

// The loss of a problem's rules over its row patterns, as a fit over rows held elsewhere reads it.
RuleDataLoss patterns_loss(const RowPatterns& patterns, const LogisticProblem& rows, std::size_t classes) {
  return [&patterns, &rows, classes](const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& ga,
                                     Eigen::VectorXd& gr, Eigen::MatrixXd* curvature) {
    RuleLossQuery q;
    q.curvature = curvature != nullptr;
    q.logits = rows.logits;
    q.rule_logit = rows.rule_logit;
    q.rule_sign = rows.rule_sign;
    q.intercepts.assign(a.data(), a.data() + a.size());
    q.rules.assign(b.data(), b.data() + b.size());
    const RuleLossSums s = rule_loss(patterns, classes, q);
    ga.resize(a.size());
    gr.resize(b.size());
    for (Eigen::Index j = 0; j < a.size(); ++j) ga[j] = s.intercepts[static_cast<std::size_t>(j)].value();
    for (Eigen::Index k = 0; k < b.size(); ++k) gr[k] = s.rules[static_cast<std::size_t>(k)].value();
    if (curvature) *curvature = curvature_matrix(s.curvature, static_cast<std::size_t>(a.size() + b.size()));
    return s.loss.value();
  };
}

// A problem over rules alone without its rows: their sums and loss stand for them.
LogisticProblem shape_of(const LogisticProblem& rows) {
  LogisticProblem shape = rows;
  shape.y.clear();
  shape.w.clear();
  shape.X.resize(0, 0);
  for (auto& r : shape.rule_rows) r.clear();
  return shape;
}

// Solved from their sums and loss (as a fit over parts solves them), the weights of a problem over rules alone
// are those solve_logistic finds on its rows.
// Proximal Newton steps (solve_rule_logistic) reach the tolerance in a few steps, with rules' signs constrained
// and under a lasso as well.
TEST(PatternSums, SolveRuleLogisticFindsTheWeightsOfTheRows) {
  for (int variant = 0; variant < 6; ++variant) {
    const int logits = variant % 2 == 0 ? 1 : 3;
    const bool sign_constrained = variant / 2 == 1, lasso = variant / 2 == 2;
    SCOPED_TRACE("logits " + std::to_string(logits) + (sign_constrained ? " signs" : "") + (lasso ? " lasso" : ""));
    LogisticProblem rows = random_problem(400, 1, 6, logits, 41u + static_cast<std::uint32_t>(variant));
    rows.X.resize(400, 0);
    rows.sign_constrained = sign_constrained;
    rows.lasso = lasso;
    if (sign_constrained)  // a rule of each sign whose best weight is below zero
      for (std::size_t k = 0; k < 2; ++k) rows.rule_sign[k] = -rows.rule_sign[k];
    const RowPatterns patterns = row_patterns(rows.y, rows.w, rows.rule_rows);
    const auto classes = static_cast<std::size_t>(logits == 1 ? 2 : logits);
    const LogisticProblem shape = shape_of(rows);
    const RuleDataLoss loss = patterns_loss(patterns, rows, classes);
    const SolverOptions tight{1e-10, 100000};
    const LogisticWeights a = solve_logistic(rows, tight);
    const LogisticWeights b = solve_rule_logistic(shape, row_sums(rows), loss, tight);
    EXPECT_NEAR(a.objective, b.objective, 1e-9 * std::abs(a.objective));
    for (Eigen::Index k = 0; k < a.rules.size(); ++k) EXPECT_NEAR(a.rules[k], b.rules[k], 1e-6) << "rule " << k;
    for (Eigen::Index c = 0; c < a.intercepts.size(); ++c) EXPECT_NEAR(a.intercepts[c], b.intercepts[c], 1e-6);
    EXPECT_GT((b.rules.array() != 0).count(), 0);
    if (sign_constrained) {
      EXPECT_GE(b.rules.minCoeff(), 0.0);
      EXPECT_GT((b.rules.array() == 0).count(), 0);  // the bound holds some rule at zero
    }
    EXPECT_LE(b.iterations, 20);
    EXPECT_THROW(solve_rule_logistic(rows, row_sums(rows), loss, tight), std::invalid_argument);  // rows given
  }
}

// A label no training row has keeps a finite intercept: half an example of it, covered by no rule, joins the rows,
// so that at the optimum the rows and that half example predict it, summed, half an example; the labels with rows
// keep their optimum (the intercepts' gradient with the half example's vanishes). Softmax with a class missing,
// and binary with every row of one label.
TEST(PatternSums, SolveRuleLogisticPredictsALabelNoRowHasAsHalfAnExample) {
  for (int logits : {1, 3}) {
    SCOPED_TRACE("logits " + std::to_string(logits));
    LogisticProblem rows = random_problem(300, 1, 5, logits, 61u + static_cast<std::uint32_t>(logits));
    rows.X.resize(300, 0);
    const int missing = 1;
    for (int& y : rows.y)
      if (y == missing) y = 0;
    const auto classes = static_cast<std::size_t>(logits == 1 ? 2 : logits);
    const RowPatterns patterns = row_patterns(rows.y, rows.w, rows.rule_rows);
    const RuleDataLoss loss = patterns_loss(patterns, rows, classes);
    const LogisticWeights solved = solve_rule_logistic(shape_of(rows), row_sums(rows), loss, {1e-9, 1000});
    ASSERT_TRUE(solved.intercepts.allFinite());
    Eigen::VectorXd ga, gr;
    loss(solved.intercepts, solved.rules, ga, gr, nullptr);
    // The half example's probabilities, from its logits: the intercepts alone.
    std::vector<double> half;
    logit_probabilities(solved.intercepts.data(), logits, half);
    for (int j = 0; j < logits; ++j) {
      // The rows' residuals (binary: the rows' summed probability of label 1, every row being of label 0).
      const double label = logits == 1 ? 1.0 : (j == missing ? 1.0 : 0.0);
      const double p = logits == 1 ? half[1] : half[static_cast<std::size_t>(j)];
      EXPECT_NEAR(ga[j] + 0.5 * (p - label), 0.0, 1e-6) << "logit " << j;
    }
    const double predicted = logits == 1 ? ga[0] : ga[missing];  // the rows' summed probability of the label
    EXPECT_GT(predicted, 0.25);
    EXPECT_LT(predicted, 0.5);
  }
}

TEST(AttributeEncoding, FollowsTheDocumentedPolicy) {
  const std::string path = test::write_temp("encoding.arff",
                                            "@relation e\n@attribute x numeric\n@attribute c {a,b,z}\n"
                                            "@attribute k numeric\n@attribute cls {p,n}\n@data\n"
                                            "1,a,5,p\n3,b,5,n\n?,?,5,p\n5,a,5,n\n");
  const Dataset d = read_arff(path);
  const AttributeEncoding e = AttributeEncoding::fit(d);
  // x: standardised on 1, 3, 5 (mean 3, sd sqrt(8/3)) plus a missing indicator; c: a and b (z never seen)
  // plus a missing indicator; k: constant, left out.
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e.name(0, d.schema), "x");
  EXPECT_EQ(e.name(1, d.schema), "x missing");
  EXPECT_EQ(e.name(2, d.schema), "c = a");
  EXPECT_EQ(e.name(3, d.schema), "c = b");
  EXPECT_EQ(e.name(4, d.schema), "c missing");
  EXPECT_NEAR(e.value(d, 0, 0), (1 - 3) / std::sqrt(8.0 / 3.0), 1e-12);
  EXPECT_EQ(e.value(d, 2, 0), 0.0);  // missing: the mean
  EXPECT_EQ(e.value(d, 2, 1), 1.0);
  EXPECT_EQ(e.value(d, 2, 2), 0.0);
  EXPECT_EQ(e.value(d, 2, 4), 1.0);
  EXPECT_EQ(e.value(d, 1, 3), 1.0);
  const AttributeEncoding back = AttributeEncoding::from_json(e.to_json(d.schema), d.schema);
  for (std::size_t r = 0; r < d.rows(); ++r)
    for (std::size_t c = 0; c < e.size(); ++c) EXPECT_EQ(back.value(d, r, c), e.value(d, r, c));
}

TEST(RuleLogistic, SavesLoadsExplainsAndIgnoresThreads) {
  for (const char* file : {"credit-a.arff", "iris.arff"}) {
    const Dataset d = read_arff(test::shared(file));
    for (const MulticlassForm multiclass : {MulticlassForm::softmax, MulticlassForm::one_vs_rest}) {
      LearnerParams p;
      p.learner = "rule-logistic";
      p.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes;  // lambda by cross-validation
      p.multiclass = multiclass;
      p.evc.permutations = 20;
      const auto one = fit_model(d, p, 1);
      const auto two = fit_model(d, p, 2);
      EXPECT_EQ(one->to_json(), two->to_json()) << file;
      const auto& m = dynamic_cast<const LogisticRuleModel&>(*one);
      EXPECT_GT(m.rule_count() + m.rules_without_weight, 0u);  // the attributes may leave every rule at weight 0
      EXPECT_GT(m.lambda, 0);
      // The search tried lambdas from the largest down, and chose the one of least cross-validated loss.
      ASSERT_EQ(m.lambda_search.log_loss.size(), m.lambda_search.grid.size());
      ASSERT_GE(m.lambda_search.grid.size(), 3u);
      EXPECT_EQ(m.lambda_search.grid.front(), lambda_grid().front());
      const auto best = std::min_element(m.lambda_search.log_loss.begin(), m.lambda_search.log_loss.end());
      EXPECT_EQ(m.lambda, m.lambda_search.grid[static_cast<std::size_t>(best - m.lambda_search.log_loss.begin())]);
      const std::string path =
          test::write_temp(std::string("rl-") + file + name_of(kMulticlassNames, multiclass) + ".json", "");
      save_model(*one, path);
      const auto back = load_model(path);
      EXPECT_EQ(back->kind_name(), "rule-logistic");
      EXPECT_EQ(back->to_json(), one->to_json());
      double right = 0;
      for (std::size_t r = 0; r < d.rows(); ++r) {
        const auto proba = one->predict_proba(d, r);
        EXPECT_EQ(back->predict_proba(d, r), proba);
        EXPECT_NEAR(std::accumulate(proba.begin(), proba.end(), 0.0), 1.0, 1e-12);
        right += one->predict(d, r) == d.y[r];
      }
      EXPECT_GT(right / static_cast<double>(d.rows()), 0.85) << file;
      const auto parts = one->explain(d, 0);
      ASSERT_FALSE(parts.empty());
      EXPECT_LE(parts.size(), 5u);
      EXPECT_NE(model_text(*one).find(m.rule_count() > 0 ? "Rules, most important first" : "No rules with a weight"),
                std::string::npos);
      if (d.num_classes() == 2) break;  // one-vs-rest is the binary model for two classes
    }
  }
}

// With the penalty, the mean predicted probability of a rule's class on the training examples it covers
// never passes its EVC-corrected probability by more than lambda's pull (eq. 22): the learner end to end.
TEST(RuleLogistic, PredictionsOnARuleStayAtItsCorrectedProbability) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().features = LogisticFeatures::rules;
  p.options<LinearOptions>().lambda = 1e-6;
  p.evc.permutations = 20;
  const auto model = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*model);
  int checked = 0;
  for (std::size_t k = 0; k < m.rules.rules.size(); ++k) {
    const Rule& r = m.rules.rules[k];
    const double weight = r.klass == 1 ? m.rule_weights(0, static_cast<Eigen::Index>(k))
                                       : -m.rule_weights(0, static_cast<Eigen::Index>(k));
    if (weight <= 1e-3) continue;
    double n = 0, sum = 0;
    for (std::size_t row = 0; row < d.rows(); ++row)
      if (r.covers(d, row)) {
        n += 1;
        sum += m.predict_proba(d, row)[static_cast<std::size_t>(r.klass)];
      }
    EXPECT_NEAR(sum / n, r.probability, 2e-3) << "rule " << k + 1;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// Dropping the rules the penalties leave at weight 0 is exact: the other weights are the optimum of the
// problem without those columns. Checked on random problems in which the class sign and gamma zero some
// rules, binary and softmax.
TEST(LogisticSolver, RulesAtWeightZeroCanBeLeftOut) {
  int zeroed = 0;
  for (int logits : {1, 3}) {
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
      LogisticProblem full = random_problem(150, 2, 12, logits, seed);
      full.lambda = 0.5;
      full.sign_constrained = true;
      // Half the rules claim a probability far below their share: a large gamma, so a useless weight.
      for (std::size_t k = 0; k < full.rule_q.size(); k += 2) full.rule_q[k] *= 0.3;
      const LogisticWeights w = solve_logistic(full, SolverOptions{1e-9, 20000});
      LogisticProblem reduced = full;
      reduced.rule_rows.clear();
      reduced.rule_logit.clear();
      reduced.rule_sign.clear();
      reduced.rule_q.clear();
      std::vector<Eigen::Index> kept;
      for (std::size_t k = 0; k < full.rule_q.size(); ++k) {
        if (w.rules[static_cast<Eigen::Index>(k)] == 0.0) continue;
        kept.push_back(static_cast<Eigen::Index>(k));
        reduced.rule_rows.push_back(full.rule_rows[k]);
        reduced.rule_logit.push_back(full.rule_logit[k]);
        reduced.rule_sign.push_back(full.rule_sign[k]);
        reduced.rule_q.push_back(full.rule_q[k]);
      }
      zeroed += static_cast<int>(full.rule_q.size() - kept.size());
      const LogisticWeights v = solve_logistic(reduced, SolverOptions{1e-9, 20000});
      EXPECT_NEAR(v.objective, w.objective, 1e-7 * std::abs(w.objective)) << logits << " " << seed;
      for (Eigen::Index j = 0; j < w.intercepts.size(); ++j) EXPECT_NEAR(v.intercepts[j], w.intercepts[j], 1e-4);
      for (std::size_t i = 0; i < kept.size(); ++i)
        EXPECT_NEAR(v.rules[static_cast<Eigen::Index>(i)], w.rules[kept[i]], 1e-4) << logits << " " << seed;
    }
  }
  EXPECT_GT(zeroed, 5);  // the check above had rules to leave out
}

// The rule-logistic learner keeps only the rules it predicts with: each has a weight, and with those it
// dropped they are the rule learner's rules, each once; they are numbered by importance, the order `candor
// rules` lists them in.
TEST(RuleLogistic, DropsTheRulesThePenaltiesLeftAtWeightZero) {
  const Dataset d = read_arff(test::shared("soybean.arff"));
  LearnerParams p;
  p.learner = "rule-logistic";
  const auto model = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*model);
  EXPECT_GT(m.rules_without_weight, 0u);
  for (std::size_t k = 0; k < m.rule_count(); ++k) EXPECT_NE(m.own_class_weight(k), 0.0) << "rule " << k + 1;
  const auto rule_learner = fit_model(d, params_from_json(m.rules.learner), 2);
  const auto& all = dynamic_cast<const RuleModel&>(*rule_learner).rules;
  ASSERT_EQ(all.size(), m.rule_count() + m.rules_without_weight);
  std::set<std::size_t> found;  // each kept rule is one of the rule learner's, no two the same one
  for (const Rule& r : m.rules.rules) {
    std::size_t at = 0;
    while (at < all.size() && (found.count(at) || !(all[at].conditions == r.conditions && all[at].klass == r.klass)))
      ++at;
    ASSERT_LT(at, all.size()) << format_rule(r, d.schema);
    found.insert(at);
  }
  for (std::size_t k = 1; k < m.rule_count(); ++k)
    EXPECT_GE(m.rule_importance(k - 1), m.rule_importance(k)) << "rule " << k + 1;
  const auto back = model_from_json(model->to_json(), "m.json");
  EXPECT_EQ(dynamic_cast<const LogisticRuleModel&>(*back).rules_without_weight, m.rules_without_weight);
  EXPECT_NE(model_text(m).find(std::to_string(m.rules_without_weight) + " more rules the rule learner found had "
                                                                        "weight 0"),
            std::string::npos);
}

// Labels drawn independently of six four-valued attributes: nothing is there to learn. Rules kept without
// stopping or correction fit the rows they were searched on, so a cross-validation that weighs those rules
// on their own rows (--lambda-search model) sees a held-out log loss far below log 2 and chooses a weak
// penalty. --lambda-search refit finds the rules again on each fold's training rows: the held-out rows were
// never searched, their loss is log 2 or worse, and it chooses the strongest penalty of the grid.
TEST(RuleLogistic, RefitSearchScoresRulesOnRowsTheyNeverSaw) {
  std::mt19937 random(5);
  std::string csv = "a0,a1,a2,a3,a4,a5,class\n";
  for (int r = 0; r < 200; ++r) {
    for (int a = 0; a < 6; ++a) csv += std::string(1, "wxyz"[random() % 4]) + ",";
    csv += random() % 2 ? "p\n" : "n\n";
  }
  const Dataset d = read_csv(test::write_temp("noise.csv", csv));
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().rule_penalty = RulePenalty::none;
  p.rule_covering.stop = Stopping::none;
  p.correct = Correction::none;
  p.options<LinearOptions>().lambda_search = LambdaSearchOn::model;
  const auto fixed_rules = fit_model(d, p, 2);
  p.options<LinearOptions>().lambda_search = LambdaSearchOn::refit;
  const auto refit = fit_model(d, p, 2);
  EXPECT_EQ(refit->to_json(), fit_model(d, p, 1)->to_json());  // threads never change the model
  const auto& on_own_rows = dynamic_cast<const LogisticRuleModel&>(*fixed_rules);
  const auto& on_new_rows = dynamic_cast<const LogisticRuleModel&>(*refit);
  ASSERT_GT(on_own_rows.rule_count(), 20u);
  const auto least = [](const LambdaSearch& s) { return *std::min_element(s.log_loss.begin(), s.log_loss.end()); };
  EXPECT_LT(least(on_own_rows.lambda_search), 0.5);  // rules searched on the held-out rows look predictive
  EXPECT_LT(on_own_rows.lambda, 10.0);
  EXPECT_EQ(on_new_rows.lambda_search.on, LambdaSearchOn::refit);
  EXPECT_EQ(on_new_rows.lambda_search.folds, 5);
  EXPECT_GE(least(on_new_rows.lambda_search), std::log(2.0) - 0.01);
  EXPECT_EQ(on_new_rows.lambda, lambda_grid().front());
  EXPECT_NE(model_text(*refit).find("its rules found again in each fold"), std::string::npos);
  // Fewer rows than folds: the message names the option, for either search.
  const Dataset three = read_csv(test::write_temp("three.csv", "a,class\n1,p\n2,n\n3,p\n"));
  for (const LambdaSearchOn on : {LambdaSearchOn::model, LambdaSearchOn::refit}) {
    p.options<LinearOptions>().lambda_search = on;
    try {
      fit_model(three, p, 1);
      ADD_FAILURE() << "three rows fitted with five folds";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--lambda-folds 5: the lambda search has only 3 rows"), std::string::npos)
          << e.what();
    }
  }
  // Found again per fold, the rules and the weights must come from the same rows.
  p.options<LinearOptions>().rule_data = RuleData::half;
  EXPECT_THROW(validate(p), std::invalid_argument);
}

// The mean predicted probability of rule k's class over the rows it covers, and its rows.
std::pair<double, double> mean_prediction_on_rule(const LogisticRuleModel& m, const Dataset& d, std::size_t k) {
  const Rule& r = m.rules.rules[k];
  double n = 0, sum = 0;
  for (std::size_t row = 0; row < d.rows(); ++row)
    if (r.covers(d, row)) {
      n += 1;
      sum += m.predict_proba(d, row)[static_cast<std::size_t>(r.klass)];
    }
  return {sum / n, n};
}

// --rule-penalty relaxed with a lambda given: the gamma penalty chooses the rules, an L2 penalty alone weighs
// them. The weights are then the L2 optimum over those rules (the gradient of the summed log loss plus lambda/2
// times the squared weights vanishes at every weight the class sign leaves free, and at the intercept), so
// no rule is held at its corrected probability any more: some rule's rows are predicted above it. Each rule
// keeps the gamma that chose it, and the model file reads back to the same predictions and text.
TEST(RuleLogistic, RelaxedWeighsTheGammaPenaltysRulesUnderAnL2PenaltyAlone) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().rule_penalty = RulePenalty::relaxed;
  p.options<LinearOptions>().lambda = 1;
  const auto model = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*model);
  EXPECT_EQ(m.settings.rule_penalty, RulePenalty::relaxed);
  EXPECT_EQ(m.lambda, 1.0);
  EXPECT_TRUE(m.lambda_search.grid.empty());
  ASSERT_GT(m.rule_count(), 5u);
  EXPECT_GT(m.rules_without_weight, 0u);  // the gamma stage dropped rules
  // The L2 optimality conditions on the training rows (binary: one logit, of class value 1).
  std::vector<double> residual(d.rows());
  double intercept_gradient = 0;
  for (std::size_t row = 0; row < d.rows(); ++row) {
    residual[row] = m.predict_proba(d, row)[1] - (d.y[row] == 1 ? 1.0 : 0.0);
    intercept_gradient += residual[row];
  }
  EXPECT_NEAR(intercept_gradient, 0.0, 0.1);
  bool above_its_probability = false;
  for (std::size_t k = 0; k < m.rule_count(); ++k) {
    const Rule& r = m.rules.rules[k];
    const double theta = m.rule_weights(0, static_cast<Eigen::Index>(k));
    double gradient = m.lambda * theta;
    for (std::size_t row = 0; row < d.rows(); ++row)
      if (r.covers(d, row)) gradient += residual[row];
    const auto [mean, n] = mean_prediction_on_rule(m, d, k);
    EXPECT_NEAR(gradient, 0.0, 0.05 * std::sqrt(n)) << "rule " << k + 1 << " weight " << theta;
    above_its_probability |= mean > r.probability + 0.01;
    EXPECT_GT(m.rule_gamma[k], 0.0) << "rule " << k + 1;
  }
  EXPECT_TRUE(above_its_probability);
  const auto back = model_from_json(model->to_json(), "relaxed.json");
  EXPECT_EQ(model_text(*back), model_text(*model));
  for (std::size_t r = 0; r < 30; ++r) EXPECT_EQ(back->predict_proba(d, r), model->predict_proba(d, r));
}

// --rule-penalty relaxed searches its L2 lambda by refit (its default), where the gamma penalty's own weights
// compete: on lymph (148 rows) their held-out loss is the lowest and the model keeps them, each rule's rows
// then predicted at most at its corrected probability as under the default; on labor an L2 lambda wins.
// Threads never change the model; the search's losses are in the model file and its text.
TEST(RuleLogistic, RelaxedKeepsTheGammaWeightsWhereTheyCrossValidateBest) {
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().rule_penalty = RulePenalty::relaxed;
  p.options<LinearOptions>().lambda_folds = 2;
  const Dataset lymph = read_arff(test::shared("lymph.arff"));
  const std::size_t calibrations_reused = evc_cache_hits();
  const auto kept = fit_model(lymph, p, 2);
  // Each fold's rules are corrected by the calibration of all the rows, which the model's own rules computed.
  EXPECT_GE(evc_cache_hits() - calibrations_reused, 2u);
  EXPECT_EQ(kept->to_json(), fit_model(lymph, p, 1)->to_json());
  const auto& k = dynamic_cast<const LogisticRuleModel&>(*kept);
  EXPECT_EQ(k.lambda_search.on, LambdaSearchOn::refit);
  ASSERT_TRUE(k.lambda_search.gamma_log_loss.has_value());
  EXPECT_TRUE(k.lambda_search.keeps_gamma());
  EXPECT_EQ(k.lambda, 0.01);
  ASSERT_GT(k.rule_count(), 3u);
  for (std::size_t r = 0; r < k.rule_count(); ++r)
    if (k.own_class_weight(r) > 1e-3)
      EXPECT_LE(mean_prediction_on_rule(k, lymph, r).first, k.rules.rules[r].probability + 2e-3) << "rule " << r + 1;
  EXPECT_NE(model_text(k).find("its own weights are kept"), std::string::npos);
  EXPECT_EQ(kept->to_json()["lambda_search"]["gamma_log_loss"].get<double>(), *k.lambda_search.gamma_log_loss);

  const Dataset labor = read_arff(test::shared("labor.arff"));
  const auto weighed = fit_model(labor, p, 2);
  const auto& w = dynamic_cast<const LogisticRuleModel&>(*weighed);
  ASSERT_TRUE(w.lambda_search.gamma_log_loss.has_value());
  EXPECT_FALSE(w.lambda_search.keeps_gamma());
  EXPECT_LT(*std::min_element(w.lambda_search.log_loss.begin(), w.lambda_search.log_loss.end()),
            *w.lambda_search.gamma_log_loss);
  EXPECT_NE(std::find(w.lambda_search.grid.begin(), w.lambda_search.grid.end(), w.lambda), w.lambda_search.grid.end());
  EXPECT_NE(model_text(w).find("an L2 penalty alone weighs them"), std::string::npos);
  const auto back = model_from_json(weighed->to_json(), "labor.json");
  EXPECT_EQ(back->to_json(), weighed->to_json());

  // What it cannot be combined with, each refused with the reason.
  for (const auto& change : std::vector<std::function<void(LearnerParams&)>>{
           [](LearnerParams& q) { q.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes; },
           [](LearnerParams& q) { q.options<LinearOptions>().lambda_search = LambdaSearchOn::model; },
           [](LearnerParams& q) { q.options<LinearOptions>().penalty = LogisticPenalty::l1; },
           [](LearnerParams& q) { q.stable.resamples = 5; }}) {
    LearnerParams bad = p;
    change(bad);
    EXPECT_THROW(validate(bad), std::invalid_argument);
  }
}

TEST(RuleLogistic, VariantsAndChecks) {
  const Dataset d = read_arff(test::shared("credit-a.arff"));
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().features = LogisticFeatures::attributes;
  const auto lr = fit_model(d, p, 2);
  EXPECT_EQ(lr->rule_count(), 0u);
  const auto back = model_from_json(lr->to_json(), "lr.json");
  for (std::size_t r = 0; r < 20; ++r) EXPECT_EQ(back->predict_proba(d, r), lr->predict_proba(d, r));

  p.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes;
  p.options<LinearOptions>().rule_data = RuleData::half;
  p.options<LinearOptions>().rule_penalty = RulePenalty::none;
  p.heuristics.quality = "m-estimate";
  p.heuristics.m = 22;
  p.heuristics.m_scale = 0;
  p.options<LinearOptions>().lambda = 1;
  const auto half = fit_model(d, p, 2);
  const auto& m = dynamic_cast<const LogisticRuleModel&>(*half);
  EXPECT_LT(m.rules.training_rows, d.rows());  // the rules saw half the rows
  EXPECT_EQ(m.lambda, 1.0);
  for (double g : m.rule_gamma) EXPECT_EQ(g, 0.0);

  LearnerParams bad;
  bad.learner = "cn2-unordered";
  bad.options<LinearOptions>().lambda = 2;  // cn2-unordered has no lambda
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = LearnerParams{};
  bad.learner = "rule-logistic";
  EXPECT_THROW(params_from_json({{"learner", "rule-logistic"}, {"features", "trees"}}), std::invalid_argument);
  bad.options<LinearOptions>().lambda_folds = 1;
  EXPECT_THROW(validate(bad), std::invalid_argument);
  // A rule learner's fit refuses it rather than returning a rule model.
  LearnerParams rl;
  rl.learner = "rule-logistic";
  EXPECT_THROW(fit(d, rl), std::invalid_argument);
}

TEST(ModelFile, UnknownKindIsRefusedWithTheKnownOnes) {
  nlohmann::json j{{"format", "candor-model"}, {"version", 1}, {"model", "forest"}};
  try {
    model_from_json(j, "m.json");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("m.json"), std::string::npos);
    EXPECT_NE(what.find("unknown model kind 'forest'"), std::string::npos);
    EXPECT_NE(what.find("rule-logistic"), std::string::npos);
  }
}

TEST(ModelFile, MalformedLogisticModelsAreRefused) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  LearnerParams p;
  p.learner = "rule-logistic";
  p.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes;  // attribute weights to break
  p.evc.permutations = 10;
  const nlohmann::json good = fit_model(d, p, 2)->to_json();
  auto refused = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& fragment) {
    nlohmann::json j = good;
    edit(j);
    try {
      model_from_json(j, "bad.json");
      ADD_FAILURE() << "accepted a model with " << fragment;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  refused([](nlohmann::json& j) { j["class"]["values"] = nlohmann::json::array(); }, "the class has no values");
  refused([](nlohmann::json& j) { j["training"]["class_counts"][0] = -3; }, "non-negative");
  refused([](nlohmann::json& j) { j["lambda"] = -1; }, "lambda");
  refused([](nlohmann::json& j) { j["intercepts"].push_back(0.0); }, "intercepts");
  refused([](nlohmann::json& j) { j["attribute_weights"][0][0] = std::numeric_limits<double>::infinity(); },
          "attribute_weights");
  refused([](nlohmann::json& j) { j["rule_gamma"].push_back(1.0); }, "rule_gamma");
  refused([](nlohmann::json& j) { j["attribute_columns"][0]["attribute"] = "nope"; }, "unknown attribute 'nope'");
  refused([](nlohmann::json& j) { j["link"] = "probit"; }, "unknown link");
  refused([](nlohmann::json& j) { j["attribute_columns"][0]["sd"] = 0; }, "positive sd");
}
