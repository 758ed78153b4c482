// Paper 004, Table 2: PrIL's adjusted accuracy on mushroom, vote and credit (credit-a) with five folds (case i
// in test fold i mod 5) and on waveform, LED and LED+17 (five generated training sets of 1,000 and test sets
// of 500), over the paper's parameter grid (M, n, shape, symmetry, steps, branching, n-option: 432 settings),
// under its three selection criteria: best test adjusted accuracy, best training adjusted average
// reliability, and the recommended settings (M = 2, n = 5, linear symmetric function in 5 steps, n-option,
// and the paper's number of branching attributes per data set). Every (setting, fold) is a cell of one
// resumable grid (train-test pairs written to DIR/data).
// Beyond the paper: does the guarantee hold? For the recommended settings, every rule deciding test cases:
// the share whose test accuracy reaches its stated reliability, against the stated confidence; the same for
// CN2 with EVC (its corrected probability in place of the reliability).
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

#include "candor/data.hpp"
#include "candor/data/table.hpp"
#include "candor/errors.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/experiments/generators.hpp"
#include "candor/experiments/grid.hpp"
#include "candor/experiments/report.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/stats/binomial_interval.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/output.hpp"
#include "candor/util/parallel.hpp"

namespace candor {
namespace {

struct Family {
  std::string name;    // as in the paper's Table 2
  std::string source;  // corpus file, or a generator
  int branching;       // the paper's logit-chosen number of branching attributes (recommended settings)
  double paper[6];     // Table 2: criterion a mean, sd; b mean, sd; c mean, sd (percent)
};

const std::vector<Family>& families() {
  static const std::vector<Family> f{
      {"mushroom", "mushroom", 1, {100, 0, 100, 0, 100, 0}},
      {"vote", "vote", 1, {96.22, 2.72, 94.02, 0.96, 94.02, 2.12}},
      {"credit", "credit-a", 1, {86.96, 0.89, 82.32, 3.72, 82.61, 1.98}},
      {"waveform", "waveform", 0, {76.48, 2.44, 70.68, 2.23, 76.48, 2.44}},
      {"LED", "led", 2, {70.80, 2.72, 69.20, 1.50, 69.20, 1.50}},
      {"LED+17", "led+17", 2, {70.64, 1.75, 70.48, 1.78, 70.64, 1.75}},
  };
  return f;
}

struct Setting {
  std::string name, options;
  int m, branching, n_option, steps;
  double n;
  std::string shape;
  bool symmetric;
};

std::vector<Setting> settings_grid() {
  std::vector<Setting> out;
  for (int m : {1, 2})
    for (double n : {5.0, 10.0, 20.0})
      for (const std::string shape : {"convex", "linear", "concave"})
        for (bool symmetric : {true, false})
          for (int steps : {3, 5})
            for (int b : {0, 1, 2})
              for (int nopt : {0, 1}) {
                Setting s{"", "", m, b, nopt, steps, n, shape, symmetric};
                std::ostringstream name, opt;
                name << "M" << m << " n" << n << " " << shape << (symmetric ? " sym" : " asym") << " s" << steps << " b"
                     << b << " nopt" << nopt;
                opt << "--learner pril --max-attributes " << m << " --min-cases " << n << " --shape " << shape
                    << " --steps " << steps << " --branching " << b << " --n-option " << nopt
                    << (symmetric ? "" : " --reliability-prior");
                s.name = name.str();
                s.options = opt.str();
                out.push_back(s);
              }
  return out;
}

bool recommended(const Setting& s, const Family& f) {
  return s.m == 2 && s.n == 5 && s.shape == "linear" && s.symmetric && s.steps == 5 && s.n_option == 1 &&
         s.branching == f.branching;
}

// Writes the five train/test pairs of a family under dir; returns "TRAIN:TEST" names.
std::vector<std::string> write_pairs(const Family& f, const std::string& dir, const std::string& datasets_dir,
                                     std::uint64_t seed) {
  std::vector<std::string> pairs;
  std::vector<Dataset> train(5), test(5);
  if (f.source == "waveform" || f.source == "led" || f.source == "led+17") {
    Rng rng(seed * 1000003 + std::hash<std::string>{}(f.source) % 1000);
    for (int k = 0; k < 5; ++k) {
      auto gen = [&](std::size_t rows) {
        return f.source == "waveform" ? generate_waveform(rows, rng)
                                      : generate_led(rows, f.source == "led" ? 0 : 17, 0.1, rng);
      };
      train[k] = gen(1000);
      test[k] = gen(500);
    }
  } else {
    const Dataset all = load_dataset(datasets_dir + "/" + f.source + ".arff");
    for (int k = 0; k < 5; ++k) {
      std::vector<std::size_t> in, out;
      for (std::size_t i = 0; i < all.rows(); ++i) ((i % 5 == static_cast<std::size_t>(k)) ? out : in).push_back(i);
      train[k] = all.subset(in);
      test[k] = all.subset(out);
    }
  }
  for (int k = 0; k < 5; ++k) {
    const std::string base = dir + "/" + f.source + "_" + std::to_string(k);
    write_arff(train[k], base + "_train.arff");
    write_arff(test[k], base + "_test.arff");
    pairs.push_back(base + "_train.arff:" + base + "_test.arff");
  }
  return pairs;
}

double mean(const std::vector<double>& v) { return mean_se(v).mean; }
double sd(const std::vector<double>& v) { return mean_se(v).sd; }

// The families --datasets names (by family or source), all six without it.
std::vector<Family> chosen_families(const ExperimentOptions& options) {
  std::vector<Family> chosen;
  for (const auto& f : families())
    if (options.datasets.empty() ||
        std::find(options.datasets.begin(), options.datasets.end(), f.source) != options.datasets.end() ||
        std::find(options.datasets.begin(), options.datasets.end(), f.name) != options.datasets.end())
      chosen.push_back(f);
  if (chosen.empty())
    throw std::invalid_argument("pril: --datasets names none of mushroom, vote, credit-a, waveform, led, led+17");
  return chosen;
}

// The grid's results per (family, setting): each fold's adjusted accuracy, training reliability and
// undecided rate (percent) and rules.
struct FoldScores {
  std::map<std::pair<std::string, std::string>, std::vector<double>> acc, rel, rules, undecided;
};

FoldScores read_fold_scores(const std::string& results, const std::map<std::string, std::string>& family_of) {
  FoldScores scores;
  auto& [acc, rel, rules, undecided] = scores;
  std::ifstream in(results);
  std::string line;
  std::vector<std::string> header;
  std::size_t line_no = 0;
  std::size_t cd = 0, cl = 0, ca = 0, cr = 0, cn = 0, cu = 0;
  auto number = [](const std::string& text) { return text.empty() ? NAN : std::stod(text); };
  while (std::getline(in, line)) {
    const auto cells = detail::split_csv_line(line, ',', results, ++line_no);
    if (line_no == 1) {
      for (const auto& c : cells) header.push_back(c.text);
      auto col = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) throw InputError(results, 1, "no column '" + name + "'");
        return static_cast<std::size_t>(it - header.begin());
      };
      cd = col("dataset"), cl = col("learner"), ca = col("adjusted_accuracy");
      cr = col("adjusted_average_reliability"), cn = col("rules"), cu = col("undecided_rate");
      continue;
    }
    if (cells.size() != header.size()) throw InputError(results, line_no, "wrong number of values");
    auto it = family_of.find(cells[cd].text);
    if (it == family_of.end()) continue;
    const auto key = std::make_pair(it->second, cells[cl].text);
    acc[key].push_back(100 * number(cells[ca].text));
    rel[key].push_back(100 * number(cells[cr].text));
    rules[key].push_back(number(cells[cn].text));
    undecided[key].push_back(100 * number(cells[cu].text));
  }
  return scores;
}

