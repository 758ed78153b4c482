#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "candor/data.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/evc/general.hpp"
#include "candor/evc/gumbel.hpp"
#include "candor/evc/rule_correction.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/quality/quality.hpp"
#include "test_util.hpp"

using namespace candor;

// Paper 000, section 4.1: 20 examples, prior 0.5, a two-condition rule covering 10 with 8 positives,
// Gumbel law mu = 3, beta = 2. Reference values computed independently (SciPy: chi2.isf, brentq).
TEST(Evc, PaperWorkedExample) {
  const GumbelLaw law{3.0, 2.0};
  const EvcEstimate e = evc_correct(8, 10, 10, 20, law);
  EXPECT_NEAR(e.lrs, 7.7097902808703, 1e-10);
  EXPECT_NEAR(std::exp(e.log_p_a), 0.09053926820100855, 1e-12);  // paper: ~0.09
  EXPECT_NEAR(e.p_a_s, 0.1810785364020171, 1e-12);               // paper: ~0.18
  EXPECT_NEAR(e.corrected_lrs, 1.7887500063559985, 1e-9);        // paper: 1.82 read off a plot
  EXPECT_NEAR(e.s, 6.484049817212825, 1e-6);                     // paper: 6.5
  EXPECT_NEAR(e.probability, 0.6484049817212825, 1e-7);          // paper: 0.65
  EXPECT_NEAR(likelihood_ratio_statistic(e.s, 10, 10, 20), e.corrected_lrs, 1e-8);
}

TEST(Evc, GumbelTailInLogSpace) {
  const GumbelLaw law{3.0, 2.0};
  // Median: P(X > median) = 1/2.
  EXPECT_NEAR(law.upper_tail(law.median()), 0.5, 1e-14);
  EXPECT_NEAR(law.median(), 3.0 + 2.0 * 0.36651292058166435, 1e-12);
  // Far beyond the location the tail is exp(-z) to double precision; 1 - exp(-exp(-z)) would be 0.
  EXPECT_NEAR(law.log_upper_tail(3.0 + 2.0 * 50), -50.0, 1e-12);
  EXPECT_NEAR(law.log_upper_tail(3.0 + 2.0 * 2000), -2000.0, 1e-9);
  EXPECT_DOUBLE_EQ(law.log_upper_tail(-1e6), 0.0);
}

TEST(Evc, Chi2UpperQuantileAgreesWithReference) {
  EXPECT_NEAR(chi2_upper_quantile_log(std::log(0.05), 1), 3.841458820694124, 1e-9);
  EXPECT_NEAR(chi2_upper_quantile_log(std::log(1e-300), 1), 1373.8726312223944, 1e-6);
  EXPECT_NEAR(chi2_upper_quantile_log(std::log(1e-300), 3), 1388.3367738546858, 1e-6);
  // Below the smallest double: p = 1e-1000 (mpmath, 50 digits).
  const double log_p = -1000 * std::log(10.0);
  EXPECT_NEAR(chi2_upper_quantile_log(log_p, 1), 4596.2851647018905, 1e-6);
  EXPECT_NEAR(chi2_upper_quantile_log(log_p, 3), 4613.1557041209454, 1e-6);
  EXPECT_EQ(chi2_upper_quantile_log(0.0, 1), 0.0);
}

// Steps 2 to 4 on a statistic of their own (--gradient-prune evc): the chi2(1) value with upper tail twice the
// law's, 0 at or below the law's median. Reference values: SciPy, chi2.isf(2 * gumbel_r.sf(x, mu, beta), 1).
TEST(Evc, CorrectedStatisticAgreesWithReference) {
  EXPECT_NEAR(evc_corrected_statistic(20, GumbelLaw{7.66, 2}), 8.204743378708645, 1e-8);
  EXPECT_NEAR(evc_corrected_statistic(30, GumbelLaw{14.16, 2}), 11.419755419994948, 1e-8);
  EXPECT_NEAR(evc_corrected_statistic(50, GumbelLaw{26.86, 2}), 18.298015613558533, 1e-8);
  EXPECT_EQ(evc_corrected_statistic(8, GumbelLaw{7.66, 2}), 0.0);  // P_a = 0.57
  const GumbelLaw law{7.66, 2};
  EXPECT_EQ(evc_corrected_statistic(law.median(), law), 0.0);
  // It is the LRS evc_correct corrects, for the LRS a rule's counts give.
  EXPECT_DOUBLE_EQ(evc_correct(8, 10, 10, 20, GumbelLaw{3, 2}).corrected_lrs,
                   evc_corrected_statistic(likelihood_ratio_statistic(8, 10, 10, 20), GumbelLaw{3, 2}));
}

