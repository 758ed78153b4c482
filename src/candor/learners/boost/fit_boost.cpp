// The `boost` learner: its fit function, and the calibrations it fits on internal folds.
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "candor/data/resampling.hpp"
#include "candor/learn/base_learner.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/learners/boost/boost.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/linear/logit_probabilities.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

const std::vector<ParamInfo>& boost_params() {
  static const std::vector<ParamInfo> table{
      {"boosting", named_option_field<kBoostingNames, &BoostOptions::boosting>(),
       "boost: kbs (knowledge-based sampling, paper 001: each model's LIFT per leaf and class is divided out of "
       "the example weights, predictions multiply the LIFTs), adaboost-m1 (reweighting by beta = e / (1 - e), a "
       "vote with log(1 / beta); stops when the weighted error is 0 or at least 0.5) or logitboost (additive "
       "logistic regression on regression stumps; two classes as in the paper's Fig. 2, more by Friedman, "
       "Hastie and Tibshirani's J-class version)",
       "boost"},
      {"calibrate", named_option_field<kBoostCalibrationNames, &BoostOptions::calibrate>(),
       "boost: none (the ensemble's own scores, as paper 001's; its experiments pin it), or temperature: the scores' "
       "scale fitted by maximum likelihood on "
       "5 stratified internal folds (each fold's rows scored by an ensemble fitted without them; Guo et al. 2017's "
       "temperature scaling, one parameter), so that a vote of confident members does not read as certainty; "
       "costs 5 more ensemble fits and leaves the most probable class of every row as it was; smoothing (kbs "
       "only): the --prior-weight of the prediction LIFTs fitted the same way, so that a cell measured on few "
       "weighted rows is pulled towards a LIFT of 1 (the members and their reweighting are unchanged); or "
       "discount: the temperature and a factor g in [0, 1], fitted together the same way, by which the members "
       "of round k count g^k times, so that later members, fitted on ever more reweighted data, count less "
       "where held-out rows say so (g = 1 unless a likelihood-ratio test at 5% rejects it; can change the most "
       "probable class; the default, the best calibrated of the four on the corpus: docs/boosting.md)",
       "boost"},
      {"base", named_option_field<kBaseLearnerNames, &BoostOptions::base>(),
       "boost: the base learner of kbs and adaboost-m1: stump, tree or rule (a single CN2 rule, its covered and "
       "uncovered examples the two leaves); logitboost always fits regression stumps",
       "boost"},
      {"iterations", option_field<&BoostOptions::iterations>(),
       "boost: the most base models (fewer when boosting stops early)", "boost", in_range(1, 1000000)},
      {"subsample", option_field<&BoostOptions::subsample>(),
       "boost: 0: each base model is fitted on the weighted training set; S > 0: on round(S x rows) rows drawn "
       "with replacement in proportion to their weights (seeded; AdaBoost.M1's resampling with 1; the paper's "
       "KBS on 10% bootstraps with 0.1)",
       "boost", at_least(0)},
      {"stratify", option_field<&BoostOptions::stratify>(),
       "boost with kbs: the base learner sees every class with the same total weight, so that maximising its "
       "accuracy maximises WRAcc (the paper's Figs. 4 and 5); the LIFTs are still measured on the unstratified "
       "weights",
       "boost"},
  };
  return table;
}

