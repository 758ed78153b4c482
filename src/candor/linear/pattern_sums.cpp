#include "candor/linear/pattern_sums.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "candor/linear/penalised_logistic.hpp"

namespace candor {

namespace {

using Steps = CurvatureSteps;  // a count of a grid's steps (GCC's and Clang's 128-bit integer)
__extension__ typedef unsigned __int128 UnsignedSteps;

// An exact sum of terms w x, each x first cut (toward zero) to a whole number of steps of 2^-grid_bits. A term of
// a whole-number weight below 2^31 and fewer than 2^52 steps is added as w times its steps to a 128-bit integer
// (a few instructions); any other, as the exact product of w and its cut x, to an ExactSum (ten times as long).
// Both hold the exact sum of the cut terms, so the total does not depend on which terms went where: the terms of
// the patterns of parts, whose weights sum to a pattern of the whole, give the whole's total. Cutting moves a
// term by under w 2^-grid_bits, which the solver cannot see (a residual lies within [-1, 1]).
class GridSum {
 public:
  explicit GridSum(int grid_bits)
      : grid_bits_(grid_bits), scale_(std::ldexp(1.0, grid_bits)), step_(std::ldexp(1.0, -grid_bits)) {}
  // w x as a 128-bit integer of steps, when `whole` (w as an integer when it is a whole number in [0, 2^31), else
  // -1) is one and x is under 2^52 steps: the term `add` adds to its integer sum, and `add_steps` adds again.
  std::optional<Steps> steps_of(std::int64_t whole, double x) const {
    const double scaled = x * scale_;  // exact: a power of two
    if (whole < 0 || !(std::abs(scaled) < kMaxSteps)) return std::nullopt;
    return static_cast<Steps>(whole) * static_cast<std::int64_t>(scaled);  // toward zero
  }
  void add_steps(Steps steps) { small_ += steps; }
  void add(double w, std::int64_t whole, double x) {
    if (const auto steps = steps_of(whole, x)) {
      small_ += *steps;
      return;
    }
    const double scaled = x * scale_;
    // |x| of 2^52 steps or more is a whole number of steps already (its last bit weighs a step or more).
    const double cut =
        std::abs(scaled) < kMaxSteps ? static_cast<double>(static_cast<std::int64_t>(scaled)) * step_ : x;
    rest_.add_product(w, cut);  // both exact
  }
  ExactSum total() const {
    ExactSum out = rest_;
    const bool negative = small_ < 0;
    auto magnitude = static_cast<UnsignedSteps>(negative ? -small_ : small_);
    // In 32-bit pieces, each exact in a double.
    for (int piece = 0; magnitude != 0; ++piece, magnitude >>= 32) {
      const double d = std::ldexp(static_cast<double>(static_cast<std::uint32_t>(magnitude)), 32 * piece - grid_bits_);
      out.add(negative ? -d : d);
    }
    return out;
  }

