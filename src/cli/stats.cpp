// candor stats ACTION RESULTS: compare learners over data sets (ranks, Friedman, critical differences, pairs).
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "candor/experiments/report.hpp"
#include "candor/stats/comparison.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"

namespace candor::cli {

namespace {

struct StatsArguments {
  std::string action, input, metric, format = "text", control, plot;
  double alpha = 0.05;
  bool higher = false, lower = false;
};

int run_stats(const StatsArguments& a) {
  if (a.higher && a.lower) throw std::invalid_argument("give --higher-is-better or --lower-is-better, not both");
  std::optional<bool> higher = metric_higher_is_better(a.metric);
  if (a.higher) higher = true;
  if (a.lower) higher = false;
  if (!higher)
    throw std::invalid_argument("candor does not know whether a larger '" + a.metric +
                                "' is better: give --higher-is-better or --lower-is-better");
  const ResultsMatrix results = read_results(a.input, a.metric);
  const Comparison c = compare_learners(results, *higher, a.alpha, a.control);
  const nlohmann::json all = comparison_json(c);
  if (!c.incomplete.empty() && a.format == "text") {
    std::cerr << a.input << ": left out (some learner has no '" << a.metric << "'):";
    for (const auto& d : c.incomplete) std::cerr << " " << d;
    std::cerr << "\n";
  }
  nlohmann::json out;
  auto pick = [&](std::initializer_list<const char*> keys) {
    for (const char* key : keys) out[key] = all[key];
  };
  pick({"metric", "higher_is_better", "n_datasets", "incomplete", "average_ranks"});
  if (a.action == "ranks") {
    pick({"mean_scores", "datasets"});
    if (a.format == "text") std::cout << markdown(ranks_table(c));
  } else if (a.action == "friedman") {
    pick({"chi2", "p", "iman_davenport_F", "p_F"});
    if (a.format == "text") std::cout << tests_markdown(c) << "\n" << markdown(ranks_table(c));
  } else if (a.action == "cd") {
    out["alpha"] = c.alpha;
    if (c.control) {
      out["test"] = "bonferroni-dunn";
      out["control"] = c.learners[*c.control];
      out["cd"] = c.bonferroni_dunn_cd;
      out["same_as_control"] = all["bonferroni_dunn"]["same_as_control"];
      out["groups"] = nlohmann::json::array({out["same_as_control"]});
    } else {
      out["test"] = "nemenyi";
      out["cd"] = c.nemenyi_cd;
      out["groups"] = all["nemenyi"]["groups"];
    }
    if (a.format == "text") std::cout << tests_markdown(c) << "\n" << markdown(ranks_table(c));
    if (!a.plot.empty()) {
      const std::filesystem::path png(a.plot);
      const std::string dir = png.has_parent_path() ? png.parent_path().string() : ".";
      nlohmann::json spec{
          {"figures", nlohmann::json::array({cd_figure(c, png.filename().string(), a.metric + ": average ranks")})}};
      if (!draw_plots(spec, dir, true, png.stem().string() + ".plot.json"))
        throw OutputError(a.plot, "the plot could not be drawn (see the message above)");
    }
  } else {
    pick({"pairs"});
    if (a.format == "text") std::cout << markdown(pairs_table(c));
  }
  if (a.format == "json") std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

Command add_stats_command(CLI::App& app) {
  auto a = std::make_shared<StatsArguments>();
  auto* cmd = app.add_subcommand(
      "stats",
      "compare learners over data sets from a results CSV (columns dataset, learner and one per metric; rows of "
      "one data set and learner are averaged; a data set where some learner lacks the metric is left out)\n"
      "  ranks: average ranks (ties averaged)\n"
      "  friedman: Friedman test with the Iman-Davenport correction\n"
      "  cd: Nemenyi critical difference and the groups it cannot separate; with --control, Bonferroni-Dunn\n"
      "  pairwise: sign test and Wilcoxon signed-rank test for each pair (or the control against each)");
  cmd->add_option("ACTION", a->action, "ranks, friedman, cd or pairwise")
      ->required()
      ->check(CLI::IsMember({"ranks", "friedman", "cd", "pairwise"}));
  cmd->add_option("RESULTS", a->input, "results CSV")->required();
  cmd->add_option("--metric", a->metric, "metric column")->required();
  cmd->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--alpha", a->alpha, "significance level")->capture_default_str();
  cmd->add_option("--control", a->control, "control learner (Bonferroni-Dunn, pairwise against it)");
  cmd->add_option("--plot", a->plot, "cd: draw the critical-difference diagram to this PNG");
  cmd->add_flag("--higher-is-better", a->higher, "larger values are better (needed for unknown metrics)");
  cmd->add_flag("--lower-is-better", a->lower, "smaller values are better (needed for unknown metrics)");
  return {cmd, [a] { return run_stats(*a); }};
}

}  // namespace candor::cli
