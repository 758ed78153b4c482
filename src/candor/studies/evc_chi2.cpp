// Paper 000, section 3 (Figs. 2, 3 and 5): the best of 1000 binary attributes by chi2 on 100 examples (50
// per class), where attribute i has P(x_i = 0 | C1) = P(x_i = 1 | C2) = p_i, so its true chi2 is
// 4 (50 p_i - 25)^2 / 25 (eq. 2) and its estimate uses expected counts 25 (eq. 1). Three scenarios, ten
// data sets per setting, settings 0.50, 0.53, ..., 0.89:
//   no-optimism (Fig. 2): p_1 = setting, every other p_i = 0.5;
//   same-quality (Fig. 3): every p_i = setting (the pessimistic correction's own assumption);
//   normal (Fig. 5): p_i ~ N(0.5, (setting - 0.5) / 3.2), clipped to [0, 1].
// Each selected attribute's chi2 is reported uncorrected, with the pessimistic correction (section 3.2)
// and with EVC (section 3.3, Gumbel law of the best chi2 on class-permuted data).
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <iostream>

#include "candor/evc/general.hpp"
#include "candor/experiments/report.hpp"
#include "candor/stats/ranks.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/parallel.hpp"

namespace candor {
namespace {

constexpr int kNoiseAttributes = 1000, kExamples = 100, kPerClass = 50, kRepeats = 10;

struct Bits100 {
  std::uint64_t w[2] = {0, 0};
  void set(int i) { w[i >> 6] |= std::uint64_t{1} << (i & 63); }
  int count_and(const Bits100& o) const { return std::popcount(w[0] & o.w[0]) + std::popcount(w[1] & o.w[1]); }
};

double normal01(Rng& rng) {  // Box-Muller
  const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53, u2 = uniform01(rng);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * 3.14159265358979323846 * u2);
}

// Eq. (1) from the count of class-1 examples with x = 0 (c1x0) and of class-2 examples with x = 0 (c2x0).
double chi2_eq1(int c1x0, int c2x0) {
  const double o[4] = {double(c1x0), double(c2x0), double(kPerClass - c1x0), double(kPerClass - c2x0)};
  double s = 0;
  for (double v : o) s += (v - 25) * (v - 25) / 25;
  return s;
}

struct Outcome {
  double true_chi2, uncorrected, pessimistic, evc;
};

Outcome run_one(const std::vector<double>& p, Rng& rng, const ExperimentOptions& options) {
  // Examples 0..49 are C1, 50..99 C2. zero[i] = examples with x_i = 0.
  std::vector<Bits100> zero(kNoiseAttributes);
  for (int a = 0; a < kNoiseAttributes; ++a)
    for (int e = 0; e < kExamples; ++e) {
      const bool c1 = e < kPerClass;
      const double p_zero = c1 ? p[a] : 1 - p[a];
      if (uniform01(rng) < p_zero) zero[a].set(e);
    }
  // Examples with x_i = 0, whatever their class: the same on every permutation.
  std::vector<int> total0(kNoiseAttributes);
  for (int a = 0; a < kNoiseAttributes; ++a) total0[a] = std::popcount(zero[a].w[0]) + std::popcount(zero[a].w[1]);
  auto best_for = [&](const Bits100& c1_mask, int* which) {
    double best = -1;
    for (int a = 0; a < kNoiseAttributes; ++a) {
      const int c1x0 = zero[a].count_and(c1_mask);
      const double q = chi2_eq1(c1x0, total0[a] - c1x0);
      if (q > best) {
        best = q;
        if (which) *which = a;
      }
    }
    return best;
  };
  Bits100 c1;
  for (int e = 0; e < kPerClass; ++e) c1.set(e);
  int chosen = 0;
  const double q_max = best_for(c1, &chosen);
  const int c1x0 = zero[chosen].count_and(c1), c2x0 = total0[chosen] - c1x0;

  // Class-permuted copies: the same attributes, 50 examples drawn as C1.
  const std::uint64_t perm_seed = rng();
  auto maxima = permutation_maxima(
      [&](Rng& r) {
        std::vector<int> idx(kExamples);
        for (int e = 0; e < kExamples; ++e) idx[e] = e;
        shuffle(idx, r);
        Bits100 mask;
        for (int e = 0; e < kPerClass; ++e) mask.set(idx[e]);
        return best_for(mask, nullptr);
      },
      options.evc.permutations, perm_seed, 1);
  double mean = 0;
  for (double m : maxima) mean += m;
  mean /= static_cast<double>(maxima.size());
  const GumbelLaw law = fit_gumbel(maxima, options.evc.fit);

  Outcome out;
  out.true_chi2 = 4 * std::pow(50 * p[chosen] - 25, 2) / 25;
  out.uncorrected = q_max;
  out.pessimistic = pessimistic_chi2_correction(
                        {double(c1x0), double(c2x0), double(kPerClass - c1x0), double(kPerClass - c2x0)}, mean)
                        .corrected;
  out.evc = evc_correct_chi2(q_max, law, 1.0);
  return out;
}

}  // namespace

