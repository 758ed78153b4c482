#include "candor/search/layered_search.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/tools/roots.hpp>
#include <numeric>
#include <set>
#include <stdexcept>

namespace candor {

double occam_error_estimate(double h, double n, double e) {
  h = std::max(1.0, h);
  if (n <= 0 || e >= n) return 1.0;
  e = std::max(0.0, e);
  // P(n, e, r) falls from 1 at r = 0 to 0 at r = 1 (e < n), so h P - 0.5 changes sign exactly once.
  auto f = [&](double r) {
    if (r <= 0) return h - 0.5;
    if (r >= 1) return -0.5;
    return h * boost::math::cdf(boost::math::binomial_distribution<double>(n, r), e) - 0.5;
  };
  std::uintmax_t iterations = 200;
  boost::math::tools::eps_tolerance<double> tol(45);
  auto [lo, hi] = boost::math::tools::toms748_solve(f, 0.0, 1.0, h - 0.5, -0.5, tol, iterations);
  return (lo + hi) / 2;
}

WidthOutcome search_width(const CoverageIndex& index, const Bitset& active, int target, const QualityMeasure& quality,
                          SearchOptions options, int width) {
  if (target < 0) throw std::invalid_argument("layered search needs a target class");
  std::set<std::vector<int>> sets;
  options.beam_width = width;
  options.attribute_sets = &sets;
  WidthOutcome w;
  w.width = width;
  w.rule = find_best_rule(index, active, target, quality, options);
  w.attribute_sets = sets.size();
  if (w.rule) {
    w.n = std::accumulate(w.rule->counts.begin(), w.rule->counts.end(), 0.0);
    w.e = w.n - w.rule->counts[static_cast<std::size_t>(target)];
    w.r = occam_error_estimate(static_cast<double>(w.attribute_sets), w.n, w.e);
  }
  return w;
}

LayeredChoice layered_choice(const std::vector<WidthOutcome>& widths) {
  LayeredChoice out;
  double best_r = 2;
  int failures = 0;
  for (std::size_t i = 0; i < widths.size() && failures < 2; ++i) {
    out.searched = i + 1;
    if (widths[i].rule && widths[i].r < best_r) {
      best_r = widths[i].r;
      out.chosen = i;
      failures = 0;
    } else {
      ++failures;
    }
  }
  out.stopped = failures >= 2;
  return out;
}

LayeredOutcome layered_search(const CoverageIndex& index, const Bitset& active, int target,
                              const QualityMeasure& quality, SearchOptions options, int max_width) {
  LayeredOutcome out;
  LayeredChoice choice;
  for (int width = 1; width <= std::max(1, max_width); width *= 2) {
    out.widths.push_back(search_width(index, active, target, quality, options, width));
    choice = layered_choice(out.widths);
    if (choice.stopped) break;
    if (width > max_width / 2) break;  // the next doubling would pass max_width
  }
  if (choice.chosen) {
    out.best = out.widths[*choice.chosen].rule;
    out.chosen_width = out.widths[*choice.chosen].width;
  }
  return out;
}

}  // namespace candor
