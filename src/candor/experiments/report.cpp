#include "candor/experiments/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "candor/stats/comparison.hpp"
#include "candor/util/format.hpp"
#include "candor/util/output.hpp"
#include "candor/util/process.hpp"

namespace candor {

std::string format_number(double x, int digits) { return std::isnan(x) ? "n/a" : fixed_digits(x, digits); }

void write_csv(const Table& t, const std::string& path) {
  std::ostringstream f;
  for (std::size_t i = 0; i < t.columns.size(); ++i) f << (i ? "," : "") << csv_field(t.columns[i]);
  f << "\n";
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) f << (i ? "," : "") << csv_field(row[i]);
    f << "\n";
  }
  write_file_atomic(path, f.str());
}

std::string markdown(const Table& t) {
  std::string s = "|";
  for (const auto& c : t.columns) s += " " + c + " |";
  s += "\n|";
  for (std::size_t i = 0; i < t.columns.size(); ++i) s += "---|";
  s += "\n";
  for (const auto& row : t.rows) {
    s += "|";
    for (const auto& v : row) s += " " + v + " |";
    s += "\n";
  }
  return s;
}

void write_table(const Table& t, const std::string& dir, const std::string& name, const std::string& title) {
  std::filesystem::create_directories(dir);
  write_csv(t, dir + "/" + name + ".csv");
  write_file_atomic(dir + "/" + name + ".md", "## " + title + "\n\n" + markdown(t));
}

namespace {}  // namespace

std::vector<std::size_t> largest_first(std::size_t n, const std::function<std::size_t(std::size_t)>& work) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work(a) > work(b); });
  return order;
}

bool draw_plots(const nlohmann::json& spec, const std::string& dir, bool draw, const std::string& spec_name) {
  std::filesystem::create_directories(dir);
  const std::string spec_path = dir + "/" + spec_name;
  write_file_atomic(spec_path, spec.dump(2) + "\n");
  if (!draw) return false;
  std::string script = CANDOR_PLOT_SCRIPT;
  if (const char* env = std::getenv("CANDOR_PLOT_SCRIPT")) script = env;
  if (!std::filesystem::exists(script)) {
    std::cerr << "plots: " << script << " not found; plot specification left in " << spec_path << "\n";
    return false;
  }
  // Debian's matplotlib lives with the system Python; try it before whatever python3 is first on PATH. The
  // paths are arguments of their own (no shell), and the script's output goes to stderr: stdout may carry
  // JSON.
  ProcessOptions quiet;
  quiet.stderr_path = "/dev/null";
  quiet.capture_stdout = true;
  ProcessOptions to_stderr;
  to_stderr.stdout_to_stderr = true;
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    if (run_process({python, "-c", "import matplotlib"}, quiet).exit_code != 0) continue;
    if (run_process({python, script, spec_path}, to_stderr).exit_code == 0) return true;
    std::cerr << "plots: " << python << " " << script << " " << spec_path << " failed\n";
    return false;
  }
  std::cerr << "plots: no Python 3 with matplotlib (Debian: apt install python3-matplotlib); tables are written, "
               "plot specification left in "
            << spec_path << "\n";
  return false;
}

Table ranks_table(const Comparison& c) {
  Table t;
  t.columns = {"learner", "mean " + c.metric, "average rank"};
  std::vector<std::size_t> order(c.learners.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return c.average_ranks[a] < c.average_ranks[b]; });
  for (auto l : order) t.add({c.learners[l], format_number(c.mean_scores[l], 4), format_number(c.average_ranks[l], 3)});
  return t;
}

Table pairs_table(const Comparison& c) {
  Table t;
  t.columns = {"learner a", "learner b", "a wins", "ties", "a loses", "sign test p", "Wilcoxon R+ (a better)",
               "R-",        "Wilcoxon p"};
  for (const auto& p : c.pairs)
    t.add({c.learners[p.a], c.learners[p.b], std::to_string(p.sign.wins), std::to_string(p.sign.ties),
           std::to_string(p.sign.losses), format_number(p.sign.p, 4), format_number(p.wilcoxon.r_plus, 1),
           format_number(p.wilcoxon.r_minus, 1),
           format_number(p.wilcoxon.p, 4) + (p.wilcoxon.exact ? "" : " (normal)")});
  return t;
}

