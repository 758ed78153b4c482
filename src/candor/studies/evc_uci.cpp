// Paper 000, section 4.3.2 (Table 3): how close are rules' estimated accuracies to their true ones on real
// data? Each data set is split in two stratified halves; unordered CN2 (beam 5, no pruning) learns rules on
// the first half with each method below, and each rule's true accuracy is its relative frequency on the
// second half (rules that cover no test example are left out). Methods:
//   EVC       the extreme value corrected relative frequency (quality evc);
//   m=2, m=22 m-estimate (Fürnkranz 2004; Janssen and Fürnkranz 2010);
//   M(Pro)    Domingos' m = 1 + ln(l b a v): rule length, beam width, attributes, most values of any
//             attribute (numeric attributes count their distinct values in the learning half);
//   M(IC)     m from {0, 1, 2, 5, 10, 22, 50, 100} maximising, by 5-fold internal cross-validation on the
//             learning half, the held-out accuracy of the best rule (ordered CN2's first rule);
//   Split     m = 2 learned on 70% of the learning half, probabilities estimated (m = 2) on the other 30%;
//   LRS       rules found by the likelihood-ratio statistic, estimated by relative frequency.
// Per data set: RMSE and Spearman correlation of estimated vs true accuracy, mean true accuracy of the
// five rules with the highest estimates, mean rule length, mean coverage and number of rules; then average
// ranks over data sets, the Friedman test and the Bonferroni-Dunn critical difference with EVC as control.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/evc/general.hpp"
#include "candor/experiments/report.hpp"
#include "candor/learn/fit.hpp"
#include "candor/stats/ranks.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/parallel.hpp"