void run_evc_chi2(const ExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> scenarios{"no-optimism", "same-quality", "normal"};
  std::vector<double> settings;
  for (int i = 0; i <= 13; ++i) settings.push_back(0.5 + 0.03 * i);
  const std::size_t per_scenario = settings.size() * kRepeats;
  std::vector<Outcome> outcomes(scenarios.size() * per_scenario);
  parallel_for(outcomes.size(), options.threads, [&](std::size_t task) {
    const std::size_t sc = task / per_scenario, rest = task % per_scenario;
    const double setting = settings[rest / kRepeats];
    Rng rng(stream_seed(options.seed, task));
    std::vector<double> p(kNoiseAttributes, 0.5);
    if (sc == 0)
      p[0] = setting;
    else if (sc == 1)
      p.assign(kNoiseAttributes, setting);
    else
      for (double& v : p) v = std::clamp(0.5 + (setting - 0.5) / 3.2 * normal01(rng), 0.0, 1.0);
    outcomes[task] = run_one(p, rng, options);
  });

  Table points{{"scenario", "setting", "repeat", "true", "uncorrected", "pessimistic", "evc"}, {}};
  Table summary{{"scenario", "method", "mean estimate - true", "RMSE", "Spearman"}, {}};
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) {
    std::vector<double> truth, est[3];
    for (std::size_t r = 0; r < per_scenario; ++r) {
      const Outcome& o = outcomes[sc * per_scenario + r];
      points.add({scenarios[sc], format_number(settings[r / kRepeats], 2), std::to_string(r % kRepeats + 1),
                  format_number(o.true_chi2, 4), format_number(o.uncorrected, 4), format_number(o.pessimistic, 4),
                  format_number(o.evc, 4)});
      truth.push_back(o.true_chi2);
      est[0].push_back(o.uncorrected);
      est[1].push_back(o.pessimistic);
      est[2].push_back(o.evc);
    }
    const char* names[3] = {"uncorrected", "pessimistic", "EVC"};
    for (int m = 0; m < 3; ++m) {
      double bias = 0;
      for (std::size_t i = 0; i < truth.size(); ++i) bias += est[m][i] - truth[i];
      summary.add({scenarios[sc], names[m], format_number(bias / static_cast<double>(truth.size()), 2),
                   format_number(rmse(est[m], truth), 2), format_number(spearman(truth, est[m]), 3)});
    }
  }
  write_table(points, options.out, "points", "Selected attribute per data set: true and estimated chi2");
  write_table(summary, options.out, "summary",
              "Paper 000 section 3: best of 1000 attributes, 100 examples; error of chi2 estimates");
  std::cout << "## evc-chi2: best of 1000 binary attributes x 100 examples (paper 000, section 3)\n\n"
            << markdown(summary);

  auto panel = [](const std::string& scenario, const std::string& y, const std::string& title) {
    return nlohmann::json{
        {"title", title},   {"csv", "points.csv"},   {"where", {{"scenario", scenario}}}, {"x", "true"}, {"y", y},
        {"diagonal", true}, {"xlabel", "true chi2"}, {"ylabel", "estimated chi2"}};
  };
  nlohmann::json spec = {
      {"figures",
       {{{"file", "fig2_no_optimism.png"},
         {"panels", {panel("no-optimism", "uncorrected", "Fig. 2: one informative attribute")}}},
        {{"file", "fig3_pessimistic.png"},
         {"panels",
          {panel("same-quality", "uncorrected", "Fig. 3a: uncorrected"),
           panel("same-quality", "pessimistic", "Fig. 3b: pessimistic correction")}}},
        {{"file", "fig5_evc.png"},
         {"panels", {panel("normal", "uncorrected", "Fig. 5a: uncorrected"), panel("normal", "evc", "Fig. 5b: EVC")}}},
        {{"file", "all_methods.png"},
         {"columns", 3},
         {"panels",
          {panel("no-optimism", "uncorrected", "no optimism: uncorrected"),
           panel("no-optimism", "pessimistic", "no optimism: pessimistic"),
           panel("no-optimism", "evc", "no optimism: EVC"),
           panel("same-quality", "uncorrected", "same quality: uncorrected"),
           panel("same-quality", "pessimistic", "same quality: pessimistic"),
           panel("same-quality", "evc", "same quality: EVC"), panel("normal", "uncorrected", "normal: uncorrected"),
           panel("normal", "pessimistic", "normal: pessimistic"), panel("normal", "evc", "normal: EVC")}}}}}};
  draw_plots(spec, options.out, options.plots);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nwritten to " << options.out << " in " << format_number(secs, 1) << " s\n";
}

}  // namespace candor
