// Paper 000, section 4.3.3: rules in a global classifier. One resumable grid (grid.hpp) of every learner
// below on the corpus, 10-fold CV; from its results three comparisons, each with average ranks, Friedman
// and Bonferroni-Dunn:
// - Table 4: the six logistic variants on the binary data sets (control LRRP-EVC), all with the lambda
//   the attributes-only model's inner CV chooses, as the paper reuses LR's lambda; Fig. 12 is the CD
//   diagram of log loss.
// - Table 5: LRRP-EVC (candor's default rule-logistic), LRRP-EVC(R), a RuleFit-style lasso over candor's
//   rules, unordered CN2 with Laplace and with EVC, and JRip, J48 and AdaBoostM1 over J48 through Weka on
//   the same folds when Debian's weka is installed ("not installed" otherwise), on the binary data sets.
// - The same on the multiclass data sets, with the one-vs-rest variant beside it.
// Three alternatives to the defaults run everywhere too, each differing from LRRP-EVC in one option: the
// measurements behind the --lambda-search, --rule-sign and --multiclass defaults.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "candor/experiments/grid.hpp"
#include "candor/experiments/report.hpp"
#include "candor/experiments/weka.hpp"
#include "candor/stats/comparison.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/output.hpp"

namespace candor {
namespace {

// The paper's Table 4 methods, each with LR's lambda (--lambda-search attributes). Every option that
// candor's defaults set otherwise is pinned: EVC-ranked rules of one covering pass over the attributes, as in
// the paper.
const std::vector<ExperimentLearner>& table4() {
  static const std::vector<ExperimentLearner> v{
      {"LR", "--learner rule-logistic --features attributes --lambda-search attributes"},
      {"LRR-EVC",
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search attributes "
       "--rule-penalty none"},
      {"LRRP-EVC",
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search attributes"},
      {"LRRP-M2",
       "--learner rule-logistic --candidates covering --features rules+attributes --correct none --lambda-search "
       "attributes --quality "
       "m-estimate --m 2 --m-scale 0"},
      {"LRRS-EVC",
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search attributes "
       "--rule-data half --rule-penalty none"},
      {"LRRS-M22",
       "--learner rule-logistic --candidates covering --features rules+attributes --correct none --lambda-search "
       "attributes --quality "
       "m-estimate --m 22 --m-scale 0 "
       "--rule-data half --rule-penalty none"},
  };
  return v;
}

// Table 5's other methods; LRRP-EVC is Table 4's.
const std::vector<ExperimentLearner>& table5_others() {
  static const std::vector<ExperimentLearner> v{
      {"LRRP-EVC(R)",
       "--learner rule-logistic --candidates covering --features rules --quality evc --correct none --lambda-search "
       "attributes"},
      {"lambda-by-model-cv",
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search model"},
      {"RuleFit-style",
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--penalty l1 --rule-penalty "
       "none "
       "--lambda-search model"},
      {"CN2-Laplace", "--learner cn2-unordered --quality laplace"},
      {"CN2-EVC", "--learner cn2-unordered --quality evc"},
  };
  return v;
}

const std::vector<ExperimentLearner>& weka_peers() {
  static const std::vector<ExperimentLearner> v{
      {"JRip", "weka:weka.classifiers.rules.JRip"},
      {"J48", "weka:weka.classifiers.trees.J48"},
      {"AdaBoostM1-J48", "weka:weka.classifiers.meta.AdaBoostM1 -W weka.classifiers.trees.J48"}};
  return v;
}

const char* kMulticlassOvR = "one-vs-rest";
const char* kFreeSign = "free-sign";

}  // namespace

void run_rule_logistic(const ExperimentOptions& options) {
  GridSpec grid;
  const bool weka = weka_available();
  std::vector<std::string> missing;
  auto add = [&](const ExperimentLearner& v) { grid.learners.push_back(make_grid_learner(v.name, v.options)); };
  for (const auto& v : table4()) add(v);
  for (const auto& v : table5_others()) add(v);
  for (const auto& v : weka_peers()) {
    if (weka)
      add(v);
    else
      missing.push_back(v.name);
  }
  // One-vs-rest beside the default softmax: identical on binary data, so run on multiclass sets only by
  // naming it in the multiclass section (its binary cells cost as much as the default's, and are the same).
  add({kMulticlassOvR,
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search attributes "
       "--multiclass one-vs-rest"});
  // The other choice of the rule weights' sign, measured beside the default (class) on every data set.
  add({kFreeSign,
       "--learner rule-logistic --candidates covering --features rules+attributes --quality evc --correct none "
       "--lambda-search attributes "
       "--rule-sign free"});
  for (auto& l : grid.learners)
    if (l.weka.empty()) use_evc_options(options, l.params);

  const auto corpus = read_corpus_index(options.datasets_dir);
  std::vector<std::string> binary, multiclass;
  auto classes_of = [&](const std::string& name) -> std::size_t {
    for (const auto& e : corpus)
      if (e.name == name) return e.classes;
    return 0;
  };
  if (options.datasets.empty()) {
    const std::size_t max_rows = options.max_rows ? options.max_rows : 5000;
    for (const auto& e : corpus) {
      const bool test_split = e.name.size() > 5 && e.name.compare(e.name.size() - 5, 5, ".test") == 0;
      const bool train_split = e.name.find(".train") != std::string::npos;
      if (e.rows <= max_rows && e.rows >= 50 && !test_split && !train_split && e.name.rfind("weather.", 0) != 0)
        grid.datasets.push_back(e.name);
    }
  } else {
    grid.datasets = options.datasets;
  }
  for (const auto& d : grid.datasets) (classes_of(d) == 2 ? binary : multiclass).push_back(d);
  grid.resampling.kind = "cv";
  grid.resampling.folds = options.folds.value_or(10);
  grid.resampling.repeats = options.repeats.value_or(1);
  grid.seed = options.seed;
  grid.metrics = {"accuracy", "auc", "brier", "log_loss", "rules", "fit_seconds"};
  grid.control = "LRRP-EVC";
  run_grid(grid, grid_run_options(options));

  const std::string results = options.out + "/results.csv";
  LearnerSection t4{"Table 4: logistic regression variants, binary data sets", "table4", "LRRP-EVC", {}, binary, {}};
  for (const auto& v : table4()) t4.learners.push_back(v.name);
  LearnerSection t5{
      "Table 5: LRRP-EVC against rule learners, binary data sets", "table5", "LRRP-EVC", {"LRRP-EVC"}, binary, missing};
  for (const auto& v : table5_others()) t5.learners.push_back(v.name);
  for (const auto& v : weka_peers())
    if (weka) t5.learners.push_back(v.name);
  t5.learners.push_back(kFreeSign);
  LearnerSection mc = t5;
  mc.title = "Multiclass data sets";
  mc.file = "multiclass";
  mc.datasets = multiclass;
  mc.learners.push_back(kMulticlassOvR);

  std::ostringstream md;
  md << "# Rules in a global classifier (paper 000, section 4.3.3)\n\n"
     << grid.resampling.describe() << ", seed " << grid.seed << "; EVC with " << options.evc.permutations
     << " permutations. Every learner's options are in "
     << "summary.md; per data set means in means_METRIC.md.\n\n"
     << learner_section_markdown(t4, results, options.out, options.plots)
     << learner_section_markdown(t5, results, options.out, options.plots)
     << learner_section_markdown(mc, results, options.out, options.plots);
  write_file_atomic(options.out + "/rule_logistic.md", md.str());
  std::cout << md.str();
}

}  // namespace candor