namespace {

// The internal folds both calibrations fit on: 5 stratified folds of the labelled rows (seeded by --seed),
// or one per row on fewer than five rows; none on fewer than two (one row cannot be split). Each fold's
// training rows and held rows are rows of the data.
struct InternalFold {
  std::vector<std::size_t> train, held;
};
std::vector<InternalFold> internal_folds(const Dataset& data, const LearnerParams& params) {
  const auto labelled = labelled_rows(data);
  std::vector<int> y;
  for (std::size_t r : labelled) y.push_back(data.y[r]);
  const int k = static_cast<int>(std::min<std::size_t>(5, labelled.size()));
  if (k < 2) return {};
  std::vector<InternalFold> out;
  for (const auto& fold : stratified_folds(y, k, static_cast<std::uint64_t>(params.seed))) {
    InternalFold f;
    for (std::size_t i : rows_not_in(labelled.size(), fold)) f.train.push_back(labelled[i]);
    for (std::size_t i : fold) f.held.push_back(labelled[i]);
    out.push_back(std::move(f));
  }
  return out;
}

// What --calibrate temperature and discount fit: the scale of the scores and, for discount, the factor per
// round of the members' contributions.
struct ScoreCalibration {
  double temperature = 1;
  double member_discount = 1;
};

// --calibrate temperature: the scale t of the ensemble's scores that maximises the likelihood of rows it
// did not see: each internal fold's held rows scored by the ensemble fitted on its training rows. Scores are
// the logits predict_proba takes its softmax of. --calibrate discount: the same likelihood, maximised over t
// and the factor g in [0, 1] that the members of round k are multiplied by as g^k (Brent's method on g,
// and on log t for each g), kept where a likelihood-ratio test rejects g = 1: boosting's later members are
// fitted on ever more reweighted data, and on held-out rows they can deserve less than the first ones (KBS
// over trees on many classes most: docs/boosting.md).
// `params` has --multiclass resolved (fit_boost's `used`): KBS's default form depends on --calibrate, which the
// internal ensembles set to none, and they must fit the form the model has.
ScoreCalibration fit_score_calibration(const Dataset& data, const LearnerParams& params, bool discount, int threads) {
  LearnerParams inner = params;
  inner.options<BoostOptions>().calibrate = BoostCalibration::none;
  const auto folds = internal_folds(data, params);
  if (folds.empty()) return {};  // nothing to fit on
  // Each fold's ensemble: its base scores, its members' rounds, and each held row's member contributions.
  struct Held {
    std::vector<std::vector<double>> parts;
    int y;
  };
  struct Scored {
    std::vector<double> base;
    std::vector<std::size_t> rounds;
    std::vector<Held> rows;
  };
  std::vector<Scored> scored(folds.size());
  parallel_for(folds.size(), threads, [&](std::size_t f) {
    if (folds[f].train.empty()) return;
    const auto fitted = fit_boost(data.subset(folds[f].train), inner, 1);
    const auto& m = dynamic_cast<const BoostModel&>(*fitted);
    if (m.settings.boosting == BoostingMethod::adaboost_m1 && m.members.size() == 1)
      return;  // its leaves decide, unscaled
    scored[f].base = m.base_scores();
    scored[f].rounds = m.member_rounds();
    for (std::size_t r : folds[f].held) scored[f].rows.push_back({m.contributions(data, r), data.y[r]});
  });
  std::size_t rounds = 0;
  std::vector<int> labels;  // of the held rows, fold by fold (the order of `unscaled` below)
  for (const auto& fold : scored) {
    for (std::size_t round : fold.rounds) rounds = std::max(rounds, round + 1);
    for (const auto& r : fold.rows) labels.push_back(r.y);
  }
  if (labels.empty()) return {};
  // Each held row's scores with the members of round k counted g^k times, before the temperature: computed
  // once per g, since the search over the temperature at one g only rescales them.
  std::vector<double> factor(rounds);
  std::vector<std::vector<double>> unscaled;
  auto discount_scores = [&](double g) {
    for (std::size_t k = 0; k < rounds; ++k) factor[k] = g == 1 ? 1.0 : std::pow(g, static_cast<double>(k));
    unscaled.clear();
    for (const auto& fold : scored)
      for (const auto& r : fold.rows) {
        std::vector<double> s = fold.base;
        for (std::size_t i = 0; i < r.parts.size(); ++i)
          for (std::size_t c = 0; c < s.size(); ++c) s[c] += factor[fold.rounds[i]] * r.parts[i][c];
        unscaled.push_back(std::move(s));
      }
  };
  std::vector<double> s, p;
  auto loss = [&](double log_t) {
    const double t = std::exp(log_t);
    double sum = 0;
    for (std::size_t i = 0; i < unscaled.size(); ++i) {
      s = unscaled[i];
      for (double& v : s) v *= t;
      logit_probabilities(s.data(), static_cast<int>(s.size()), p);  // BoostModel::probabilities
      sum -= std::log(std::max(p[static_cast<std::size_t>(labels[i])], 1e-15));
    }
    return sum;
  };
  // Scales from a thousandth to a hundredfold, searched on log t.
  auto best_log_t = [&](double g) {
    discount_scores(g);
    return boost::math::tools::brent_find_minima(loss, std::log(1e-3), std::log(100.0), 30);
  };
  ScoreCalibration out;
  if (discount) {
    const auto [g, value] =
        boost::math::tools::brent_find_minima([&](double g) { return best_log_t(g).second; }, 0.0, 1.0, 20);
    (void)value;
    out.member_discount = discount_rejects_full_rounds(best_log_t(1.0).second, best_log_t(g).second) ? g : 1.0;
  }
  out.temperature = std::exp(best_log_t(out.member_discount).first);
  return out;
}

// --calibrate smoothing (KBS): the --prior-weight of the prediction LIFTs that maximises the likelihood of
// rows the ensemble did not see, on the internal folds. The members and their reweighting (exact
// LIFTs, Theorem 1) are untouched; only how far each cell's LIFT is pulled towards 1 is fitted, so a cell
// fitted on few (weighted) rows counts for less. Each fold's members are fitted once; a smoothing's LIFTs
// follow from their (cell, class) weights.
// What an ensemble fitted with `used` predicts with (the model's settings).
BoostModelSettings boost_model_settings(const LearnerParams& used) {
  const BoostOptions& o = used.options<BoostOptions>();
  BoostModelSettings s;
  s.boosting = o.boosting;
  s.leaf_estimate = parse_leaf_estimate(name_of(kLeafEstimateOptionNames, resolved_leaf_estimate(used)));
  s.prior_weight = used.prior_weight;
  s.calibrate = o.calibrate;
  s.one_vs_rest = o.boosting == BoostingMethod::kbs && used.resolved_multiclass() == MulticlassForm::one_vs_rest;
  return s;
}

double fit_lift_smoothing(const Dataset& data, const LearnerParams& params, int threads) {
  LearnerParams inner = params;
  inner.options<BoostOptions>().calibrate = BoostCalibration::none;
  const auto folds = internal_folds(data, params);
  if (folds.empty()) return params.prior_weight;
  struct Fold {
    Dataset train;
    BoostModel model;  // fitted on train, its LIFTs refilled for each smoothing tried
    KbsMembers members;
    std::vector<std::size_t> held;  // rows of `data`
  };
  std::vector<Fold> fitted(folds.size());
  parallel_for(folds.size(), threads, [&](std::size_t f) {
    if (folds[f].train.empty()) return;
    Fold& fold = fitted[f];
    fold.train = data.subset(folds[f].train);
    fold.model.learner = params_to_json(inner);
    fold.model.settings = boost_model_settings(inner);
    record_training(fold.model, fold.train);
    const auto rows = labelled_rows(fold.train);
    fold.members = kbs_members(inner, fold.train, rows, weights_of(fold.train, rows), 1);
    fold.held = folds[f].held;
  });
  auto loss = [&](double log_w) {
    double sum = 0;
    for (auto& fold : fitted) {
      if (fold.held.empty()) continue;
      kbs_fill(fold.model, fold.members, std::exp(log_w));
      for (std::size_t r : fold.held)
        sum -= std::log(std::max(fold.model.predict_proba(data, r)[static_cast<std::size_t>(data.y[r])], 1e-15));
    }
    return sum;
  };
  // From a hundredth of a pseudo-example to ten thousand, searched on the log.
  const auto [log_w, value] = boost::math::tools::brent_find_minima(loss, std::log(1e-2), std::log(1e4), 30);
  (void)value;
  return std::exp(log_w);
}

}  // namespace

