#include "candor/learn/fit.hpp"

#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "candor/evc/calibration.hpp"
#include "candor/learn/bootstrap_correction.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/learn/stable_rules.hpp"

namespace candor {

const std::vector<ParamInfo>& evc_params() {
  static const std::vector<ParamInfo> table{
      {"evc_permutations", field<&LearnerParams::evc, &EvcOptions::permutations>(),
       "evc: class permutations the Gumbel laws are fitted on (paper 000 and Orange 2: 100, unpooled; with "
       "--evc-pool classes, 20 move the rules' corrected probabilities by about 0.012 RMSE from the laws of "
       "many permutations, docs/evc_calibration.md); pooled, more than two classes with rows share them: each "
       "class is searched on max(10, ceil(2 x this / classes)) of them (at most this), as many maxima in the "
       "pool as a binary calibration's",
       "rule", at_least(1), &reads_evc},
      {"evc_fit",
       named_field<kGumbelFitNames, &LearnerParams::evc, &EvcOptions::fit>(),
       "evc: how each Gumbel law is fitted: fixed-beta (beta = 2, mu from the mean; the authors' code), "
       "moments, or ml (maximum likelihood)",
       "rule",
       {},
       &reads_evc},
      {"evc_pool",
       named_field<kEvcPoolNames, &LearnerParams::evc, &EvcOptions::pool>(),
       "evc: classes (shrink each class's law towards the other classes' where they agree within their "
       "Monte Carlo noise: an empirical-Bayes pooling that lets fewer permutations give the same laws, and with "
       "more than two classes fewer searches, see --evc-permutations) or none (each class fitted alone on every "
       "permutation, as in paper 000)",
       "rule",
       {},
       &reads_evc},
  };
  return table;
}

std::unique_ptr<Model> fit_model(const Dataset& data, const LearnerParams& params, int threads) {
  validate(params);
  return fit_checked_model(data, params, threads);
}

std::unique_ptr<Model> fit_checked_model(const Dataset& data, const LearnerParams& params, int threads) {
  const LearnerInfo& learner = params.info();
  if (learner.fit_model) return learner.fit_model(data, params, threads);
  return std::make_unique<RuleModel>(fit_rules(data, params, threads));
}

namespace {

// A rule learner's fit with its options checked and resolved (`settings`) and its measures built.
RuleModel fit_resolved(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                       const QualityMeasure& quality, int threads, const QualityMeasure* estimate) {
  RuleModel model = params.info().fit(data, params, settings, quality, threads, estimate);
  use_rule_settings(model, params, settings);
  return model;
}

}  // namespace

RuleModel fit(const Dataset& data, const LearnerParams& given, int threads) {
  validate(given);
  return fit_rules(data, given, threads);
}

namespace {

// A rule learner's measures: its quality (with m from the class totals of its rows) and, with --correct evc, EVC's
// estimate beside it; EVC calibrated by `calibrate` where either needs it.
struct Measures {
  LearnerParams params;  // with m resolved
  QualityParams quality_params;
  std::unique_ptr<QualityMeasure> quality, corrector;
};

template <class Calibrate>
Measures make_measures(const LearnerParams& given, const RuleSettings& settings, const std::vector<double>& totals,
                       int target, int threads, Calibrate&& calibrate) {
  Measures out;
  out.params = given;
  LearnerParams& params = out.params;
  params.heuristics.m_scale = settings.m_scale;
  if (params.heuristics.m_scale > 0)  // totals: of the labelled rows
    params.heuristics.m = params.heuristics.m_scale * std::sqrt(std::accumulate(totals.begin(), totals.end(), 0.0));
  out.quality_params = QualityParams{params.heuristics.m, nullptr};
  if (settings.uses_evc()) {
    EvcSettings evc{params.evc.permutations, params.evc.fit, static_cast<std::uint64_t>(params.seed), params.evc.pool};
    std::vector<int> classes;
    if (target >= 0) classes.push_back(target);
    out.quality_params.evc =
        std::make_shared<EvcCalibration>(calibrate(search_options(params, settings, threads), evc, classes));
  }
  out.quality = make_quality(settings.quality, out.quality_params);
  // --correct evc: the learner ranks by its own measure; EVC estimates the probabilities.
  if (settings.correct == Correction::evc) out.corrector = make_quality("evc", out.quality_params);
  return out;
}

}  // namespace

RuleModel fit_rules(const Dataset& data, const LearnerParams& given, int threads) {
  if (!given.info().fit) throw std::invalid_argument(given.learner + " is not a rule learner (fit it with fit_model)");
  const RuleSettings settings = resolve_rule_settings(given);
  if (settings.correct == Correction::bootstrap) {
    // The learner's own estimates first, then the shrinkage fitted on its rules out of bag.
    LearnerParams raw = given;
    raw.correct = Correction::none;
    RuleModel model = fit_rules(data, raw, threads);
    apply_bootstrap_shrinkage(model, fit_bootstrap_shrinkage(data, given, threads));
    // The model records the correction and its resamples, which the raw fit's options did not read.
    LearnerParams used = model_options(model);
    used.correct = Correction::bootstrap;
    used.bootstrap_resamples = given.bootstrap_resamples;
    model.learner = params_to_json(used);
    model.settings.estimate = RuleEstimate::bootstrap;
    model.use(model.settings);
    return model;
  }
  const Measures m =
      make_measures(given, settings, data.class_totals(), target_class(data, given), threads,
                    [&](const SearchOptions& search, const EvcSettings& evc, const std::vector<int>& classes) {
                      return calibrate_evc_cached(data, search, evc, classes, threads);
                    });
  RuleModel model = m.params.stable.resamples > 0
                        ? fit_stable_rules(data, m.params, settings, *m.quality, threads, m.corrector.get())
                        : fit_resolved(data, m.params, settings, *m.quality, threads, m.corrector.get());
  if (m.quality_params.evc) model.evc = *m.quality_params.evc;
  use_rule_settings(model, m.params, settings);
  return model;
}

std::string refuses_rows(const LearnerParams& params) {
  const LearnerInfo& learner = params.info();
  if (!learner.fit_on_rows && !learner.fit_model_on_rows)
    return params.learner +
           " needs every row in one process (the learners that fit across workers: rule-logistic with its gradient "
           "candidates, the default, gradient-rules and cn2-unordered)";
  if (learner.refuses_rows) return learner.refuses_rows(params);
  return "";
}

RuleModel fit_rules(FitRows& rows, const LearnerParams& given, int threads) {
  if (const std::string why = refuses_rows(given); !why.empty()) throw std::invalid_argument(why);
  const LearnerInfo& learner = given.info();
  if (!learner.fit_on_rows)
    throw std::invalid_argument(given.learner + " is not a rule learner (fit it with fit_model)");
  const RuleSettings settings = resolve_rule_settings(given);
  const Measures m =
      make_measures(given, settings, rows.class_counts(), target_class(rows.schema(), given), threads,
                    [&](const SearchOptions& search, const EvcSettings& evc, const std::vector<int>& classes) {
                      return rows.calibrate_evc(search, evc, classes, threads);
                    });
  RuleModel model = learner.fit_on_rows(rows, m.params, settings, *m.quality, threads, m.corrector.get());
  if (m.quality_params.evc) model.evc = *m.quality_params.evc;
  use_rule_settings(model, m.params, settings);
  return model;
}

std::unique_ptr<Model> fit_model(FitRows& rows, const LearnerParams& params, int threads) {
  validate(params);
  if (const std::string why = refuses_rows(params); !why.empty()) throw std::invalid_argument(why);
  const LearnerInfo& learner = params.info();
  if (learner.fit_model_on_rows) return learner.fit_model_on_rows(rows, params, threads);
  return std::make_unique<RuleModel>(fit_rules(rows, params, threads));
}

RuleModel fit_with_quality(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality, int threads,
                           const QualityMeasure* estimate) {
  validate(params);
  if (!params.info().fit) throw std::invalid_argument(params.learner + " is not a rule learner");
  return fit_resolved(data, params, resolve_rule_settings(params), quality, threads, estimate);
}

}  // namespace candor