TEST(Evc, EdgeCases) {
  const GumbelLaw law{3.0, 2.0};
  // Below or at the prior: not corrected.
  EvcEstimate below = evc_correct(3, 10, 10, 20, law);
  EXPECT_EQ(below.lrs, 0.0);
  EXPECT_DOUBLE_EQ(below.probability, 0.3);
  EXPECT_DOUBLE_EQ(evc_correct(5, 10, 10, 20, law).probability, 0.5);
  // LRS at most the median: indistinguishable from the prior, s' = n P / N.
  EvcEstimate weak = evc_correct(6, 10, 10, 20, law);  // LRS 0.81 < median 3.73
  EXPECT_LT(weak.lrs, law.median());
  EXPECT_DOUBLE_EQ(weak.p_a_s, 1.0);
  EXPECT_DOUBLE_EQ(weak.probability, 0.5);
  // Corrected to the prior, the probability is the prior exactly: (7 x 94 / 200) / 7 rounds to a unit in the
  // last place above 94 / 200, which let rules no better than the prior pass --stop prior.
  ASSERT_NE((7.0 * 94.0 / 200.0) / 7.0, 94.0 / 200.0);
  EvcEstimate at_prior = evc_correct(4, 7, 94, 200, GumbelLaw{10, 2});
  EXPECT_DOUBLE_EQ(at_prior.p_a_s, 1.0);
  EXPECT_EQ(at_prior.probability, 94.0 / 200.0);
  // A pure rule is corrected below 1 but stays above the prior.
  EvcEstimate pure = evc_correct(10, 10, 10, 20, law);
  EXPECT_GT(pure.lrs, 27);
  EXPECT_LT(pure.probability, 1.0);
  EXPECT_GT(pure.probability, 0.8);
  // n = 1: one covered positive is never surprising; it falls back to the prior.
  EvcEstimate single = evc_correct(1, 1, 10, 20, law);
  EXPECT_DOUBLE_EQ(single.probability, 0.5);
  // A huge LRS (P_a far below the smallest double) still gets a finite correction just below s/n.
  EvcEstimate huge = evc_correct(5000, 5000, 10000, 20000, GumbelLaw{10, 2});
  EXPECT_GT(huge.lrs, 6900);
  EXPECT_TRUE(std::isfinite(huge.corrected_lrs));
  EXPECT_LT(huge.corrected_lrs, huge.lrs);
  EXPECT_GT(huge.probability, 0.99);
  EXPECT_LT(huge.probability, 1.0);
  // Weighted (fractional) counts are fine.
  EXPECT_NEAR(evc_correct(8.5, 10.5, 10.25, 20.5, law).probability, evc_correct(8.5, 10.5, 10.25, 20.5, law).s / 10.5,
              1e-15);
}

// A larger LRS never gets a smaller corrected value under the same law (paper 000, section 3.3, property 2).
TEST(Evc, MonotoneInLrs) {
  for (const GumbelLaw law : {GumbelLaw{3, 2}, GumbelLaw{10, 2}, GumbelLaw{25, 4}}) {
    double last_lrs = -1, last_corrected = -1, last_s = -1;
    for (double s = 50; s <= 200; s += 0.5) {  // n = 200, prior 0.25: s/n rises, LRS rises
      EvcEstimate e = evc_correct(s, 200, 500, 2000, law);
      EXPECT_GE(e.lrs, last_lrs);
      EXPECT_GE(e.corrected_lrs, last_corrected) << "s=" << s;
      EXPECT_GE(e.s, last_s) << "s=" << s;
      last_lrs = e.lrs;
      last_corrected = e.corrected_lrs;
      last_s = e.s;
    }
    EXPECT_GT(last_s, 150);  // the pure rule is still far above the prior
  }
  // Longer rules (larger mu) are corrected more.
  EXPECT_LT(evc_correct(30, 40, 100, 400, GumbelLaw{12, 2}).probability,
            evc_correct(30, 40, 100, 400, GumbelLaw{4, 2}).probability);
}