bool discount_rejects_full_rounds(double loss_full, double loss_discounted) {
  // Twice the log-likelihood gain against chi-squared with one degree of freedom (the parameter g adds).
  static const double critical = boost::math::quantile(boost::math::chi_squared(1.0), 0.95);
  return 2 * (loss_full - loss_discounted) > critical;
}

std::unique_ptr<Model> fit_boost(const Dataset& data, const LearnerParams& params, int threads) {
  LearnerParams used = params;
  if (used.options<BoostOptions>().boosting == BoostingMethod::kbs)
    used.multiclass = params.resolved_multiclass();  // recorded
  auto model = std::make_unique<BoostModel>();
  model->learner = params_to_json(used);
  model->settings = boost_model_settings(used);
  record_training(*model, data);
  if (model->settings.boosting == BoostingMethod::logitboost && data.num_classes() < 2)
    throw std::invalid_argument("logitboost needs a class with at least two values");
  const auto rows = labelled_rows(data);
  if (rows.empty()) throw std::invalid_argument("boost needs labelled training examples");
  const std::vector<double> weights = weights_of(data, rows);
  switch (model->settings.boosting) {
    case BoostingMethod::kbs:
      if (model->settings.calibrate == BoostCalibration::smoothing) {
        // The members first, then their LIFTs with the smoothing fitted on internal folds (recorded).
        const KbsMembers members = kbs_members(used, data, rows, weights, threads);
        model->lift_prior_weight = fit_lift_smoothing(data, used, threads);
        kbs_fill(*model, members, model->lift_prior_weight);
      } else {
        boost_kbs(*model, used, data, rows, weights, threads);
      }
      break;
    case BoostingMethod::adaboost_m1: boost_adaboost_m1(*model, used, data, rows, weights, threads); break;
    case BoostingMethod::logitboost: boost_logitboost(*model, used, data, rows, weights, threads); break;
  }
  if (model->settings.calibrate == BoostCalibration::temperature ||
      model->settings.calibrate == BoostCalibration::discount) {
    const ScoreCalibration c =
        fit_score_calibration(data, used, model->settings.calibrate == BoostCalibration::discount, threads);
    model->temperature = c.temperature;
    model->member_discount = c.member_discount;
  }
  return model;
}

