#include <algorithm>
#include <cmath>
#include <numeric>

#include "candor/learn/base_learner.hpp"
#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"

namespace candor {

void boost_adaboost_m1(BoostModel& m, const LearnerParams& p, const Dataset& d, const std::vector<std::size_t>& rows,
                       const std::vector<double>& start, int threads) {
  std::vector<double> weights = start;
  const auto prior = m.prior();
  Rng rng(static_cast<std::uint64_t>(p.seed));
  const BaseLearner base = p.options<BoostOptions>().base;
  std::vector<char> wrong(rows.size());
  for (int round = 0; round < p.options<BoostOptions>().iterations; ++round) {
    Tree member;
    double error = 0;
    for (int attempt = 0; attempt < 10; ++attempt) {
      const std::vector<double> fit_weights =
          p.options<BoostOptions>().subsample > 0
              ? weighted_bootstrap(weights, p.options<BoostOptions>().subsample, rng)
              : weights;
      member = fit_base_tree(d, rows, fit_weights, p, base, threads);
      double bad = 0;
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const auto q = member.predict_proba(d, rows[k], LeafEstimate::counts, 0.0, prior);
        wrong[k] = std::max_element(q.begin(), q.end()) - q.begin() != d.y[rows[k]];
        if (wrong[k]) bad += weights[k];
      }
      error = bad / std::accumulate(weights.begin(), weights.end(), 0.0);
      // Weka redraws a resample whose member makes no error (up to ten times); a reweighted fit would not change.
      if (!(p.options<BoostOptions>().subsample > 0) || std::abs(error) >= 1e-6) break;
    }
    if (error >= 0.5 - 1e-6 || std::abs(error) < 1e-6) {
      if (m.members.empty()) {  // the first member is kept: the ensemble is that model alone
        m.members.push_back(std::move(member));
        m.member_weights.push_back(1.0);
      }
      break;
    }
    m.members.push_back(std::move(member));
    m.member_weights.push_back(std::log((1 - error) / error));
    // Misclassified examples gain (1 - e) / e (the correct ones' beta, after normalising): Weka's form.
    const double before = std::accumulate(weights.begin(), weights.end(), 0.0);
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (wrong[k]) weights[k] *= (1 - error) / error;
    const double after = std::accumulate(weights.begin(), weights.end(), 0.0);
    for (double& w : weights) w *= before / after;
  }
}

}  // namespace candor
