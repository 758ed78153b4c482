#include "candor/experiments/experiment.hpp"

#include <stdexcept>

namespace candor {

const std::vector<ExperimentInfo>& experiment_table() {
  static const std::vector<ExperimentInfo> table{
      {"grid",
       "any learners x data sets x resampling (--config FILE.json and/or --learner NAME=OPTIONS --datasets ...); "
       "resumable results.csv, average ranks, Friedman, Nemenyi and Bonferroni-Dunn, CD diagrams",
       run_grid_experiment},
      {"evc-artificial",
       "paper 000 Table 2, Figs. 1, 6, 11: 300 artificial data sets, one best rule each by relative frequency, "
       "m-estimates and EVC; estimated vs true probability",
       run_evc_artificial},
      {"evc-chi2",
       "paper 000 Figs. 2, 3, 5: best of 1000 binary attributes x 100 examples by chi2; estimated vs true chi2 "
       "uncorrected, pessimistic correction and EVC",
       run_evc_chi2},
      {"evc-uci",
       "paper 000 Table 3: rules learned on one half of each shared data set, true accuracy on the other half; "
       "EVC vs m=2, m=22, Domingos' m, m by internal CV, a 70/30 split and LRS; average ranks, Friedman",
       run_evc_uci},
  };
  return table;
}

void run_experiment(const std::string& name, const ExperimentOptions& options) {
  for (const auto& e : experiment_table())
    if (name == e.name) return e.run(options);
  std::string known;
  for (const auto& e : experiment_table()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("unknown experiment '" + name + "' (known: " + known + ")");
}

}  // namespace candor