// Table 2: per family the best setting by (a) test adjusted accuracy and (b) training reliability, and (c) the
// recommended one, against the paper's figures; `choices` lists the settings chosen.
Table table_2(const std::vector<Family>& chosen, const std::vector<Setting>& settings, FoldScores& scores,
              std::ostringstream& choices) {
  auto& [acc, rel, rules, undecided] = scores;
  Table table2;
  table2.columns = {"data set",      "paper (a) mean",  "paper (a) sd", "candor (a) mean",
                    "candor (a) sd", "paper (b) mean",  "paper (b) sd", "candor (b) mean",
                    "candor (b) sd", "paper (c) mean",  "paper (c) sd", "candor (c) mean",
                    "candor (c) sd", "(c) undecided %", "(c) rules",    "(c) within 2 sd of the paper"};
  for (const auto& f : chosen) {
    const Setting *best_a = nullptr, *best_b = nullptr, *rec = nullptr;
    for (const auto& s : settings) {
      const auto key = std::make_pair(f.name, s.name);
      if (acc[key].size() != 5) continue;
      if (!best_a || mean(acc[key]) > mean(acc[{f.name, best_a->name}])) best_a = &s;
      if (!best_b || mean(rel[key]) > mean(rel[{f.name, best_b->name}])) best_b = &s;
      if (recommended(s, f)) rec = &s;
    }
    if (!best_a || !rec) continue;
    auto a = acc[{f.name, best_a->name}], b = acc[{f.name, best_b->name}], c = acc[{f.name, rec->name}];
    const double paper_sd = std::max(f.paper[5], 1e-9);
    const bool within = std::abs(mean(c) - f.paper[4]) <= 2 * std::max(paper_sd, sd(c));
    table2.add({f.name, format_number(f.paper[0], 2), format_number(f.paper[1], 2), format_number(mean(a), 2),
                format_number(sd(a), 2), format_number(f.paper[2], 2), format_number(f.paper[3], 2),
                format_number(mean(b), 2), format_number(sd(b), 2), format_number(f.paper[4], 2),
                format_number(f.paper[5], 2), format_number(mean(c), 2), format_number(sd(c), 2),
                format_number(mean(undecided[{f.name, rec->name}]), 1),
                format_number(mean(rules[{f.name, rec->name}]), 1), within ? "yes" : "no"});
    choices << "- " << f.name << ": (a) `" << best_a->name << "`, (b) `" << best_b->name << "`, (c) `" << rec->name
            << "`\n";
  }
  return table2;
}

