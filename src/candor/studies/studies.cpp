#include "candor/studies/studies.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/util/names.hpp"

namespace candor {

const std::vector<ExperimentInfo>& experiment_table() {
  static const std::vector<ExperimentInfo> table{
      {"grid",
       "any learners x data sets x resampling (--config FILE.json and/or --learner NAME=OPTIONS --datasets ...); "
       "resumable results.csv, average ranks, Friedman, Nemenyi and Bonferroni-Dunn, CD diagrams",
       run_grid_experiment,
       {"--config", "--learner", "--datasets", "--resampling", "--folds", "--repeats", "--test-fraction",
        "--evc-calibration", "--control", "--alpha", "--metrics"}},
      {"evc-artificial",
       "paper 000 Table 2, Figs. 1, 6, 11: 300 artificial data sets, one best rule each by relative frequency, "
       "m-estimates and EVC; estimated vs true probability",
       run_evc_artificial,
       {"--permutations", "--evc-fit", "--evc-pool"}},
      {"evc-chi2",
       "paper 000 Figs. 2, 3, 5: best of 1000 binary attributes x 100 examples by chi2; estimated vs true chi2 "
       "uncorrected, pessimistic correction and EVC",
       run_evc_chi2,
       {"--permutations", "--evc-fit"}},
      {"evc-uci",
       "paper 000 Table 3: rules learned on one half of each shared data set, true accuracy on the other half; "
       "EVC vs m=2, m=22, Domingos' m, m by internal CV, a 70/30 split and LRS; average ranks, Friedman",
       run_evc_uci,
       {"--datasets", "--max-rows", "--permutations", "--evc-fit", "--evc-pool"}},
      {"oversearching",
       "paper 002 Fig. 1 and Table 3: Laplace error and true error of the best rule per class against beam width "
       "1..512 with the layered choice; greedy, layered and extensive search in the covering learner over --repeats "
       "(default 10) stratified 50/50 splits, with sign tests",
       run_oversearching,
       {"--datasets", "--repeats"}},
      {"refinement-heuristics",
       "paper 003: 10-fold CV of the decision-list learner for every selection (precision, Laplace, m-estimate) x "
       "refinement (the same, modified precision, modified Laplace, modified m-estimate) heuristic; accuracy, "
       "rules and conditions, AUC on binary data sets, Friedman and Nemenyi (resumable grid)",
       run_refinement_heuristics,
       {"--datasets", "--max-rows", "--folds", "--repeats"}},
      {"rule-logistic",
       "paper 000 Tables 4 and 5, Fig. 12: logistic regression over rules and attributes (LR, LRR-EVC, LRRP-EVC, "
       "LRRP-M2, LRRS-EVC, LRRS-M22) and against rule learners (CN2, a RuleFit-style lasso, JRip and J48 through "
       "Weka when installed), 10-fold CV on the binary and the multiclass data sets (resumable grid)",
       run_rule_logistic,
       {"--datasets", "--max-rows", "--folds", "--repeats", "--permutations", "--evc-fit", "--evc-pool"}},
      {"kbs",
       "paper 001 Table 1 and Figs. 4-5: J48, AdaBoost.M1 and KBS over J48 (and Weka's), AUC and squared error "
       "of KBS and LogitBoost on stumps against iterations, and KBS, AdaBoost.M1 and LogitBoost over stumps, "
       "trees and rules on the corpus with ranks, Friedman and Nemenyi (resumable grids)",
       run_kbs,
       {"--datasets", "--max-rows", "--folds", "--repeats"}},
      {"pril",
       "paper 004 Table 2: PrIL's adjusted accuracy over the paper's 432 settings on mushroom, vote, credit-a (i mod "
       "5 folds) and generated waveform, LED and LED+17 under its three selection criteria, and whether each rule's "
       "stated reliability holds on test data, beside CN2 with EVC (resumable grid)",
       run_pril,
       {"--datasets", "--permutations", "--evc-fit", "--evc-pool"}},
      {"stability",
       "every learner's (or --learner's) rule-set stability and prediction agreement over 10 bootstrap resamples "
       "beside its 10-fold accuracy, log loss and rules, stable rules included, on the corpus sets of 50 to "
       "--max-rows (5,000) rows; plots of stability against accuracy",
       run_stability_experiment,
       {"--datasets", "--max-rows", "--learner"}},
  };
  return table;
}

void check_experiment_options(const std::string& name, const std::vector<std::string>& given) {
  // What every experiment reads (ExperimentInfo::reads lists the rest).
  static const std::vector<std::string> common{"--out",          "--threads",  "--seed",
                                               "--datasets-dir", "--no-plots", "--help"};
  for (const auto& e : experiment_table()) {
    if (name != e.name) continue;
    for (const auto& option : given)
      if (std::find(common.begin(), common.end(), option) == common.end() &&
          std::find(e.reads.begin(), e.reads.end(), option) == e.reads.end()) {
        std::string reads;
        for (const auto& r : e.reads) reads += (reads.empty() ? "" : ", ") + r;
        throw std::invalid_argument(option + " is not an option of `candor experiment " + name + "`" +
                                    (reads.empty() ? std::string(", which reads only the common options")
                                                   : "; besides the common options it reads " + reads));
      }
    return;
  }
}

void run_experiment(const std::string& name, const ExperimentOptions& options) {
  for (const auto& e : experiment_table())
    if (name == e.name) return e.run(options);
  std::vector<std::string> known;
  for (const auto& e : experiment_table()) known.emplace_back(e.name);
  throw std::invalid_argument(unknown_name_message("experiment", name, known));
}

}  // namespace candor