 private:
  static constexpr double kMaxSteps = 0x1p52;
  int grid_bits_;
  double scale_, step_;
  Steps small_ = 0;
  ExactSum rest_;
};

// The grids: residuals lie within [-1, 1]; a pattern's cross-entropy is below 2^8 in all but absurd fits.
constexpr int kResidualGridBits = 52;
constexpr int kLossGridBits = 44;

std::int64_t whole_weight(double w) {
  return w >= 0 && w < 0x1p31 && std::trunc(w) == w ? static_cast<std::int64_t>(w) : -1;
}

std::size_t class_of(const RowPatterns& patterns, std::size_t q, std::size_t classes) {
  const int y = patterns.y[q];
  if (y < 0 || static_cast<std::size_t>(y) >= classes)
    throw std::invalid_argument("pattern sums: a class out of range");
  return static_cast<std::size_t>(y);
}

// The curvature of rule_loss (RuleLossSums::curvature) from each pattern's probabilities (binary: p (1 - p)).
// A term is an integer of steps of 2^-52: a whole weight times its entry's steps (d p / d eta lies within
// [-1/4, 1/4]: fewer than 2^52 steps, so the product is exact), or the rounded product of any other weight and
// its entry, cut. Each pattern adds its term to every pair of the variables that reach it.
std::vector<CurvatureSteps> curvature_sums(const RowPatterns& patterns, std::size_t L,
                                           const std::vector<int>& rule_logit, const std::vector<double>& probabilities,
                                           const std::vector<std::int64_t>& whole) {
  const std::size_t n = patterns.y.size(), rules = patterns.covered.size(), variables = L + rules;
  // Each pattern's variables, ascending: its logits' intercepts, then the rules that cover it.
  std::vector<std::size_t> start(n + 1, 0);
  for (const auto& covered : patterns.covered)
    for (std::uint32_t i : covered) ++start[i + 1];
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<std::uint32_t> rules_of(start[n]);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < rules; ++k)
      for (std::uint32_t i : patterns.covered[k]) rules_of[next[i]++] = static_cast<std::uint32_t>(k);
  }
  const double scale = std::ldexp(1.0, kResidualGridBits);
  std::vector<CurvatureSteps> steps(variables * (variables + 1) / 2, 0);
  std::vector<std::size_t> vars;
  std::vector<std::size_t> logit_of(variables);
  for (std::size_t j = 0; j < L; ++j) logit_of[j] = j;
  for (std::size_t k = 0; k < rules; ++k) logit_of[L + k] = static_cast<std::size_t>(rule_logit[k]);
  std::vector<CurvatureSteps> term(L * L);
  for (std::size_t i = 0; i < n; ++i) {
    const double* p = probabilities.data() + i * L;
    const double w = patterns.w[i];
    // The pattern's term for each pair of logits: w d p_j / d eta_j' = w p_j (delta_jj' - p_j').
    for (std::size_t j = 0; j < L; ++j)
      for (std::size_t jj = j; jj < L; ++jj) {
        const double h = L == 1 ? p[0] : p[j] * ((j == jj ? 1.0 : 0.0) - p[jj]);
        if (whole[i] < 0 && !(std::abs(w * h) < 0x1p70))
          throw std::invalid_argument("rule loss: a pattern's weight too large for its curvature");
        const CurvatureSteps t = whole[i] >= 0
                                     ? static_cast<CurvatureSteps>(whole[i]) * static_cast<std::int64_t>(h * scale)
                                     : static_cast<CurvatureSteps>(std::trunc(w * h * scale));
        term[j * L + jj] = term[jj * L + j] = t;
      }
    vars.clear();
    for (std::size_t j = 0; j < L; ++j) vars.push_back(j);
    for (std::size_t x = start[i]; x < start[i + 1]; ++x) vars.push_back(L + rules_of[x]);
    for (std::size_t a = 0; a < vars.size(); ++a) {
      const std::size_t u = vars[a];
      const CurvatureSteps* by_logit = term.data() + logit_of[u] * L;
      for (std::size_t b = a; b < vars.size(); ++b)
        steps[curvature_index(u, vars[b], variables)] += by_logit[logit_of[vars[b]]];
    }
  }
  return steps;
}

}  // namespace

void PatternWeights::merge(const PatternWeights& other) {
  candor::merge(classes, other.classes);
  if (rules.size() != other.rules.size()) throw std::invalid_argument("pattern sums: sums of another rule list");
  for (std::size_t k = 0; k < rules.size(); ++k) candor::merge(rules[k], other.rules[k]);
}

PatternWeights pattern_weights(const RowPatterns& patterns, std::size_t classes) {
  PatternWeights out;
  out.classes.resize(classes);
  out.rules.assign(patterns.covered.size(), std::vector<ExactSum>(classes));
  for (std::size_t q = 0; q < patterns.y.size(); ++q) out.classes[class_of(patterns, q, classes)].add(patterns.w[q]);
  for (std::size_t k = 0; k < patterns.covered.size(); ++k)
    for (std::uint32_t q : patterns.covered[k]) out.rules[k][class_of(patterns, q, classes)].add(patterns.w[q]);
  return out;
}

void RuleLossSums::merge(const RuleLossSums& other) {
  loss.merge(other.loss);
  candor::merge(intercepts, other.intercepts);
  candor::merge(rules, other.rules);
  if (curvature.empty()) curvature.assign(other.curvature.size(), 0);
  if (curvature.size() != other.curvature.size()) throw std::invalid_argument("rule loss: a curvature of another size");
  for (std::size_t e = 0; e < curvature.size(); ++e) curvature[e] += other.curvature[e];
}