TEST(Evc, GumbelFits) {
  // A sample with mean 10 and sd sqrt(2): moments give beta = sd sqrt(6) / pi.
  const std::vector<double> x{8, 9, 10, 11, 12};
  const double sd = std::sqrt(2.5);
  GumbelLaw fixed = fit_gumbel(x, GumbelFit::fixed_beta);
  EXPECT_DOUBLE_EQ(fixed.beta, 2.0);
  EXPECT_NEAR(fixed.mu, 10 - 0.5772156649015329 * 2, 1e-12);
  GumbelLaw moments = fit_gumbel(x, GumbelFit::moments);
  EXPECT_NEAR(moments.beta, sd * std::sqrt(6.0) / M_PI, 1e-12);
  EXPECT_NEAR(moments.mu, 10 - 0.5772156649015329 * moments.beta, 1e-12);
  // Maximum likelihood satisfies its score equations: beta = mean - sum x w / sum w, w = exp(-x / beta),
  // and exp(-mu / beta) = mean(exp(-x / beta)).
  GumbelLaw ml = fit_gumbel(x, GumbelFit::maximum_likelihood);
  double sw = 0, sxw = 0;
  for (double v : x) {
    sw += std::exp(-v / ml.beta);
    sxw += v * std::exp(-v / ml.beta);
  }
  EXPECT_NEAR(ml.beta, 10 - sxw / sw, 1e-9);
  EXPECT_NEAR(std::exp(-ml.mu / ml.beta), sw / 5, 1e-12);
  // A sample without spread: beta falls back to 2.
  EXPECT_DOUBLE_EQ(fit_gumbel(std::vector<double>{4, 4, 4}, GumbelFit::maximum_likelihood).beta, 2.0);
  EXPECT_THROW(fit_gumbel(std::vector<double>{}, GumbelFit::moments), std::invalid_argument);
  EXPECT_THROW(parse_gumbel_fit("median"), std::invalid_argument);
}

// ML recovers a known law from a large Gumbel sample (inverse-cdf sampling with a fixed generator).
TEST(Evc, MaximumLikelihoodRecoversLaw) {
  Rng rng(7);
  std::vector<double> x;
  for (int i = 0; i < 20000; ++i) {
    const double u = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
    x.push_back(5.0 - 3.0 * std::log(-std::log(u)));
  }
  GumbelLaw ml = fit_gumbel(x, GumbelFit::maximum_likelihood);
  EXPECT_NEAR(ml.mu, 5.0, 0.1);
  EXPECT_NEAR(ml.beta, 3.0, 0.06);
}

// Section 3.2 worked example. The observed best table (44, 6 / 6, 44) has chi2 57.76 (eq. 6); the
// permuted mean 11.28 has chi2(1) tail 0.00078; the paper's implied table (34.3, 15.7 / 15.7, 34.3)
// has corrected chi2 13.8 (eq. 9). Solving eq. (7) as written gives p0 = 0.7311 (SciPy brentq), not the
// paper's 0.686: the paper's Table 1(c) gives 17.5, not 11.2, in eq. (8). We follow eq. (7).
TEST(Evc, PessimisticCorrectionSection32) {
  EXPECT_NEAR(pearson_chi2_2x2({44, 6, 6, 44}), 57.76, 1e-12);
  EXPECT_NEAR(pearson_chi2_2x2({34.3, 15.7, 15.7, 34.3}), 13.8384, 1e-9);  // eq. (9)
  PessimisticCorrection c = pessimistic_chi2_correction({44, 6, 6, 44}, 11.28);
  EXPECT_NEAR(c.tail, 0.000783465565415074, 1e-12);
  EXPECT_NEAR(c.p0, 0.7310818599846751, 1e-9);
  EXPECT_NEAR(c.corrected, 21.359530405590814, 1e-6);
  EXPECT_LT(c.corrected, 57.76);
  // A table leaning the other way is mirrored; a best value below the permuted mean corrects to 0.
  PessimisticCorrection m = pessimistic_chi2_correction({6, 44, 44, 6}, 11.28);
  EXPECT_NEAR(m.p0, 1 - 0.7310818599846751, 1e-9);
  EXPECT_NEAR(m.corrected, c.corrected, 1e-6);
  EXPECT_EQ(pessimistic_chi2_correction({27, 23, 23, 27}, 11.28).corrected, 0.0);
}

// Section 3.3: the general procedure on a toy learner (best of 50 random chi2(1) statistics).
TEST(Evc, GeneralProcedureIsDeterministicAndCorrects) {
  auto best_of_50 = [](Rng& rng) {
    double best = 0;
    for (int i = 0; i < 50; ++i) {
      const double u1 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
      const double u2 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
      const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      best = std::max(best, z * z);
    }
    return best;
  };
  auto one = permutation_maxima(best_of_50, 400, 11, 1);
  auto two = permutation_maxima(best_of_50, 400, 11, 2);
  EXPECT_EQ(one, two);
  GumbelLaw law = fit_gumbel(one, GumbelFit::maximum_likelihood);
  // The median best of 50 chi2(1) values is the chi2(1) value with upper tail 1 - 0.5^(1/50), 6.06
  // (SciPy); corrected, it is back to the single-hypothesis median, 0.455.
  EXPECT_NEAR(law.median(), 6.06, 0.4);
  EXPECT_NEAR(evc_correct_chi2(law.median(), law), 0.4549364231195724, 1e-6);
  EXPECT_LT(evc_correct_chi2(20, law), 20);
  EXPECT_GT(evc_correct_chi2(30, law), evc_correct_chi2(20, law));
}