std::string tests_markdown(const Comparison& c) {
  const std::size_t k = c.learners.size(), n = c.datasets.size();
  auto names = [&](const std::vector<std::size_t>& idx) {
    std::string s;
    for (auto i : idx) s += (s.empty() ? "" : ", ") + c.learners[i];
    return "{" + s + "}";
  };
  std::ostringstream s;
  s << "- " << c.metric << " (" << (c.higher_is_better ? "higher" : "lower") << " is better) of " << k
    << " learners on " << n << " data sets";
  if (!c.incomplete.empty()) {
    s << "; left out because some learner has no value:";
    for (const auto& d : c.incomplete) s << " " << d;
  }
  s << "\n- Friedman chi2 = " << format_number(c.friedman.chi2, 3) << " (df " << k - 1
    << "), p = " << format_number(c.friedman.p, 4) << "\n"
    << "- Iman-Davenport F = " << format_number(c.friedman.iman_davenport_f, 3) << " (df " << k - 1 << ", "
    << (k - 1) * (n - 1) << "), p = " << format_number(c.friedman.p_f, 4) << "\n"
    << "- Nemenyi critical difference (alpha " << c.alpha << ") = " << format_number(c.nemenyi_cd, 3)
    << "; groups it cannot separate: ";
  if (c.nemenyi_groups.empty()) s << "none (every pair differs)";
  for (std::size_t g = 0; g < c.nemenyi_groups.size(); ++g) s << (g ? ", " : "") << names(c.nemenyi_groups[g]);
  s << "\n- Bonferroni-Dunn critical difference (alpha " << c.alpha << ") = " << format_number(c.bonferroni_dunn_cd, 3);
  if (c.control) {
    std::vector<std::size_t> differ;
    for (std::size_t l = 0; l < k; ++l)
      if (std::find(c.same_as_control.begin(), c.same_as_control.end(), l) == c.same_as_control.end())
        differ.push_back(l);
    s << "; control " << c.learners[*c.control] << "; not separated from it: " << names(c.same_as_control)
      << "; significantly different: " << names(differ);
  }
  s << "\n";
  return s.str();
}

std::string comparison_markdown(const Comparison& c, const std::string& title) {
  return "## " + title + "\n\n" + tests_markdown(c) + "\n" + markdown(ranks_table(c)) + "\n" + markdown(pairs_table(c));
}

nlohmann::json cd_figure(const Comparison& c, const std::string& file, const std::string& title) {
  nlohmann::json ranks = nlohmann::json::object();
  for (std::size_t l = 0; l < c.learners.size(); ++l) ranks[c.learners[l]] = c.average_ranks[l];
  nlohmann::json fig{{"kind", "cd"}, {"file", file}, {"title", title}, {"ranks", ranks}};
  nlohmann::json groups = nlohmann::json::array();
  if (c.control) {
    fig["cd"] = c.bonferroni_dunn_cd;
    fig["test"] = "Bonferroni-Dunn";
    fig["control"] = c.learners[*c.control];
  } else {
    fig["cd"] = c.nemenyi_cd;
    fig["test"] = "Nemenyi";
    for (const auto& g : c.nemenyi_groups) {
      nlohmann::json names = nlohmann::json::array();
      for (auto i : g) names.push_back(c.learners[i]);
      groups.push_back(names);
    }
  }
  fig["groups"] = groups;
  return fig;
}