RuleLossSums rule_loss(const RowPatterns& patterns, std::size_t classes, const RuleLossQuery& q) {
  const std::size_t rules = patterns.covered.size();
  if (q.logits < 1 || (q.logits > 1 && static_cast<std::size_t>(q.logits) != classes) ||
      q.intercepts.size() != static_cast<std::size_t>(q.logits))
    throw std::invalid_argument("rule loss: an intercept per logit, one logit or one per class");
  if (q.rule_logit.size() != rules || q.rule_sign.size() != rules || q.rules.size() != rules)
    throw std::invalid_argument("rule loss: a logit, sign and weight per rule of the patterns");
  if (q.positive >= static_cast<int>(classes) || (q.positive >= 0 && q.logits != 1) ||
      (q.positive < 0 && q.logits == 1 && classes != 2))
    throw std::invalid_argument("rule loss: a binary problem's label 1 is one class");
  const auto L = static_cast<std::size_t>(q.logits);
  for (int j : q.rule_logit)
    if (j < 0 || static_cast<std::size_t>(j) >= L)
      throw std::invalid_argument("rule loss: a rule's logit out of range");

  // Each pattern's logits, its rules added in rule order, as the solver over rows adds them.
  const std::size_t n = patterns.y.size();
  std::vector<double> eta(n * L);
  for (std::size_t i = 0; i < n; ++i) std::copy(q.intercepts.begin(), q.intercepts.end(), eta.begin() + i * L);
  for (std::size_t k = 0; k < rules; ++k) {
    const double add = q.rule_sign[k] * q.rules[k];
    const auto j = static_cast<std::size_t>(q.rule_logit[k]);
    for (std::uint32_t i : patterns.covered[k]) {
      if (i >= n) throw std::invalid_argument("rule loss: a rule covers a pattern past the patterns");
      eta[i * L + j] += add;
    }
  }
  // eta becomes each pattern's residuals p_ij - y_ij (of one row of it); every term enters its sum times the
  // pattern's weight (GridSum).
  std::vector<std::int64_t> whole(n);
  for (std::size_t i = 0; i < n; ++i) whole[i] = whole_weight(patterns.w[i]);
  GridSum loss(kLossGridBits);
  std::vector<GridSum> intercepts(L, GridSum(kResidualGridBits)), rule_sums(rules, GridSum(kResidualGridBits));
  // Each residual's term as an integer of steps, summed into every rule that covers its pattern at the cost of an
  // addition; a term that is not one (a weight that is not whole, or a residual too large) stays 0 there and
  // is added by GridSum.
  std::vector<Steps> steps(n * L, 0);
  std::vector<char> by_grid(n * L, 0);
  bool any_by_grid = false;
  // With the curvature asked for: each pattern's probabilities (binary: p (1 - p), the one entry it needs).
  std::vector<double> probabilities(q.curvature ? n * L : 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = class_of(patterns, i, classes);
    const std::size_t label = q.positive < 0 ? c : (c == static_cast<std::size_t>(q.positive) ? 1 : 0);
    const double w = patterns.w[i];
    double* e = eta.data() + i * L;
    if (L == 1) {
      // softplus and sigmoid (penalised_logistic.hpp) from one exponential, exp(-|x|), to the same bits.
      const double x = e[0];
      const double t = std::exp(-std::abs(x));
      loss.add(w, whole[i], (x > 0 ? x + std::log1p(t) : std::log1p(t)) - (label == 1 ? x : 0.0));
      e[0] = (x >= 0 ? 1.0 / (1.0 + t) : t / (1.0 + t)) - (label == 1 ? 1.0 : 0.0);
      if (q.curvature) probabilities[i] = t / ((1.0 + t) * (1.0 + t));
    } else {
      const double m = *std::max_element(e, e + L);
      const double label_logit = e[label];
      double sum = 0;
      for (std::size_t j = 0; j < L; ++j) {
        e[j] = std::exp(e[j] - m);
        sum += e[j];
      }
      loss.add(w, whole[i], m + std::log(sum) - label_logit);
      for (std::size_t j = 0; j < L; ++j) {
        if (q.curvature) probabilities[i * L + j] = e[j] / sum;
        e[j] = e[j] / sum - (j == label ? 1.0 : 0.0);
      }
    }
    for (std::size_t j = 0; j < L; ++j) {
      if (const auto s = intercepts[j].steps_of(whole[i], e[j])) {
        steps[i * L + j] = *s;
        intercepts[j].add_steps(*s);
      } else {
        by_grid[i * L + j] = 1;
        any_by_grid = true;
        intercepts[j].add(w, whole[i], e[j]);
      }
    }
  }
  for (std::size_t k = 0; k < rules; ++k) {
    const auto j = static_cast<std::size_t>(q.rule_logit[k]);
    Steps sum = 0;
    for (std::uint32_t i : patterns.covered[k]) sum += steps[i * L + j];
    rule_sums[k].add_steps(sum);
    if (!any_by_grid) continue;
    for (std::uint32_t i : patterns.covered[k])
      if (by_grid[i * L + j]) rule_sums[k].add(patterns.w[i], whole[i], eta[i * L + j]);
  }
  RuleLossSums out;
  out.loss = loss.total();
  for (const GridSum& s : intercepts) out.intercepts.push_back(s.total());
  for (const GridSum& s : rule_sums) out.rules.push_back(s.total());
  if (q.curvature) out.curvature = curvature_sums(patterns, L, q.rule_logit, probabilities, whole);
  return out;
}

Eigen::MatrixXd curvature_matrix(const std::vector<CurvatureSteps>& curvature, std::size_t n) {
  if (curvature.size() != n * (n + 1) / 2) throw std::invalid_argument("rule loss: a curvature of another size");
  const auto size = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd H(size, size);
  for (std::size_t u = 0; u < n; ++u)
    for (std::size_t v = u; v < n; ++v)
      H(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(v)) =
          H(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(u)) =
              std::ldexp(static_cast<double>(curvature[curvature_index(u, v, n)]), -kResidualGridBits);
  return H;
}

}  // namespace candor