TEST(Evc, MEvcIsTheMEstimateOfTheCorrectedCount) {
  // The paper's worked example (s' = 6.484 of n = 10, prior 0.5) under Orange 2's mEVC with m = 2:
  // (6.484 + 2 * 0.5) / (10 + 2) = 0.6237.
  auto calibration = std::make_shared<EvcCalibration>();
  calibration->laws = {{GumbelLaw{3.0, 2.0}}, {GumbelLaw{3.0, 2.0}}};
  auto m_evc = make_quality("m-evc", QualityParams{2, calibration});
  auto evc = make_quality("evc", QualityParams{2, calibration});
  const std::vector<double> covered{8, 2}, totals{10, 10};
  const RuleStats r = make_rule_stats(covered, totals, 0, 1);
  EXPECT_NEAR(evc->evaluate(r), 0.6484049817212825, 1e-7);
  EXPECT_NEAR(m_evc->evaluate(r), (6.484049817212825 + 1.0) / 12.0, 1e-7);
  EXPECT_EQ(m_evc->probability(r), m_evc->evaluate(r));
  EXPECT_GE(m_evc->quick_bound(r), m_evc->evaluate(r));  // the uncorrected m-estimate bounds it
  EXPECT_NEAR(m_evc->quick_bound(r), 9.0 / 12.0, 1e-12);
  EXPECT_TRUE(quality_needs_calibration("m-evc"));
  EXPECT_FALSE(quality_needs_calibration("m-estimate"));
  EXPECT_THROW(make_quality("m-evc", QualityParams{2, nullptr}), std::invalid_argument);

  // A rule EVC corrects to the prior scores the prior exactly, so that --stop prior refuses it: 1 of 8 for a
  // class of 3 in 200 (LRS 2.6, below the law's median), m = sqrt(200). (P/N n + m P/N) / (n + m) rounds a
  // unit in the last place above P/N here.
  const double m = std::sqrt(200.0), prior = 3.0 / 200.0;
  ASSERT_GT((prior * 8 + m * prior) / (8 + m), prior);
  auto wide = std::make_shared<EvcCalibration>();
  wide->laws = {{GumbelLaw{10.0, 2.0}}, {GumbelLaw{10.0, 2.0}}};
  const std::vector<double> weak{1, 7}, sizes{3, 197};
  EXPECT_EQ(make_quality("m-evc", QualityParams{m, wide})->evaluate(make_rule_stats(weak, sizes, 0, 1)), prior);
}

TEST(Evc, MayReachIsFalseOnlyBelowTheBar) {
  // The search skips a candidate when may_reach(stats, bar) is false: that must mean the corrected value is
  // below the bar, for every rule and bar; and the bounds must reject most hopeless candidates.
  auto calibration = std::make_shared<EvcCalibration>();
  calibration->laws = {{GumbelLaw{4.0, 2.0}, GumbelLaw{9.0, 2.0}}, {GumbelLaw{2.0, 2.0}, GumbelLaw{6.0, 2.0}}};
  std::mt19937_64 rng(11);
  std::size_t rejected = 0, cases = 0;
  for (const char* name : {"evc", "m-evc"}) {
    auto measure = make_quality(name, QualityParams{5, calibration});
    for (double total : {50.0, 2000.0, 100000.0}) {
      std::uniform_real_distribution<double> u(0, 1);
      for (int i = 0; i < 1500; ++i) {
        const double p_total = std::floor(u(rng) * (total - 1)) + 1;
        const double n = std::floor(u(rng) * (total - 1)) + 1;
        const double s = std::max(std::floor(u(rng) * std::min(n, p_total)), std::max(0.0, n - (total - p_total)));
        const std::vector<double> covered{s, n - s}, totals{p_total, total - p_total};
        const RuleStats r = make_rule_stats(covered, totals, 0, 1 + i % 2);
        const double value = measure->evaluate(r);
        for (double bar : {value, value * 1.0001 + 1e-6, value + 0.05, value + 0.3, 0.5, 0.9}) {
          ++cases;
          if (measure->may_reach(r, bar)) continue;
          ++rejected;
          ASSERT_LT(value, bar) << name << " s " << s << " n " << n << " P " << p_total << " N " << total;
        }
        ASSERT_TRUE(measure->may_reach(r, value)) << name << " s " << s << " n " << n;
      }
    }
  }
  EXPECT_GT(rejected, cases / 3);
}