bool boost_reads_base(const LearnerParams& p) {
  // logitboost always fits regression stumps: it reads no base learner's options.
  return p.options<BoostOptions>().boosting != BoostingMethod::logitboost;
}

MulticlassForm kbs_default_multiclass(const LearnerParams& p) {
  const BoostOptions& b = p.options<BoostOptions>();
  const bool calibrated = b.calibrate == BoostCalibration::temperature || b.calibrate == BoostCalibration::discount;
  return b.base == BaseLearner::tree && calibrated ? MulticlassForm::softmax : MulticlassForm::one_vs_rest;
}

bool boost_also_reads(const LearnerParams& p, std::string_view name) {
  return name == "multiclass" && p.options<BoostOptions>().boosting == BoostingMethod::kbs;
}

void check_boost_options(const LearnerParams& p) {
  const BoostOptions& b = p.options<BoostOptions>();
  if (b.boosting == BoostingMethod::logitboost && b.base != BaseLearner::stump)
    throw std::invalid_argument(std::string("logitboost fits regression stumps; --base ") +
                                name_of(kBaseLearnerNames, b.base) + " is not available with it");
  if (b.stratify && b.boosting != BoostingMethod::kbs)
    throw std::invalid_argument("--stratify is an option of --boosting kbs");
  if (b.calibrate == BoostCalibration::smoothing && b.boosting != BoostingMethod::kbs)
    throw std::invalid_argument("--calibrate smoothing fits KBS's LIFT smoothing; " +
                                std::string(name_of(kBoostingNames, b.boosting)) +
                                " has no LIFTs (use --calibrate temperature)");
  if (reads_option_group(p, "leaf") && resolved_leaf_estimate(p) == LeafEstimateOption::bootstrap)
    throw std::invalid_argument("--leaf-estimate bootstrap is a single tree's or stump's, not --learner " + p.learner);
}

std::string describe_boost(const LearnerParams& p) {
  const BoostOptions& b = p.options<BoostOptions>();
  std::string s =
      "boost (" + std::string(name_of(kBoostingNames, b.boosting)) +
      (b.boosting == BoostingMethod::logitboost ? " on regression stumps"
                                                : " over " + std::string(name_of(kBaseLearnerNames, b.base))) +
      ", " + std::to_string(b.iterations) + " iterations";
  if (b.subsample > 0) s += ", subsamples of " + nlohmann::json(b.subsample).dump() + " x rows";
  if (b.stratify) s += ", stratified";
  if (b.boosting == BoostingMethod::kbs)
    s += ", " + std::string(name_of(kMulticlassNames, p.resolved_multiclass())) + " on more than two classes";
  if (b.calibrate != BoostCalibration::none)
    s += ", " + std::string(name_of(kBoostCalibrationNames, b.calibrate)) + "-calibrated";
  if (reads_option_group(p, "leaf")) s += "; " + describe_tree_options(p);
  if (reads_option_group(p, "rule"))
    s += "; " + describe_rule_learner(options_for(p, name_of(kBaseLearnerNames, b.base)));
  return s + ")";
}

void write_boost_options(const LearnerParams& p, nlohmann::json& j) {
  write_leaf_estimate(p, j);
  // --calibrate is written unless it is none: files of uncalibrated models stay as they were before it.
  if (p.options<BoostOptions>().calibrate == BoostCalibration::none) j.erase("calibrate");
  // A kbs model records it (fit_boost resolves it); a kbs model file without it predates the option and is
  // softmax (BoostModel::from_json).
  if (p.options<BoostOptions>().boosting == BoostingMethod::kbs && p.multiclass)
    j["multiclass"] = name_of(kMulticlassNames, *p.multiclass);
}

}  // namespace candor
