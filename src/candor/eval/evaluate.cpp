#include "candor/eval/evaluate.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/data/resampling.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/fit.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/progress.hpp"
#include "candor/util/random.hpp"

namespace candor {

RuleHits rule_hits(const Rule& r, const Dataset& d) {
  RuleHits h;
  for (std::size_t row = 0; row < d.rows(); ++row)
    if (r.covers(d, row)) {
      ++h.rows;
      h.n += d.weights[row];
      if (d.y[row] == r.klass) h.s += d.weights[row];
    }
  return h;
}

double rule_probability_rmse(const std::vector<RulePoint>& points) {
  double sum = 0;
  for (const auto& p : points) sum += std::pow(p.probability - p.test_share, 2);
  return points.empty() ? NAN : std::sqrt(sum / static_cast<double>(points.size()));
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// evaluate_split of options checked already (a cross-validation's and a train/test evaluation's, checked
// once where they start): a fit validates its options once.
FoldResult evaluate_checked_split(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                                  bool keep_predictions) {
  auto t0 = Clock::now();
  const auto model = fit_checked_model(train, params, threads);
  const double fit_seconds = seconds_since(t0);
  FoldResult out = evaluate_model(*model, test, keep_predictions);
  out.fit_seconds = fit_seconds;
  return out;
}

}  // namespace

FoldResult evaluate_split(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                          bool keep_predictions) {
  validate(params);
  return evaluate_checked_split(train, test, params, threads, keep_predictions);
}

namespace {

// The figures of predictions `proba` (and whether each was decided) of the rows of `test`.
void measure_predictions(FoldResult& out, const Dataset& test, const std::vector<std::vector<double>>& proba,
                         const std::vector<char>& decided) {
  out.metrics = compute_metrics(test.y, proba);
  out.confusion = confusion_matrix(test.y, proba, test.schema.class_attribute.values.size());
  double labelled = 0, right = 0, undecided = 0;
  for (std::size_t r = 0; r < test.rows(); ++r) {
    if (test.y[r] == kMissing) continue;
    const double w = test.weights[r];
    labelled += w;
    if (!decided[r])
      undecided += w;
    else if (std::max_element(proba[r].begin(), proba[r].end()) - proba[r].begin() == test.y[r])
      right += w;
  }
  out.adjusted_accuracy = labelled > 0 ? right / labelled : NAN;
  out.undecided_rate = labelled > 0 ? undecided / labelled : NAN;
  out.test_rows = test.rows();
}

}  // namespace

FoldResult evaluate_model(const Model& model, const Dataset& test, bool keep_predictions) {
  FoldResult out;
  auto t1 = Clock::now();
  std::vector<std::vector<double>> proba(test.rows());
  for (std::size_t r = 0; r < test.rows(); ++r) proba[r] = model.predict_proba(test, r);
  out.predict_seconds = seconds_since(t1);
  std::vector<char> decided(test.rows(), 1);
  for (std::size_t r = 0; r < test.rows(); ++r) decided[r] = model.decides(test, r);
  measure_predictions(out, test, proba, decided);
  out.training_statistics = model.training_statistics();
  out.rules = model.rule_count();
  out.mean_rule_length = model.mean_rule_length();
  std::vector<RulePoint> points = model.rule_points(test);
  out.rule_rmse = rule_probability_rmse(points);
  if (keep_predictions) {
    out.y = test.y;
    out.proba = std::move(proba);
    out.decided = std::move(decided);
    out.rule_points = std::move(points);
  }
  return out;
}

namespace {

EvaluationResult summarise(std::vector<FoldResult> folds) {
  EvaluationResult res;
  res.folds = std::move(folds);
  for (const auto& f : res.folds) {
    if (res.confusion.empty()) res.confusion.assign(f.confusion.size(), std::vector<double>(f.confusion.size(), 0.0));
    for (std::size_t a = 0; a < f.confusion.size(); ++a)
      for (std::size_t p = 0; p < f.confusion.size(); ++p) res.confusion[a][p] += f.confusion[a][p];
  }
  double n = static_cast<double>(res.folds.size()), auc_n = 0, rmse_n = 0;
  for (const auto& f : res.folds) {
    res.mean.accuracy += f.metrics.accuracy / n;
    res.mean.brier += f.metrics.brier / n;
    res.mean.log_loss += f.metrics.log_loss / n;
    res.mean.ece += f.metrics.ece / n;
    res.mean.ece_floor += f.metrics.ece_floor / n;
    if (!std::isnan(f.metrics.auc)) {
      res.mean.auc += f.metrics.auc;
      auc_n += 1;
    }
    if (!std::isnan(f.rule_rmse)) {
      res.rule_rmse += f.rule_rmse;
      rmse_n += 1;
    }
    res.rules += static_cast<double>(f.rules) / n;
    res.mean_rule_length += f.mean_rule_length / n;
    res.fit_seconds += f.fit_seconds / n;
    res.predict_seconds += f.predict_seconds / n;
    res.adjusted_accuracy += f.adjusted_accuracy / n;
    res.undecided_rate += f.undecided_rate / n;
    for (std::size_t i = 0; i < f.training_statistics.size(); ++i) {
      if (res.training_statistics.size() <= i) res.training_statistics.push_back({f.training_statistics[i].first, 0.0});
      res.training_statistics[i].second += f.training_statistics[i].second / n;
    }
  }
  res.mean.auc = auc_n > 0 ? res.mean.auc / auc_n : NAN;
  res.rule_rmse = rmse_n > 0 ? res.rule_rmse / rmse_n : NAN;
  return res;
}

// cross_validate of options checked already (validate): the LearnerParams overload checks them first; a
// Learner was checked as it was made and set.
EvaluationResult checked_cross_validate(const Dataset& data, const LearnerParams& params, int folds, int repeats,
                                        std::uint64_t seed, int threads, bool keep_predictions,
                                        FoldCalibration calibration) {
  if (repeats < 1) throw std::invalid_argument("repeats must be at least 1");
  std::vector<std::vector<std::vector<std::size_t>>> splits;
  for (int r = 0; r < repeats; ++r)
    splits.push_back(stratified_folds(data.y, folds, seed + static_cast<std::uint64_t>(r)));
  const std::size_t tasks = static_cast<std::size_t>(folds) * static_cast<std::size_t>(repeats);
  std::vector<FoldResult> results(tasks);
  const int all_threads = resolve_threads(threads);
  const int outer = std::min<int>(all_threads, static_cast<int>(tasks));
  FoldCalibrationScope::Clock clock;
  std::atomic<bool> calibrated{false};
  const bool share = calibration == FoldCalibration::shared;
  auto run_fold = [&](std::size_t task, int fit_threads) {
    const int r = static_cast<int>(task / static_cast<std::size_t>(folds));
    const int f = static_cast<int>(task % static_cast<std::size_t>(folds));
    const auto& test_rows = splits[r][f];
    Dataset train = data.subset(rows_not_in(data.rows(), test_rows));
    Dataset test = data.subset(test_rows);
    FoldCalibrationScope scope(train, data, share, all_threads, clock);
    results[task] = evaluate_checked_split(train, test, params, fit_threads, keep_predictions);
    if (keep_predictions) results[task].rows_of_data = test_rows;
    // The fold's own fit, without its share of the whole data's calibration (added below, evenly).
    results[task].fit_seconds -= scope.seconds_sharing();
    if (scope.calibrated()) calibrated = true;
    results[task].repeat = r;
    results[task].fold = f;
  };
  // A shared calibration is computed by the first fold, on every thread, before the others start: a fold
  // that waited for it inside the parallel loop would hold a thread the calibration could use.
  std::size_t first = 0;
  Progress progress("evaluate", "folds", tasks, true);
  if (share && outer > 1) {
    run_fold(first++, all_threads);
    progress.step();
  }
  // Folds in parallel; each fit single-threaded then, so the cores are not oversubscribed.
  parallel_for(tasks - first, outer, [&](std::size_t i) {
    run_fold(first + i, outer > 1 ? 1 : all_threads);
    progress.step();
  });
  for (auto& fold : results) fold.fit_seconds += clock.computing.load() / static_cast<double>(tasks);
  EvaluationResult out = summarise(std::move(results));
  if (calibrated) out.evc_calibration = calibration;
  return out;
}

// train_test of options checked already, as checked_cross_validate.
EvaluationResult checked_train_test(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                                    bool keep_predictions) {
  for (int c : test.y)
    if (c < 0) throw std::invalid_argument("the test data has rows without a class value");
  return summarise({evaluate_checked_split(train, test, params, resolve_threads(threads), keep_predictions)});
}

}  // namespace

EvaluationResult cross_validate(const Dataset& data, const LearnerParams& params, int folds, int repeats,
                                std::uint64_t seed, int threads, bool keep_predictions, FoldCalibration calibration) {
  validate(params);
  return checked_cross_validate(data, params, folds, repeats, seed, threads, keep_predictions, calibration);
}

EvaluationResult train_test(const Dataset& train, const Dataset& test, const LearnerParams& params, int threads,
                            bool keep_predictions) {
  validate(params);
  return checked_train_test(train, test, params, threads, keep_predictions);
}

FoldResult out_of_fold_predictions(const Dataset& data, const LearnerParams& params, int folds, std::uint64_t seed,
                                   int threads) {
  const EvaluationResult cv = cross_validate(data, params, folds, 1, seed, threads, true);
  std::vector<std::vector<double>> proba(data.rows());
  std::vector<char> decided(data.rows(), 1);
  FoldResult out;
  for (const FoldResult& fold : cv.folds) {
    for (std::size_t i = 0; i < fold.rows_of_data.size(); ++i) {
      proba[fold.rows_of_data[i]] = fold.proba[i];
      decided[fold.rows_of_data[i]] = fold.decided[i];
    }
    // The fold models' rules are not the rules of a model fitted on every row: they carry no number.
    for (RulePoint p : fold.rule_points) {
      p.rule = 0;
      out.rule_points.push_back(p);
    }
  }
  measure_predictions(out, data, proba, decided);
  out.rules = static_cast<std::size_t>(std::lround(cv.rules));
  out.mean_rule_length = cv.mean_rule_length;
  out.rule_rmse = rule_probability_rmse(out.rule_points);
  out.fit_seconds = cv.fit_seconds;
  out.training_statistics = cv.training_statistics;
  out.y = data.y;
  out.proba = std::move(proba);
  out.decided = std::move(decided);
  return out;
}

EvaluationResult cross_validate(const Dataset& data, const Learner& learner, int folds, int repeats, std::uint64_t seed,
                                int threads, bool keep_predictions, FoldCalibration calibration) {
  return checked_cross_validate(data, learner.params(), folds, repeats, seed, threads, keep_predictions, calibration);
}

EvaluationResult train_test(const Dataset& train, const Dataset& test, const Learner& learner, int threads,
                            bool keep_predictions) {
  return checked_train_test(train, test, learner.params(), threads, keep_predictions);
}

}  // namespace candor
