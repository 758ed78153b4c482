#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "candor/quality/measures.hpp"

namespace candor {

namespace {
// x * ln(x / e), with the limit 0 at x = 0.
double xlogx_over(double x, double e) { return x > 0 ? x * std::log(x / e) : 0.0; }
}  // namespace

double likelihood_ratio_statistic(double s, double n, double p_total, double n_total) {
  if (n <= 0 || n >= n_total || p_total <= 0 || p_total >= n_total) return 0.0;
  const double prior = p_total / n_total;
  const double e_s = n * prior;
  if (s <= e_s) return 0.0;
  const double nc = n_total - n;  // uncovered examples
  const double sc = p_total - s;  // uncovered positives
  const double g = xlogx_over(s, e_s) + xlogx_over(n - s, n - e_s) + xlogx_over(sc, nc * prior) +
                   xlogx_over(nc - sc, nc * (1 - prior));
  return g > 0 ? 2.0 * g : 0.0;
}

double likelihood_ratio_bound(double s, double n, double p_total, double n_total) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (n <= 0 || n >= n_total || p_total <= 0 || p_total >= n_total) return 0.0;
  if (s * n_total <= n * p_total) return 0.0;  // s <= e_s (up to rounding, which the margin below covers)
  // Whole counts below 2^31: G / 2 = sum of O ln O over the four cells - sum of E ln E's closed form,
  // nine values of x ln x at whole x, read from a table this thread keeps.
  if (n_total > 2147483647.0 || s != std::floor(s) || n != std::floor(n) || p_total != std::floor(p_total) ||
      n_total != std::floor(n_total))
    return kInf;
  thread_local std::vector<double> xlogx;
  const auto size = static_cast<std::size_t>(n_total) + 1;
  if (xlogx.size() < size) {
    const std::size_t from = xlogx.size();
    xlogx.resize(size);
    for (std::size_t x = from; x < size; ++x)
      xlogx[x] = x > 0 ? static_cast<double>(x) * std::log(static_cast<double>(x)) : 0.0;
  }
  auto t = [&](double x) { return xlogx[static_cast<std::size_t>(x)]; };
  const double nc = n_total - n, sc = p_total - s;
  const double half =
      t(s) + t(n - s) + t(sc) + t(nc - sc) - t(n) - t(nc) - t(p_total) - t(n_total - p_total) + t(n_total);
  // Each of the nine terms and eight sums is within a few ulps of t(n_total), and so is the rounding of
  // likelihood_ratio_statistic's own terms: 1e-13 of it is a safe margin.
  return 2.0 * (half + 1e-13 * (t(n_total) + 1.0));
}

double likelihood_ratio_pearson_bound(double s, double n, double p_total, double n_total) {
  if (n <= 0 || n >= n_total || p_total <= 0 || p_total >= n_total || s * n_total <= n * p_total) return 0.0;
  // 2 N (ad - bc)^2 / (n (N - n) P (N - P)) over the cells a = s, b = n - s, c = P - s, d = N - P - n + s. The
  // margin covers rounding here and in likelihood_ratio_statistic (its terms are below N ln N <= 22 N for
  // N < 2^31).
  const double a = s, b = n - s, c = p_total - s, d = n_total - p_total - b;
  const double det = a * d - b * c;
  const double x2 = n_total * det * det / (n * (n_total - n) * p_total * (n_total - p_total));
  return 2.0 * x2 * (1.0 + 1e-12) + 5e-12 * (n_total + 1.0);
}

bool likelihood_ratio_certainly_below(double s, double n, double p_total, double n_total, double bar) {
  // Both bounds are 0 where the statistic is (degenerate data, a rule not above the prior).
  return likelihood_ratio_pearson_bound(s, n, p_total, n_total) < bar ||
         likelihood_ratio_bound(s, n, p_total, n_total) < bar;
}

namespace measures {
double LikelihoodRatio::evaluate(const RuleStats& r) const {
  return likelihood_ratio_statistic(r.s(), r.n, r.p_total(), r.n_total);
}
double LikelihoodRatio::refinement_bound(const RuleStats& r) const {
  // G is convex over the (positives, rows) a specialisation can cover, a polygon with the corners (0, 0),
  // (0, n - s), (s, s) and (s, n); cut by the line where the share meets the prior (G = 0 there and below),
  // its maximum lies at a corner: the pure rule keeping every positive, or the rule itself. The margin
  // covers the rounding of a specialisation's own statistic.
  const double s = r.s(), p = r.p_total(), total = r.n_total;
  const double best =
      std::max(likelihood_ratio_statistic(s, s, p, total), likelihood_ratio_statistic(s, r.n, p, total));
  return best * (1.0 + 1e-12) + 5e-12 * (total + 1.0);
}
double LikelihoodRatio::quick_bound(const RuleStats& r) const {
  return likelihood_ratio_bound(r.s(), r.n, r.p_total(), r.n_total);
}
bool LikelihoodRatio::may_reach(const RuleStats& r, double bar) const {
  return !likelihood_ratio_certainly_below(r.s(), r.n, r.p_total(), r.n_total, bar);
}
bool LikelihoodRatio::box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const {
  // Above the prior G rises with s at fixed n and falls with n at fixed s (a negative moved into the rule
  // lowers its share further below the uncovered rows'), and along the pure rules (s = n) it rises with s
  // (dG/ds = 2 ln((N - s) / (P - s)) >= 0). So a rule of the box scores at most G at (min(s_most, n_least),
  // n_least) or, where s exceeds n_least, at the pure rule (s_most, s_most). Both corners are rules the
  // data allows when the box holds a rule; each is bounded without a logarithm where it can be (the table
  // bound after the Pearson one: on Agrawal 100k, Pearson's alone lets so many more runs through that the
  // default fit takes a fifth longer).
  if (!(n_least > 0)) return true;
  const double p = r.p_total(), total = r.n_total;
  const double s_corner = std::min(s_most, n_least);
  if (!likelihood_ratio_certainly_below(s_corner, n_least, p, total, bar)) return true;
  return s_most > n_least && !likelihood_ratio_certainly_below(s_most, s_most, p, total, bar);
}
// Floating-point comparisons may trap by default, which keeps GCC from turning the loop's selects into
// vector blends; nothing here reads the exception flags, and the values are the same either way. (Clang,
// which the sanitized build uses, has no such attribute.)
#if defined(__clang__)
#define CANDOR_NO_TRAPPING_MATH
#else
#define CANDOR_NO_TRAPPING_MATH __attribute__((optimize("no-trapping-math")))
#endif
CANDOR_NO_TRAPPING_MATH bool LikelihoodRatio::bound_batch(const RuleStats& r, std::span<const double> s,
                                                          std::span<const double> n, std::span<double> out) const {
  const double p = r.p_total(), total = r.n_total;
  if (p <= 0 || p >= total) {
    std::fill(out.begin(), out.end(), 0.0);
    return true;
  }
  // likelihood_ratio_pearson_bound without early returns, so that the loop vectorises; the same arithmetic,
  // written out because a shared helper would not be inlined across the optimize attribute.
  const double margin = 5e-12 * (total + 1.0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double a = s[i], b = n[i] - s[i], c = p - s[i], d = total - p - b;
    const double det = a * d - b * c;
    const double x2 = total * det * det / (n[i] * (total - n[i]) * p * (total - p));
    const bool above = n[i] > 0 && n[i] < total && s[i] * total > n[i] * p;
    out[i] = above ? 2.0 * x2 * (1.0 + 1e-12) + margin : 0.0;
  }
  return true;
}
}  // namespace measures

}  // namespace candor