// A family's fold, fitted by the recommended PrIL setting or by CN2 with EVC, for the guarantee check.
struct GuaranteeTask {
  const Family* f;
  int fold;
  bool evc;
};

// Each task's rules scored on its fold's test data.
std::vector<std::vector<RulePoint>> guarantee_points(const std::vector<GuaranteeTask>& tasks,
                                                     const std::vector<Setting>& settings, const std::string& data_dir,
                                                     const ExperimentOptions& options) {
  std::vector<std::vector<RulePoint>> found(tasks.size());
  parallel_for(tasks.size(), options.threads, [&](std::size_t i) {
    const GuaranteeTask& t = tasks[i];
    const std::string base = data_dir + "/" + t.f->source + "_" + std::to_string(t.fold);
    const Dataset train = load_dataset(base + "_train.arff");
    LoadOptions lo;
    lo.schema = &train.schema;
    const Dataset test = load_dataset(base + "_test.arff", lo);
    LearnerParams p;
    if (t.evc) {
      p.learner = "cn2-unordered";
      p.heuristics.quality = "evc";
      use_evc_options(options, p);
      p.seed = static_cast<int>(options.seed);
    } else {
      for (const auto& s : settings)
        if (recommended(s, *t.f)) p = make_grid_learner(s.name, s.options).params;
    }
    found[i] = fit_model(train, p, 1)->rule_points(test);
  });
  return found;
}

// Per family (and over all): the share of rules whose test accuracy reaches the stated value, and of those
// significantly below it.
Table guarantee_table(const std::vector<std::string>& names,
                      std::map<std::pair<std::string, bool>, std::vector<RulePoint>>& pooled) {
  Table guarantee;
  guarantee.columns = {"data set",
                       "method",
                       "rules",
                       "share with test accuracy >= stated",
                       "95% interval",
                       "rules with >= 20 test cases",
                       "their share",
                       "significantly below stated (test, 0.05)",
                       "stated confidence"};
  for (const auto& name : names)
    for (bool evc : {false, true}) {
      const auto& v = pooled[{name, evc}];
      double kept = 0, big = 0, big_kept = 0, below = 0;
      for (const auto& pt : v) {
        const bool ok = pt.test_share >= pt.probability - 1e-12;
        kept += ok;
        // One-sided binomial test of the rule's test cases against its stated value: P(X <= correct) at 0.05.
        // Where the statement holds, at most 5% of rules fall here by chance.
        const double correct = std::round(pt.test_share * pt.decided), n = std::round(pt.decided);
        if (n > 0 && pt.probability > 0 && pt.probability < 1 && correct < n &&
            boost::math::ibetac(correct + 1, n - correct, pt.probability) <= 0.05)
          ++below;
        if (pt.decided >= 20) {
          ++big;
          big_kept += ok;
        }
      }
      const auto ci =
          v.empty() ? std::pair<double, double>(NAN, NAN) : clopper_pearson(kept, static_cast<double>(v.size()));
      guarantee.add({name, evc ? "CN2-EVC (corrected probability)" : "PrIL (reliability)", std::to_string(v.size()),
                     v.empty() ? std::string("n/a") : format_number(kept / static_cast<double>(v.size()), 3),
                     "[" + format_number(ci.first, 3) + ", " + format_number(ci.second, 3) + "]", format_number(big, 0),
                     big > 0 ? format_number(big_kept / big, 3) : std::string("n/a"),
                     v.empty() ? std::string("n/a") : format_number(below / static_cast<double>(v.size()), 3),
                     evc ? std::string("(an estimate, no bound)") : format_number(1 - 0.05, 2)});
    }
  return guarantee;
}