namespace candor {
namespace {

const std::vector<std::string> kMethods{"EVC", "m=2", "m=22", "M(Pro)", "M(IC)", "Split", "LRS"};

// Domingos' process-oriented m: grows with the number of rules a search of this length could compare.
struct DomingosM final : QualityMeasure {
  DomingosM(double beam, double attributes, double max_values) : bav(beam * attributes * max_values) {}
  double m_for(int length) const { return 1 + std::log(std::max(1, length) * bav); }
  double evaluate(const RuleStats& r) const override {
    const double m = m_for(r.length);
    return (r.s() + m * r.p_total() / r.n_total) / (r.n + m);
  }
  double probability(const RuleStats& r) const override { return evaluate(r); }
  double bav;
};

struct RuleOutcome {
  double estimated, truth;
  std::size_t length;
  double coverage;
};

struct CellResult {
  std::vector<RuleOutcome> rules;
  std::size_t total_rules = 0;
  double seconds = 0;
  double chosen_m = std::numeric_limits<double>::quiet_NaN();
};

LearnerParams base_params(const ExperimentOptions& o, std::uint64_t seed) {
  LearnerParams p = paper_params("cn2-unordered");
  p.rule_search.beam_width = 5;
  use_evc_options(o, p);
  p.seed = static_cast<int>(seed >> 33);
  return p;
}

double choose_m_by_internal_cv(const Dataset& learn, const ExperimentOptions& o, std::uint64_t seed) {
  const std::vector<double> candidates{0, 1, 2, 5, 10, 22, 50, 100};
  const int folds = static_cast<int>(std::min<std::size_t>(5, learn.rows()));
  auto split = stratified_folds(learn.y, folds, seed);
  double best_m = 2, best_acc = -1;
  for (double m : candidates) {
    double acc = 0;
    int counted = 0;
    for (int f = 0; f < folds; ++f) {
      Dataset train = learn.subset(rows_not_in(learn.rows(), split[f])), held = learn.subset(split[f]);
      LearnerParams p = base_params(o, seed);
      p.learner = "cn2-ordered";
      p.combine.reset();  // a decision list's first rule decides
      p.heuristics.quality = "m-estimate";
      p.heuristics.m = m;
      p.rule_covering.max_rules = 1;
      RuleModel model = fit(train, p, 1);
      if (model.rules.empty()) continue;
      const RuleHits h = rule_hits(model.rules.front(), held);
      if (h.rows == 0) continue;
      acc += h.s / h.n;
      ++counted;
    }
    if (counted > 0 && acc / counted > best_acc + 1e-12) {
      best_acc = acc / counted;
      best_m = m;
    }
  }
  return best_m;
}

CellResult run_cell(const Dataset& learn, const Dataset& test, const std::string& method, const ExperimentOptions& o,
                    std::uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  CellResult out;
  LearnerParams p = base_params(o, seed);
  RuleModel model;
  const Dataset* estimate_on = nullptr;  // Split: the held-back 30%
  Dataset held_back;
  if (method == "EVC") {
    p.heuristics.quality = "evc";
    model = fit(learn, p, 1);
  } else if (method == "m=2" || method == "m=22") {
    p.heuristics.quality = "m-estimate";
    p.heuristics.m = method == "m=2" ? 2 : 22;
    model = fit(learn, p, 1);
  } else if (method == "M(Pro)") {
    double max_values = 1;
    for (std::size_t a = 0; a < learn.num_attributes(); ++a) {
      if (learn.attribute(a).is_nominal()) {
        max_values = std::max(max_values, static_cast<double>(learn.attribute(a).values.size()));
      } else {
        std::set<double> distinct;
        for (double v : learn.columns[a].values)
          if (!std::isnan(v)) distinct.insert(v);
        max_values = std::max(max_values, static_cast<double>(distinct.size()));
      }
    }
    DomingosM q(p.rule_search.beam_width, static_cast<double>(learn.num_attributes()), max_values);
    p.heuristics.quality = "m-estimate";  // recorded; the search uses q
    model = fit_with_quality(learn, p, q, 1);
  } else if (method == "M(IC)") {
    p.heuristics.quality = "m-estimate";
    p.heuristics.m = choose_m_by_internal_cv(learn, o, seed);
    out.chosen_m = p.heuristics.m;
    model = fit(learn, p, 1);
  } else if (method == "Split") {
    // Ten stratified parts (fewer for tiny data): 70% of them to learn from, the rest to estimate on.
    const int k_parts = static_cast<int>(std::min<std::size_t>(10, learn.rows()));
    const int fit_parts = std::max(1, static_cast<int>(std::lround(0.7 * k_parts)));
    auto parts = stratified_folds(learn.y, k_parts, seed);
    std::vector<std::size_t> fit_rows, est_rows;
    for (int f = 0; f < k_parts; ++f) {
      auto& to = f < fit_parts ? fit_rows : est_rows;
      to.insert(to.end(), parts[f].begin(), parts[f].end());
    }
    std::sort(fit_rows.begin(), fit_rows.end());
    std::sort(est_rows.begin(), est_rows.end());
    held_back = learn.subset(est_rows);
    estimate_on = &held_back;
    p.heuristics.quality = "m-estimate";
    p.heuristics.m = 2;
    model = fit(learn.subset(fit_rows), p, 1);
  } else if (method == "LRS") {
    p.heuristics.quality = "lrs";
    model = fit(learn, p, 1);
  }
  out.total_rules = model.rules.size();
  const auto totals = (estimate_on ? *estimate_on : learn).class_totals();
  double total = 0;
  for (double t : totals) total += t;
  for (const auto& r : model.rules) {
    double estimated = r.probability;
    if (estimate_on) {  // m-estimate (m = 2) on the held-back examples
      const RuleHits h = rule_hits(r, *estimate_on);
      estimated = (h.s + 2 * totals[r.klass] / total) / (h.n + 2);
    }
    const RuleHits h = rule_hits(r, test);
    if (h.rows == 0) continue;
    const double truth = h.s / h.n;
    double cov = 0;
    for (double c : r.training_counts) cov += c;
    out.rules.push_back(RuleOutcome{estimated, truth, r.conditions.size(), cov});
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// The measures of Table 3, per data set and method.
enum Metric { kRmse, kSpearman, kTop5, kLength, kCoverage, kRules, kMetrics };
const char* const kMetricNames[kMetrics] = {"RMSE",        "Spearman",      "accuracy of 5 best",
                                            "rule length", "rule coverage", "number of rules"};
const bool kHigherBetter[kMetrics] = {false, true, true, false, true, false};
using MetricValues = std::vector<std::vector<std::vector<double>>>;  // [metric][data set][method]

// Each data set's two stratified halves: the rules are learned on the first, their true accuracy measured
// on the second.
void load_halves(const std::vector<std::string>& names, const ExperimentOptions& options, std::vector<Dataset>& learn,
                 std::vector<Dataset>& test) {
  learn.resize(names.size());
  test.resize(names.size());
  for (std::size_t d = 0; d < names.size(); ++d) {
    LoadOptions lo;
    lo.drop_unsupported = true;
    Dataset all = load_dataset(options.datasets_dir + "/" + names[d] + ".arff", lo);
    auto halves = stratified_folds(all.y, 2, stream_seed(options.seed, d));
    learn[d] = all.subset(halves[0]);
    test[d] = all.subset(halves[1]);
  }
}

// The per-data-set table and the every-rule table (written), and the measures of each cell.
MetricValues measure_cells(const std::vector<std::string>& names, const std::vector<CellResult>& cells,
                           const ExperimentOptions& options) {
  const std::size_t k = kMethods.size();
  MetricValues value(kMetrics, std::vector<std::vector<double>>(names.size(), std::vector<double>(k)));
  Table per_dataset{{"dataset", "method", "rules", "rules tested", "RMSE", "Spearman", "accuracy of 5 best",
                     "rule length", "rule coverage", "chosen m", "seconds"},
                    {}};
  Table points{{"dataset", "method", "estimated", "true"}, {}};
  for (std::size_t d = 0; d < names.size(); ++d)
    for (std::size_t m = 0; m < k; ++m) {
      const CellResult& c = cells[d * k + m];
      std::vector<double> est, truth;
      double length = 0, coverage = 0;
      for (const auto& r : c.rules) {
        est.push_back(r.estimated);
        truth.push_back(r.truth);
        length += static_cast<double>(r.length);
        coverage += r.coverage;
        points.add({names[d], kMethods[m], format_number(r.estimated, 5), format_number(r.truth, 5)});
      }
      const double nr = static_cast<double>(c.rules.size());
      std::vector<std::size_t> idx(c.rules.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return est[a] > est[b]; });
      double top = 0;
      const std::size_t top_n = std::min<std::size_t>(5, idx.size());
      for (std::size_t i = 0; i < top_n; ++i) top += truth[idx[i]];
      const double nan = std::numeric_limits<double>::quiet_NaN();
      value[kRmse][d][m] = rmse(est, truth);
      value[kSpearman][d][m] = spearman(est, truth);
      value[kTop5][d][m] = top_n ? top / static_cast<double>(top_n) : nan;
      value[kLength][d][m] = nr > 0 ? length / nr : nan;
      value[kCoverage][d][m] = nr > 0 ? coverage / nr : nan;
      value[kRules][d][m] = static_cast<double>(c.total_rules);
      per_dataset.add({names[d], kMethods[m], std::to_string(c.total_rules), std::to_string(c.rules.size()),
                       format_number(value[kRmse][d][m], 4), format_number(value[kSpearman][d][m], 4),
                       format_number(value[kTop5][d][m], 4), format_number(value[kLength][d][m], 2),
                       format_number(value[kCoverage][d][m], 1), format_number(c.chosen_m, 0),
                       format_number(c.seconds, 2)});
    }
  write_table(per_dataset, options.out, "per_dataset", "Per data set and method");
  write_table(points, options.out, "rules", "Every tested rule: estimated and true accuracy");
  return value;
}

// Paper 000's Table 3: each measure's mean ranks over the data sets where every method has it, the Friedman
// and Iman-Davenport tests, and the methods whose rank differs from EVC's by more than the critical difference.
Table rank_table(const MetricValues& value, std::size_t datasets) {
  const std::size_t k = kMethods.size();
  std::vector<std::string> cols{"measure", "data sets"};
  for (const auto& m : kMethods) cols.push_back(m);
  cols.insert(cols.end(), {"Friedman p", "Iman-Davenport p", "CD (Bonferroni-Dunn, 0.05)", "differ from EVC"});
  Table table3{cols, {}};
  for (int metric = 0; metric < kMetrics; ++metric) {
    std::vector<std::vector<double>> rows;
    for (std::size_t d = 0; d < datasets; ++d) {
      bool complete = true;
      for (double v : value[metric][d]) complete &= !std::isnan(v);
      if (complete) rows.push_back(value[metric][d]);
    }
    std::vector<std::string> row{kMetricNames[metric], std::to_string(rows.size())};
    if (rows.size() < 2) {
      for (std::size_t i = 0; i < k + 4; ++i) row.push_back("n/a");
      table3.add(row);
      continue;
    }
    auto ranks = mean_ranks(rows, kHigherBetter[metric]);
    for (double r : ranks) row.push_back(format_number(r, 3));
    auto fr = friedman(ranks, rows.size());
    const double cd = bonferroni_dunn_cd(k, rows.size(), 0.05);
    std::string differ;
    for (std::size_t m = 1; m < k; ++m)
      if (std::abs(ranks[m] - ranks[0]) > cd) differ += (differ.empty() ? "" : " ") + kMethods[m];
    row.insert(row.end(), {format_number(fr.p, 4), format_number(fr.p_f, 4), format_number(cd, 3),
                           differ.empty() ? "none" : differ});
    table3.add(row);
  }
  return table3;
}

// The figure: every tested rule's estimated against its test-half accuracy, a panel per method.
void plot_rules(const ExperimentOptions& options) {
  nlohmann::json panels = nlohmann::json::array();
  for (const auto& m : kMethods)
    panels.push_back({{"title", m},
                      {"csv", "rules.csv"},
                      {"where", {{"method", m}}},
                      {"x", "true"},
                      {"y", "estimated"},
                      {"diagonal", true},
                      {"xlim", {0, 1}},
                      {"ylim", {0, 1.02}},
                      {"xlabel", "accuracy on the test half"},
                      {"ylabel", "estimated accuracy"}});
  nlohmann::json spec = {{"figures",
                          {{{"file", "estimated_vs_true.png"},
                            {"columns", 4},
                            {"title", "Rules of every data set: estimated vs test-half accuracy"},
                            {"panels", panels}}}}};
  draw_plots(spec, options.out, options.plots);
}

}  // namespace

void run_evc_uci(const ExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> names = options.datasets;
  if (names.empty()) {
    const std::size_t max_rows = options.max_rows ? options.max_rows : 3000;
    for (const auto& row : read_corpus_index(options.datasets_dir))
      if (row.rows <= max_rows && row.name != "adult.test") names.push_back(row.name);
  }
  std::vector<Dataset> learn, test;
  load_halves(names, options, learn, test);
  const std::size_t k = kMethods.size();
  std::vector<CellResult> cells(names.size() * k);
  // Largest data sets first, so that the long cells do not end up last on one thread.
  const auto order = largest_first(
      cells.size(), [&](std::size_t cell) { return learn[cell / k].rows() * learn[cell / k].num_attributes(); });
  Progress progress("evc-uci", "cells", cells.size());
  parallel_for(cells.size(), options.threads, [&](std::size_t i) {
    const std::size_t cell = order[i], d = cell / k;
    cells[cell] = run_cell(learn[d], test[d], kMethods[cell % k], options, stream_seed(options.seed + 7, d));
    progress.step(names[d] + " / " + kMethods[cell % k]);
  });
  const Table table3 = rank_table(measure_cells(names, cells, options), names.size());
  write_table(table3, options.out, "table3",
              "Paper 000, Table 3: average ranks over " + std::to_string(names.size()) + " data sets (1 = best)");
  std::cout << "## evc-uci: average ranks over " << names.size() << " data sets (paper 000, Table 3; 1 = best)\n\n"
            << markdown(table3);
  plot_rules(options);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nwritten to " << options.out << " in " << format_number(secs, 1) << " s\n";
}

}  // namespace candor