std::string learner_section_markdown(const LearnerSection& s, const std::string& results, const std::string& out,
                                     bool plots) {
  std::ostringstream md;
  md << "## " << s.title << "\n\n"
     << s.datasets.size() << " data sets" << (s.control.empty() ? std::string() : "; control " + s.control) << ".";
  for (const auto& m : s.missing)
    md << " " << m << ": not installed (Debian's weka; CANDOR_EXTRAS=1 scripts/install-deps.sh).";
  md << "\n\n";
  if (s.datasets.size() < 2) {
    md << "Not compared: fewer than two data sets.\n\n";
    return md.str();
  }
  Table summary;
  summary.columns = {"metric"};
  for (const auto& l : s.learners) summary.columns.push_back(l + " (rank)");
  for (const auto& l : s.missing) summary.columns.push_back(l);
  summary.columns.push_back("Friedman p");
  summary.columns.push_back(s.control.empty() ? "not separated from the best (Nemenyi, CD)"
                                              : "significantly worse than " + s.control + " (Bonferroni-Dunn)");
  nlohmann::json figures = nlohmann::json::array();
  std::ostringstream detail;
  for (const std::string metric : {"accuracy", "auc", "brier", "log_loss"}) {
    const ResultsMatrix m = read_results(results, metric, s.learners, s.datasets);
    if (m.datasets.size() < 2) continue;
    const Comparison c = compare_learners(m, *metric_higher_is_better(metric), 0.05, s.control);
    std::vector<std::string> row{metric};
    for (std::size_t l = 0; l < s.learners.size(); ++l)
      row.push_back(format_number(c.mean_scores[l], 4) + " (" + format_number(c.average_ranks[l], 2) + ")");
    for (std::size_t l = 0; l < s.missing.size(); ++l) row.push_back("not installed");
    row.push_back(format_number(c.friedman.p, 4));
    if (s.control.empty()) {
      const std::size_t best =
          std::min_element(c.average_ranks.begin(), c.average_ranks.end()) - c.average_ranks.begin();
      std::string close;
      for (std::size_t l = 0; l < s.learners.size(); ++l)
        if (c.average_ranks[l] - c.average_ranks[best] <= c.nemenyi_cd)
          close += (close.empty() ? "" : ", ") + s.learners[l];
      row.push_back(close + " (" + format_number(c.nemenyi_cd, 2) + ")");
    } else {
      std::string worse;
      for (std::size_t l = 0; l < s.learners.size(); ++l) {
        const bool same = std::find(c.same_as_control.begin(), c.same_as_control.end(), l) != c.same_as_control.end();
        if (!same && c.average_ranks[l] > c.average_ranks[*c.control])
          worse += (worse.empty() ? "" : ", ") + s.learners[l];
      }
      row.push_back(worse.empty() ? "none" : worse);
    }
    summary.add(row);
    write_file_atomic(out + "/" + s.file + "_" + metric + ".json", comparison_json(c).dump(2) + "\n");
    detail << comparison_markdown(c, s.title + ": " + metric) << "\n";
    figures.push_back(cd_figure(c, s.file + "_cd_" + metric + ".png",
                                s.title + ": " + metric + " (" + std::to_string(m.datasets.size()) + " data sets)"));
  }
  write_table(summary, out, s.file, s.title + ": mean (average rank) over the data sets");
  draw_plots({{"figures", figures}}, out, plots, s.file + "_plots.json");
  md << markdown(summary) << "\nCD diagrams: " << s.file << "_cd_METRIC.png (log loss: " << s.file
     << "_cd_log_loss.png).\n\n<details><summary>Ranks and tests per metric</summary>\n\n"
     << detail.str() << "</details>\n\n";
  return md.str();
}

MeanSe mean_se(const std::vector<double>& xs) {
  std::vector<double> v;
  for (double x : xs)
    if (!std::isnan(x)) v.push_back(x);
  MeanSe out;
  if (v.empty()) return out;
  double s = 0;
  for (double x : v) s += x;
  out.mean = s / static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - out.mean) * (x - out.mean);
    out.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
    out.se = out.sd / std::sqrt(static_cast<double>(v.size()));
  }
  return out;
}

}  // namespace candor
