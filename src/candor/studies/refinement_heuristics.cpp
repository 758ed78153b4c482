// Paper 003 (Optimizing the AUC with rule learning): the top-down hill-climbing decision-list learner with
// every combination of a selection heuristic (precision, Laplace, m-estimate with m = 22.466) and a
// refinement heuristic (the selection heuristic itself, modified precision, modified Laplace, modified
// m-estimate), 10-fold cross-validated on the corpus through the resumable grid runner (grid.hpp). Besides
// the grid's summary (ranks, Friedman, Nemenyi, CD diagrams per metric) it writes the slides' tables:
// accuracy per data set with the count of data sets each combination wins, rules/conditions for the
// m-estimate selection, accuracy and AUC on the binary data sets, and a Nemenyi comparison of AUC on them.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "candor/experiments/grid.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/experiments/report.hpp"
#include "candor/stats/comparison.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/output.hpp"

namespace candor {
namespace {

struct Combination {
  std::string select, refine;
};

std::string short_name(const std::string& q) {
  if (q == "precision") return "prec";
  if (q == "laplace") return "lap";
  if (q == "m-estimate") return "m-est";
  if (q == "modified-precision") return "mod-prec";
  if (q == "modified-laplace") return "mod-lap";
  return "mod-m-est";
}

std::vector<Combination> combinations() {
  std::vector<Combination> out;
  for (const std::string sel : {"precision", "laplace", "m-estimate"})
    for (const std::string& ref :
         {sel, std::string("modified-precision"), std::string("modified-laplace"), std::string("modified-m-estimate")})
      out.push_back({sel, ref});
  return out;
}

std::string learner_name(const Combination& c) { return short_name(c.select) + " / " + short_name(c.refine); }

// The grid of paper 003: the decision-list learner under every selection x refinement heuristic, 10-fold CV on
// the corpus (or --datasets); `binary` gets its two-class data sets.
GridSpec heuristics_grid(const ExperimentOptions& options, std::vector<std::string>& binary) {
  GridSpec grid;
  for (const auto& c : combinations()) {
    GridLearner l;
    l.name = learner_name(c);
    // Prior weight 0: the paper's predictions, the deciding rule's raw distribution.
    l.options =
        "--learner decision-list --select-quality " + c.select + " --refine-quality " + c.refine + " --prior-weight 0";
    l.params = parse_learner_options(l.options);
    grid.learners.push_back(std::move(l));
  }
  const auto corpus = read_corpus_index(options.datasets_dir);
  if (options.datasets.empty()) {
    const std::size_t max_rows = options.max_rows ? options.max_rows : 5000;
    for (const auto& e : corpus) {
      const bool test_split = e.name.size() > 5 && e.name.compare(e.name.size() - 5, 5, ".test") == 0;
      if (e.rows <= max_rows && !test_split && e.name.rfind("weather.", 0) != 0) grid.datasets.push_back(e.name);
    }
  } else {
    grid.datasets = options.datasets;
  }
  for (const auto& e : corpus)
    if (e.classes == 2 && std::find(grid.datasets.begin(), grid.datasets.end(), e.name) != grid.datasets.end())
      binary.push_back(e.name);
  grid.resampling.kind = "cv";
  grid.resampling.folds = options.folds.value_or(10);
  grid.resampling.repeats = options.repeats.value_or(1);
  grid.seed = options.seed;
  grid.metrics = {"accuracy", "auc", "rules", "conditions", "fit_seconds"};
  return grid;
}

// Accuracy per data set (percent), data sets won (ties count for each), average rank.
Table accuracy_table(const ResultsMatrix& acc, const Comparison& acc_cmp, const std::vector<std::string>& learners) {
  Table acc_table;
  acc_table.columns = {"dataset"};
  for (const auto& l : learners) acc_table.columns.push_back(l);
  std::vector<int> wins(learners.size(), 0);
  for (std::size_t d = 0; d < acc.datasets.size(); ++d) {
    std::vector<std::string> row{acc.datasets[d]};
    const double best = *std::max_element(acc.scores[d].begin(), acc.scores[d].end());
    for (std::size_t l = 0; l < learners.size(); ++l) {
      row.push_back(format_number(100 * acc.scores[d][l], 2));
      wins[l] += acc.scores[d][l] == best;
    }
    acc_table.add(row);
  }
  std::vector<std::string> mean_row{"mean"}, wins_row{"data sets won"}, rank_row{"average rank"};
  for (std::size_t l = 0; l < learners.size(); ++l) {
    mean_row.push_back(format_number(100 * acc_cmp.mean_scores[l], 2));
    wins_row.push_back(std::to_string(wins[l]));
    rank_row.push_back(format_number(acc_cmp.average_ranks[l], 2));
  }
  acc_table.add(mean_row);
  acc_table.add(wins_row);
  acc_table.add(rank_row);
  return acc_table;
}

// Rules / conditions for the m-estimate selection (the slides' table).
Table rules_conditions_table(const std::string& results, const std::vector<std::string>& learners,
                             const std::vector<std::string>& datasets) {
  const ResultsMatrix rules = read_results(results, "rules", learners, datasets);
  const ResultsMatrix conds = read_results(results, "conditions", learners, datasets);
  Table rc;
  rc.columns = {"dataset"};
  std::vector<std::size_t> m_sel;
  for (std::size_t l = 0; l < learners.size(); ++l)
    if (learners[l].rfind("m-est /", 0) == 0) {
      m_sel.push_back(l);
      rc.columns.push_back(learners[l] + " rules/conditions");
    }
  for (std::size_t d = 0; d < rules.datasets.size() && d < conds.datasets.size(); ++d) {
    std::vector<std::string> row{rules.datasets[d]};
    for (auto l : m_sel)
      row.push_back(format_number(rules.scores[d][l], 1) + "/" + format_number(conds.scores[d][l], 1));
    rc.add(row);
  }
  return rc;
}

// Accuracy and AUC on the binary data sets, and their comparison on AUC, into `md` and the output folder.
void binary_auc(const std::string& results, const ResultsMatrix& acc, const std::vector<std::string>& learners,
                const std::vector<std::string>& binary, const ExperimentOptions& options, std::ostringstream& md) {
  if (binary.size() >= 2) {
    const ResultsMatrix auc = read_results(results, "auc", learners, binary);
    Table at;
    at.columns = {"dataset"};
    for (const auto& l : learners) at.columns.push_back(l + " acc / AUC");
    for (std::size_t d = 0; d < auc.datasets.size(); ++d) {
      std::vector<std::string> row{auc.datasets[d]};
      const auto it = std::find(acc.datasets.begin(), acc.datasets.end(), auc.datasets[d]);
      for (std::size_t l = 0; l < learners.size(); ++l)
        row.push_back((it != acc.datasets.end()
                           ? format_number(100 * acc.scores[static_cast<std::size_t>(it - acc.datasets.begin())][l], 2)
                           : "n/a") +
                      " / " + format_number(auc.scores[d][l], 3));
      at.add(row);
    }
    write_table(at, options.out, "auc_binary", "Accuracy (%) / AUC on the binary data sets");
    md << "## Accuracy and AUC on the " << auc.datasets.size() << " binary data sets\n\n" << markdown(at) << "\n";
    if (auc.datasets.size() >= 2) {
      const Comparison auc_cmp = compare_learners(auc, true, 0.05, "");
      write_file_atomic(options.out + "/comparison_auc_binary.json", comparison_json(auc_cmp).dump(2) + "\n");
      md << tests_markdown(auc_cmp) << "\n" << markdown(ranks_table(auc_cmp)) << "\n![CD](cd_auc_binary.png)\n";
      draw_plots({{"figures", nlohmann::json::array(
                                  {cd_figure(auc_cmp, "cd_auc_binary.png",
                                             "AUC on " + std::to_string(auc.datasets.size()) + " binary data sets")})}},
                 options.out, options.plots, "plots_auc_binary.json");
    }
  }
}

}  // namespace

void run_refinement_heuristics(const ExperimentOptions& options) {
  std::vector<std::string> binary;
  GridSpec grid = heuristics_grid(options, binary);
  run_grid(grid, grid_run_options(options));

  std::vector<std::string> learners;
  for (const auto& l : grid.learners) learners.push_back(l.name);
  const std::string results = options.out + "/results.csv";
  const ResultsMatrix acc = read_results(results, "accuracy", learners, grid.datasets);
  const Comparison acc_cmp = compare_learners(acc, true, 0.05, "");
  const Table acc_table = accuracy_table(acc, acc_cmp, learners);
  write_table(acc_table, options.out, "accuracy_table", "10-fold CV accuracy (%) by selection / refinement heuristic");
  const Table rc = rules_conditions_table(results, learners, grid.datasets);
  write_table(rc, options.out, "rules_conditions", "Rules / conditions (mean over folds), m-estimate selection");

  std::ostringstream md;
  md << "# Separate refinement and selection heuristics (paper 003)\n\n"
     << grid.resampling.describe() << ", seed " << grid.seed << ", " << acc.datasets.size()
     << " data sets; decision-list learner, hill climbing, m = 22.466. Learners are `selection / refinement`.\n\n"
     << "## Accuracy\n\n"
     << tests_markdown(acc_cmp) << "\n"
     << markdown(acc_table) << "\n![CD](cd_accuracy.png)\n\n"
     << "## Rules / conditions, m-estimate selection\n\n"
     << markdown(rc) << "\n";
  binary_auc(results, acc, learners, binary, options, md);
  write_file_atomic(options.out + "/heuristics.md", md.str());
  std::cout << md.str();
}

}  // namespace candor