// evc and m-evc rule a box of rules (s <= s_most, n >= n_least, s <= n) out only when every rule of it
// scores below the bar: enumerated over small data under a law that corrects some rules and not others.
TEST(Evc, BoxBoundsHoldForEveryRuleOfTheBox) {
  auto calibration = std::make_shared<EvcCalibration>();
  calibration->laws = {{GumbelLaw{3.0, 2.0}}, {GumbelLaw{3.0, 2.0}}};
  std::mt19937 rng(9);
  for (const char* name : {"evc", "m-evc"}) {
    auto measure = make_quality(name, QualityParams{3, calibration});
    std::size_t ruled_out = 0;
    for (int t = 0; t < 600; ++t) {
      const int total = 4 + static_cast<int>(rng() % 40);
      const int p = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
      const std::vector<double> totals{double(p), double(total - p)};
      const int n_least = 1 + static_cast<int>(rng() % static_cast<unsigned>(total - 1));
      const int s_most = static_cast<int>(rng() % static_cast<unsigned>(p + 1));
      double best = -1;
      for (int n = n_least; n < total; ++n)
        for (int s = std::max(0, n - (total - p)); s <= std::min({s_most, n, p}); ++s) {
          const std::vector<double> covered{double(s), double(n - s)};
          best = std::max(best, measure->evaluate(make_rule_stats(covered, totals, 0, 1)));
        }
      if (best < 0) continue;
      const std::vector<double> zero{0, 0};
      const RuleStats base{zero, totals, 0, 1, 0.0, double(total)};
      for (double bar : {best, best * 1.2 + 0.01, best + 0.3}) {
        const bool may = measure->box_may_reach(base, s_most, n_least, bar);
        if (!may) {
          EXPECT_LT(best, bar) << name << " N " << total << " P " << p << " s_most " << s_most << " n_least "
                               << n_least;
          ++ruled_out;
        }
      }
      EXPECT_TRUE(measure->box_may_reach(base, s_most, n_least, best)) << name;
    }
    EXPECT_GT(ruled_out, 200u) << name;
  }
}

// The EVC cache folder holds at most evc_cache_max_files calibrations: a write past the limit removes the
// least recently used (oldest file times) down to three quarters of it, and leaves other files alone.
TEST(Evc, CacheFolderKeepsTheMostRecentlyUsedCalibrations) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir() / "evc-cache-prune";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Dataset d = load_dataset(test::repo("data/vote.arff"));
  SearchOptions search;
  search.max_rule_length = 2;
  const std::size_t before = evc_cache_max_files();
  set_evc_cache_dir(dir.string());
  set_evc_cache_max_files(4);
  // Another file of the folder, older than every calibration: not the cache's to remove.
  { std::ofstream(dir / "notes.json") << "{}"; }
  fs::last_write_time(dir / "notes.json", fs::file_time_type::clock::now() - std::chrono::hours(48));
  auto calibrations = [&] {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().filename() != "notes.json") files.push_back(entry.path());
    return files;
  };
  std::vector<fs::path> written;  // in order of writing
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    EvcSettings settings;
    settings.permutations = 2;
    settings.seed = seed;  // another key each time
    const auto old = calibrations();
    calibrate_evc_cached(d, search, settings, {}, 1);
    for (const auto& f : calibrations())
      if (std::find(old.begin(), old.end(), f) == old.end()) written.push_back(f);
    ASSERT_EQ(written.size(), seed);
    // Distinct file times whatever the file system's resolution: the n-th written is n hours old less.
    for (std::size_t i = 0; i < written.size(); ++i)
      if (fs::exists(written[i]))
        fs::last_write_time(written[i], fs::file_time_type::clock::now() - std::chrono::hours(10 - i));
    EXPECT_LE(calibrations().size(), 4u);
  }
  // The fifth write found five and kept three (the third to the fifth); the sixth made four.
  const auto left = calibrations();
  EXPECT_EQ(left.size(), 4u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(fs::exists(written[i]), i >= 2) << "calibration " << i + 1;
  EXPECT_TRUE(fs::exists(dir / "notes.json"));
  set_evc_cache_dir("");
  set_evc_cache_max_files(before);
}
