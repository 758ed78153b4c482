#include "candor/experiments/calibration_report.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/experiments/report.hpp"

namespace candor {

std::vector<int> rule_budgets(double unbudgeted_rules) {
  std::vector<int> out;
  for (int decade = 1; decade <= 100000; decade *= 10)
    for (int step : {1, 2, 5})
      if (step * decade < unbudgeted_rules) out.push_back(step * decade);
  return out;
}

namespace {

// The figure of the rule budget curve: its CSV and two panels.
nlohmann::json rule_budget_figure(const std::vector<RuleBudgetPoint>& budget, const std::string& dir,
                                  const std::string& title) {
  Table points{{"max_rules", "rules", "accuracy", "log_loss"}, {}};
  for (const auto& b : budget)
    points.add({std::to_string(b.max_rules), format_number(b.rules, 2), format_number(b.accuracy, 6),
                format_number(b.log_loss, 6)});
  write_csv(points, dir + "/rule_budget.csv");
  auto panel = [](const std::string& y, const std::string& label) {
    return nlohmann::json{{"title", label + " against the rules kept\n(labels: --max-rules; 0: no budget)"},
                          {"csv", "rule_budget.csv"},
                          {"x", "rules"},
                          {"y", y},
                          {"kind", "line"},
                          {"annotate", "max_rules"},
                          {"xlabel", "rules in the model (mean over the folds)"},
                          {"ylabel", label}};
  };
  return {{"file", "rule_budget.png"},
          {"title", title},
          {"columns", 2},
          {"panel_size", {4.6, 4.4}},
          {"panels", {panel("accuracy", "accuracy"), panel("log_loss", "log loss")}}};
}

}  // namespace

bool write_calibration_report(const EvaluationResult& r, const std::string& dir, const std::string& title, bool draw,
                              const std::vector<RuleBudgetPoint>& budget) {
  std::filesystem::create_directories(dir);
  // The reliability diagram is of the predictions the model makes: a case it leaves undecided (PrIL) has no
  // claimed probability and is left out (counted in the panel's title).
  std::vector<int> y;
  std::vector<std::vector<double>> proba;
  std::size_t undecided = 0;
  Table rules{{"repeat", "fold", "rule", "probability", "test_share", "decided", "interval_low", "interval_high"}, {}};
  for (const auto& f : r.folds) {
    for (std::size_t i = 0; i < f.y.size(); ++i) {
      if (!f.decided.empty() && !f.decided[i]) {
        undecided += f.y[i] != kMissing;
        continue;
      }
      y.push_back(f.y[i]);
      proba.push_back(f.proba[i]);
    }
    for (const auto& p : f.rule_points)
      rules.add({std::to_string(f.repeat), std::to_string(f.fold), std::to_string(p.rule),
                 format_number(p.probability, 6), format_number(p.test_share, 6), format_number(p.decided, 2),
                 format_number(p.low, 6), format_number(p.high, 6)});
  }
  Table bins{{"lo", "hi", "count", "mean_predicted", "observed"}, {}};
  for (const auto& b : reliability_bins(y, proba))
    if (b.count > 0)
      bins.add({format_number(b.lo, 2), format_number(b.hi, 2), format_number(b.count, 0),
                format_number(b.mean_predicted, 6), format_number(b.observed, 6)});
  write_csv(bins, dir + "/reliability.csv");
  write_csv(rules, dir + "/rules.csv");
  nlohmann::json spec{
      {"figures",
       {{{"file", "calibration.png"},
         {"title", title},
         {"columns", 2},
         {"panel_size", {4.6, 4.4}},
         {"panels",
          {{{"title", "Reliability of the top-label probability\n(labels: test examples per bin" +
                          (undecided ? "; " + std::to_string(undecided) + " undecided left out)" : std::string(")"))},
            {"csv", "reliability.csv"},
            {"x", "mean_predicted"},
            {"y", "observed"},
            {"kind", "line"},
            {"annotate", "count"},
            {"diagonal", true},
            {"xlim", {0, 1}},
            {"ylim", {0, 1}},
            {"xlabel", "mean predicted probability"},
            {"ylabel", "observed accuracy"}},
           {{"title", "Each rule's probability against its test share\n(one point per rule and fold)"},
            {"csv", "rules.csv"},
            {"x", "probability"},
            {"y", "test_share"},
            {"kind", "scatter"},
            {"diagonal", true},
            {"xlim", {0, 1}},
            {"ylim", {0, 1}},
            {"xlabel", "rule probability (training)"},
            {"ylabel", "its class's share of the test examples it decides"}}}}}}}};
  if (!budget.empty()) spec["figures"].push_back(rule_budget_figure(budget, dir, title));
  return draw_plots(spec, dir, draw);
}

}  // namespace candor