// The figure of the guarantee: stated against test accuracy, PrIL's panel beside CN2-EVC's.
nlohmann::json guarantee_plot_spec() {
  auto panel = [](const char* title, const char* method, const char* xlabel) {
    return nlohmann::json{{"title", title},
                          {"csv", "guarantee_points.csv"},
                          {"where", {{"method", method}}},
                          {"x", "stated"},
                          {"y", "test_accuracy"},
                          {"group", "family"},
                          {"diagonal", true},
                          {"xlim", {0, 1}},
                          {"ylim", {0, 1.02}},
                          {"xlabel", xlabel},
                          {"ylabel", "test accuracy of the rule"}};
  };
  nlohmann::json figure{{"file", "guarantee.png"},
                        {"title", "Stated reliability (PrIL) or corrected probability (CN2-EVC) against test accuracy"},
                        {"columns", 2},
                        {"panels",
                         {panel("PrIL, recommended settings", "PrIL", "stated reliability"),
                          panel("CN2 with EVC", "CN2-EVC", "EVC-corrected probability")}}};
  return {{"figures", nlohmann::json::array({figure})}};
}

}  // namespace

void run_pril(const ExperimentOptions& options) {
  const std::string data_dir = options.out + "/data";
  std::filesystem::create_directories(data_dir);
  const std::vector<Family> chosen = chosen_families(options);

  GridSpec grid;
  const auto settings = settings_grid();
  for (const auto& s : settings) grid.learners.push_back(make_grid_learner(s.name, s.options));
  std::map<std::string, std::string> family_of;  // pair name -> family
  for (const auto& f : chosen)
    for (const auto& p : write_pairs(f, data_dir, options.datasets_dir, options.seed)) {
      grid.datasets.push_back(p);
      family_of[p] = f.name;
    }
  grid.resampling.kind = "train-test";
  grid.seed = options.seed;
  grid.metrics = {"adjusted_accuracy", "undecided_rate", "adjusted_average_reliability", "rules"};
  GridRunOptions run = grid_run_options(options);
  run.summary = false;
  run_grid(grid, run);

  // results.csv: per (family, setting), the five folds' adjusted accuracy and training reliability.
  FoldScores scores = read_fold_scores(options.out + "/results.csv", family_of);
  std::ostringstream choices;
  const Table table2 = table_2(chosen, settings, scores, choices);
  write_table(table2, options.out, "table2", "Table 2: adjusted accuracy (%) under the three selection criteria");

  // The guarantee: rules of the recommended settings (and CN2 with EVC) on their test folds.
  std::vector<GuaranteeTask> tasks;
  for (const auto& f : chosen)
    for (int k = 0; k < 5; ++k)
      for (bool evc : {false, true}) tasks.push_back({&f, k, evc});
  const auto found = guarantee_points(tasks, settings, data_dir, options);
  Table points;
  points.columns = {"family", "fold", "method", "stated", "test_accuracy", "test_cases"};
  std::map<std::pair<std::string, bool>, std::vector<RulePoint>> pooled;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    for (const auto& pt : found[i]) {
      points.add({tasks[i].f->name, std::to_string(tasks[i].fold), tasks[i].evc ? "CN2-EVC" : "PrIL",
                  format_number(pt.probability, 6), format_number(pt.test_share, 6), format_number(pt.decided, 0)});
      pooled[{tasks[i].f->name, tasks[i].evc}].push_back(pt);
      pooled[{"all", tasks[i].evc}].push_back(pt);
    }
  std::vector<std::string> names;
  for (const auto& f : chosen) names.push_back(f.name);
  names.push_back("all");
  const Table guarantee = guarantee_table(names, pooled);
  write_csv(points, options.out + "/guarantee_points.csv");
  write_table(guarantee, options.out, "guarantee", "Does the stated reliability hold on test data?");
  draw_plots(guarantee_plot_spec(), options.out, options.plots, "guarantee_plots.json");

  std::ostringstream md;
  md << "# PrIL (paper 004)\n\nMinimum reliability " << LearnerParams().options<PrilOptions>().reliability
     << " for every class (`asym`: at least "
     << "the class's training share), risk 0.05; " << settings.size()
     << " settings x 5 train/test pairs per data set; adjusted accuracy counts an undecided case as wrong. "
     << "Criteria: (a) best mean test adjusted accuracy, (b) best mean training adjusted average reliability, "
     << "(c) the recommended settings with the paper's branching count.\n\n"
     << markdown(table2) << "\nChosen settings:\n\n"
     << choices.str()
     << "\n## Does the guarantee hold?\n\nEvery rule of the recommended settings (and of CN2 with EVC) that decides "
        "test cases, on its fold's test set (guarantee.png; points in guarantee_points.csv). A rule whose true "
        "accuracy is just above its reliability falls below it on a small test sample half the time, so the raw "
        "share understates a guarantee that holds; the share of rules whose test cases put their accuracy "
        "significantly below the stated value (one-sided binomial test at 0.05) is the check: where every "
        "statement holds it stays near or under 0.05.\n\n"
     << markdown(guarantee) << "\n";
  write_file_atomic(options.out + "/pril.md", md.str());
  std::cout << md.str();
}

}  // namespace candor
