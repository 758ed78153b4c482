#include <algorithm>
#include <cmath>
#include <numeric>

#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/tree/stump.hpp"

namespace candor {

namespace {
constexpr double kMaxResponse = 3;  // Friedman, Hastie and Tibshirani advise 2 to 4; Weka uses 3

// Working response and weight of one example for one class: z = (y* - p) / (p (1 - p)) clamped, and w such
// that w z = y* - p.
std::pair<double, double> response(bool positive, double p) {
  const double z = positive ? std::min(1 / p, kMaxResponse) : std::max(-1 / (1 - p), -kMaxResponse);
  return {z, ((positive ? 1.0 : 0.0) - p) / z};
}
}  // namespace

void boost_logitboost(BoostModel& m, const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
                      const std::vector<double>& start, int /*threads*/) {
  const std::size_t classes = d.num_classes();
  const std::size_t n = rows.size();
  m.per_iteration = classes > 2 ? static_cast<int>(classes) : 1;
  const double j = static_cast<double>(classes);
  std::vector<std::vector<double>> F(n, std::vector<double>(classes, 0.0));
  std::vector<std::vector<double>> prob(n, std::vector<double>(classes, 1.0 / j));
  std::vector<double> z(n), w(n);
  for (int round = 0; round < p.options<BoostOptions>().iterations; ++round) {
    if (classes <= 2) {  // Fig. 2: one stump on the second class's response, F += f / 2
      for (std::size_t k = 0; k < n; ++k) {
        const auto [zk, wk] = response(d.y[rows[k]] == 1, prob[k][1]);
        z[k] = zk;
        w[k] = start[k] * wk;
      }
      Tree f = grow_regression_stump(d, rows, w, z);
      for (std::size_t k = 0; k < n; ++k) {
        F[k][1] += f.predict_value(d, rows[k]) / 2;
        prob[k][1] = 1 / (1 + std::exp(-2 * F[k][1]));
        prob[k][0] = 1 / (1 + std::exp(2 * F[k][1]));
      }
      m.members.push_back(std::move(f));
      continue;
    }
    std::vector<std::vector<double>> fx(n, std::vector<double>(classes));
    for (std::size_t c = 0; c < classes; ++c) {
      for (std::size_t k = 0; k < n; ++k) {
        const auto [zk, wk] = response(d.y[rows[k]] == static_cast<int>(c), prob[k][c]);
        z[k] = zk;
        w[k] = start[k] * wk;
      }
      Tree f = grow_regression_stump(d, rows, w, z);
      for (std::size_t k = 0; k < n; ++k) fx[k][c] = f.predict_value(d, rows[k]);
      m.members.push_back(std::move(f));
    }
    for (std::size_t k = 0; k < n; ++k) {
      const double mean = std::accumulate(fx[k].begin(), fx[k].end(), 0.0) / j;
      for (std::size_t c = 0; c < classes; ++c) F[k][c] += (j - 1) / j * (fx[k][c] - mean);
      prob[k] = BoostModel::softmax(F[k]);
    }
  }
}

}  // namespace candor
