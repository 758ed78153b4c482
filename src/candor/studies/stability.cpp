// `candor experiment stability`: every learner's stability (eval/stability.hpp) beside its accuracy on the
// corpus. Per data set and learner: 10-fold cross-validation (accuracy, log loss, rules) and B = 10 bootstrap
// resamples (rule-set stability, prediction agreement, probability spread), both seeded by --seed. The data
// sets: --datasets, else every corpus set of 50 to --max-rows (default 5,000) rows; the learners: --learner
// NAME=OPTIONS, else every learner.
#include "candor/eval/stability.hpp"

#include <chrono>
#include <iostream>
#include <map>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/experiments/grid.hpp"
#include "candor/experiments/report.hpp"
#include "candor/learn/learner.hpp"
#include "candor/studies/studies.hpp"

namespace candor {
namespace {

constexpr int kResamples = 10;

// The learners given with --learner NAME=OPTIONS; without them every registered learner with its defaults,
// and beside each learner that offers stable rules its stable mode.
std::vector<GridLearner> stability_learners(const ExperimentOptions& options) {
  std::vector<GridLearner> out;
  for (const auto& argument : options.learners) {
    out.push_back(grid_learner_from_argument(argument));
    if (!out.back().weka.empty())
      throw std::invalid_argument("stability: learner '" + out.back().name +
                                  "' is a Weka classifier, whose rules candor cannot read; an experiment grid "
                                  "measures candor's learners' stability beside Weka's accuracy");
  }
  if (!out.empty()) return out;
  for (const auto& info : learner_table()) {
    const std::string name = info.name;
    out.push_back(make_grid_learner(name, "--learner " + name));
    if (info.stable_rules)
      out.push_back(make_grid_learner(name + " stable", "--learner " + name + " --stable-resamples 20"));
  }
  return out;
}

}  // namespace

void run_stability_experiment(const ExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> datasets =
      options.datasets.empty() ? corpus_sets_up_to(options, read_corpus_index(options.datasets_dir)) : options.datasets;
  const auto learners = stability_learners(options);
  Table rows{{"dataset", "learner", "accuracy", "log_loss", "rules", "rule_set_stability", "rule_set_stability_sd",
              "prediction_agreement", "probability_spread"},
             {}};
  std::map<std::string, std::vector<std::vector<double>>> by_learner;  // learner -> per set: the 6 figures
  Progress progress("stability", "fits", datasets.size() * learners.size());
  for (const auto& name : datasets) {
    const Dataset data = read_arff(options.datasets_dir + "/" + name + ".arff");
    for (const auto& v : learners) {
      LearnerParams p = v.params;
      p.seed = static_cast<int>(options.seed);
      const EvaluationResult cv = cross_validate(data, p, 10, 1, options.seed, options.threads);
      StabilityOptions so;
      so.resamples = kResamples;
      so.seed = options.seed;
      so.threads = options.threads;
      const StabilityResult s = measure_stability(data, p, so);
      const std::vector<double> figures{cv.mean.accuracy,     cv.mean.log_loss,       cv.rules,
                                        s.rule_set_stability, s.prediction_agreement, s.probability_spread};
      by_learner[v.name].push_back(figures);
      rows.add({name, v.name, format_number(figures[0], 4), format_number(figures[1], 4), format_number(figures[2], 1),
                format_number(figures[3], 4), format_number(s.rule_set_stability_sd, 4), format_number(figures[4], 4),
                format_number(figures[5], 4)});
      progress.step(name + " " + v.name);
    }
  }
  Table summary{
      {"learner", "accuracy", "log loss", "rules", "rule-set stability", "prediction agreement", "probability spread"},
      {}};
  for (const auto& v : learners) {
    const auto& per_set = by_learner[v.name];
    std::vector<std::string> row{v.name};
    const int digits[] = {4, 3, 1, 3, 3, 3};
    for (std::size_t k = 0; k < 6; ++k) {
      std::vector<double> xs;
      for (const auto& f : per_set) xs.push_back(f[k]);
      row.push_back(format_number(mean_se(xs).mean, digits[k]));
    }
    summary.add(row);
  }
  write_table(rows, options.out, "stability", "Stability and accuracy per data set and learner");
  write_table(summary, options.out, "summary",
              "Means over " + std::to_string(datasets.size()) + " data sets: 10-fold CV and " +
                  std::to_string(kResamples) + " bootstrap resamples");
  std::cout << "## stability: " << datasets.size() << " data sets, 10-fold CV and " << kResamples
            << " bootstrap resamples\n\n"
            << markdown(summary);
  nlohmann::json spec = {{"figures",
                          {{{"file", "stability_accuracy.png"},
                            {"title", "Rule-set stability against accuracy, one point per data set and learner"},
                            {"columns", 2},
                            {"panels",
                             {{{"csv", "stability.csv"},
                               {"x", "rule_set_stability"},
                               {"y", "accuracy"},
                               {"group", "learner"},
                               {"xlim", {0, 1}},
                               {"xlabel", "rule-set stability (Dice-Sorensen, deciles)"},
                               {"ylabel", "10-fold accuracy"}},
                              {{"csv", "stability.csv"},
                               {"x", "prediction_agreement"},
                               {"y", "accuracy"},
                               {"group", "learner"},
                               {"xlabel", "prediction agreement"},
                               {"ylabel", "10-fold accuracy"}}}}},
                           {{"file", "learners.png"},
                            {"title", "Each learner's means over the data sets"},
                            {"panels",
                             {{{"csv", "summary.csv"},
                               {"x", "rule-set stability"},
                               {"y", "accuracy"},
                               {"group", "learner"},
                               {"xlim", {0, 1}},
                               {"xlabel", "mean rule-set stability"},
                               {"ylabel", "mean 10-fold accuracy"}}}}}}}};
  draw_plots(spec, options.out, options.plots);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nwritten to " << options.out << " in " << format_number(secs, 1) << " s\n";
}

}  // namespace candor
