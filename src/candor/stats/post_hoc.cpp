#include "candor/stats/post_hoc.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/stats/ranks.hpp"

namespace candor {

namespace {

double studentized_range_cdf(double q, std::size_t k) {
  const boost::math::normal_distribution<double> normal;
  const double kk = static_cast<double>(k);
  auto integrand = [&](double z) {
    const double inner = boost::math::cdf(normal, z) - boost::math::cdf(normal, z - q);
    return boost::math::pdf(normal, z) * std::pow(std::max(0.0, inner), kk - 1);
  };
  // The standard normal density is below 1e-17 outside [-9, 9 + q]; integrate where it matters.
  const double v = boost::math::quadrature::gauss_kronrod<double, 31>::integrate(integrand, -9.0, 9.0 + q, 10, 1e-11);
  return std::min(1.0, kk * v);
}

}  // namespace

double studentized_range_quantile(std::size_t k, double alpha) {
  if (k < 2) throw std::invalid_argument("the studentized range needs at least two groups");
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("alpha must lie in (0, 1)");
  auto f = [&](double q) { return studentized_range_cdf(q, k) - (1 - alpha); };
  std::uintmax_t iterations = 200;
  boost::math::tools::eps_tolerance<double> tol(34);
  auto [lo, hi] = boost::math::tools::toms748_solve(f, 1e-6, 40.0, tol, iterations);
  return (lo + hi) / 2;
}

double nemenyi_cd(std::size_t k, std::size_t n_datasets, double alpha) {
  if (n_datasets < 1) throw std::invalid_argument("nemenyi_cd needs at least one data set");
  const double kk = static_cast<double>(k), n = static_cast<double>(n_datasets);
  const double q = studentized_range_quantile(k, alpha) / std::sqrt(2.0);
  return q * std::sqrt(kk * (kk + 1) / (6 * n));
}

std::vector<std::vector<std::size_t>> cd_groups(const std::vector<double>& ranks, double cd) {
  std::vector<std::size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  std::vector<std::vector<std::size_t>> groups;
  std::size_t reached = 0;  // the furthest end of a group so far: a group ending there or before is inside it
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < order.size() && ranks[order[j + 1]] - ranks[order[i]] < cd) ++j;
    if (j > i && (groups.empty() || j > reached)) {
      groups.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(i),
                          order.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      reached = j;
    }
  }
  return groups;
}

WilcoxonResult wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("wilcoxon: the two samples differ in size");
  std::vector<double> d;
  bool dropped_zero = false;
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < a.size(); ++i) zeros += a[i] == b[i];
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i] && zeros % 2 == 1 && !dropped_zero) {
      dropped_zero = true;
      continue;
    }
    d.push_back(a[i] - b[i]);
  }
  WilcoxonResult out;
  out.n = d.size();
  if (out.n == 0) return out;
  std::vector<double> magnitude(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) magnitude[i] = std::fabs(d[i]);
  const auto rank = average_ranks_of(magnitude);
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] > 0)
      out.r_plus += rank[i];
    else if (d[i] < 0)
      out.r_minus += rank[i];
    else {
      out.r_plus += rank[i] / 2;
      out.r_minus += rank[i] / 2;
    }
  }
  out.t = std::min(out.r_plus, out.r_minus);
  const double n = static_cast<double>(out.n);
  out.z = (out.t - n * (n + 1) / 4) / std::sqrt(n * (n + 1) * (2 * n + 1) / 24);
  if (out.n <= 200) {
    // Exact: each nonzero difference's rank takes either sign with probability 1/2; the zero ranks add a
    // constant half. Ranks are halves at worst, so doubled ranks are integers.
    long long zero_sum = 0, total = 0;
    std::vector<long long> doubled;
    for (std::size_t i = 0; i < d.size(); ++i) {
      const long long r2 = std::llround(2 * rank[i]);
      if (d[i] == 0)
        zero_sum += r2;
      else
        doubled.push_back(r2);
      total += r2;
    }
    const long long offset = zero_sum / 2;  // an even number of zeros, ranks 1..m: doubled sum m(m+1) is even
    std::vector<double> dist(static_cast<std::size_t>(total) + 1, 0.0);
    dist[0] = 1;
    long long reach = 0;
    for (long long r2 : doubled) {
      for (long long s = reach; s >= 0; --s) {
        dist[static_cast<std::size_t>(s + r2)] += dist[static_cast<std::size_t>(s)] * 0.5;
        dist[static_cast<std::size_t>(s)] *= 0.5;
      }
      reach += r2;
    }
    const long long t2 = std::llround(2 * out.t) - offset;
    double tail = 0;
    for (long long s = 0; s <= std::min(t2, reach); ++s) tail += dist[static_cast<std::size_t>(s)];
    out.p = std::min(1.0, 2 * tail);
    out.exact = true;
  } else {
    out.p = std::min(1.0, 2 * boost::math::cdf(boost::math::normal_distribution<double>(), out.z));
  }
  return out;
}

SignTestResult sign_test(std::size_t wins, std::size_t losses, std::size_t ties) {
  SignTestResult out{wins, losses, ties, 1.0};
  const std::size_t w = wins + ties / 2, l = losses + ties / 2, n = w + l;
  if (n == 0) return out;
  const boost::math::binomial_distribution<double> bin(static_cast<double>(n), 0.5);
  const std::size_t m = std::max(w, l);
  // P(X >= m) = 1 - P(X <= m - 1)
  const double upper = boost::math::cdf(boost::math::complement(bin, static_cast<double>(m) - 1));
  out.p = std::min(1.0, 2 * upper);
  return out;
}

SignTestResult sign_test(const std::vector<double>& a, const std::vector<double>& b, bool higher_is_better) {
  if (a.size() != b.size()) throw std::invalid_argument("sign test: the two samples differ in size");
  std::size_t wins = 0, losses = 0, ties = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i])
      ++ties;
    else if ((a[i] > b[i]) == higher_is_better)
      ++wins;
    else
      ++losses;
  }
  return sign_test(wins, losses, ties);
}

}  // namespace candor
