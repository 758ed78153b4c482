// Paper 000, introduction and section 4.3.1 (Table 2; Figs. 1, 6 and 11): 300 artificial data sets where
// the true class probability of every rule is known exactly.
//
// Each data set: a maximum class probability pmax ~ U[0.5, 1]; ten binary attributes, a0..a4 informative
// and a5..a9 not; for each of the 32 combinations of the informative attributes, P(class = 1) ~
// U[1 - pmax, pmax] (so neither class is more probable than pmax anywhere); the 1024 attribute vectors
// once each, the class of each drawn from its combination's probability. The true probability of a rule
// is the mean, over the vectors it covers, of their combination's probability of the rule's class.
// One best rule per data set and measure (beam width 5, CN2's first rule).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "candor/evc/general.hpp"
#include "candor/experiments/report.hpp"
#include "candor/learn/fit.hpp"
#include "candor/stats/ranks.hpp"
#include "candor/studies/studies.hpp"
#include "candor/util/parallel.hpp"

namespace candor {
namespace {

constexpr int kAttributes = 10, kInformative = 5, kDataSets = 300;

struct ArtificialData {
  Dataset data;
  std::vector<double> p_class1;  // per row: P(class = 1 | its informative combination)
  double pmax = 0;
};

ArtificialData make_artificial(Rng& rng) {
  ArtificialData out;
  out.pmax = 0.5 + 0.5 * uniform01(rng);
  std::vector<double> p_combo(1u << kInformative);
  for (double& p : p_combo) p = (1 - out.pmax) + (2 * out.pmax - 1) * uniform01(rng);
  Dataset& d = out.data;
  d.source = "artificial";
  for (int a = 0; a < kAttributes; ++a)
    d.schema.attributes.push_back(Attribute{"a" + std::to_string(a), AttributeType::nominal, {"0", "1"}});
  d.schema.class_attribute = Attribute{"class", AttributeType::nominal, {"c0", "c1"}};
  d.columns.resize(kAttributes);
  for (std::uint32_t x = 0; x < (1u << kAttributes); ++x) {
    for (int a = 0; a < kAttributes; ++a) d.columns[a].codes.push_back(static_cast<int>((x >> a) & 1u));
    const double p = p_combo[x & ((1u << kInformative) - 1)];
    out.p_class1.push_back(p);
    d.y.push_back(uniform01(rng) < p ? 1 : 0);
    d.weights.push_back(1.0);
    d.lines.push_back(0);
  }
  return out;
}

struct Method {
  std::string name;
  std::string quality;
  double m = 0;
  Correction correct = Correction::none;  // the estimate of the rule's probability, when not the quality's own
};

}  // namespace

void run_evc_artificial(const ExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Method> methods{{"relative frequency", "precision", 0},
                                    {"m=2", "m-estimate", 2},
                                    {"m=10", "m-estimate", 10},
                                    {"m=20", "m-estimate", 20},
                                    {"m=50", "m-estimate", 50},
                                    {"m=100", "m-estimate", 100},
                                    {"EVC", "evc", 0},
                                    // Beyond the paper: the bootstrap's estimate of the optimism beside EVC's,
                                    // on the rule EVC ranks best and on the rule m = 20 ranks best.
                                    {"EVC rule, bootstrap estimate", "evc", 0, Correction::bootstrap},
                                    {"m=20 rule, EVC estimate", "m-estimate", 20, Correction::evc},
                                    {"m=20 rule, bootstrap estimate", "m-estimate", 20, Correction::bootstrap}};
  const std::size_t evc_method = 6;  // the paper's EVC row (Fig. 11)
  struct Point {
    double true_p, estimated, pmax;
    std::size_t length, covered;
  };
  std::vector<std::vector<Point>> points(kDataSets, std::vector<Point>(methods.size()));
  parallel_for(kDataSets, options.threads, [&](std::size_t i) {
    Rng rng(stream_seed(options.seed, i));
    ArtificialData art = make_artificial(rng);
    for (std::size_t mi = 0; mi < methods.size(); ++mi) {
      LearnerParams p = paper_params("cn2-ordered");
      p.heuristics.quality = methods[mi].quality;
      p.heuristics.m = methods[mi].m;
      p.correct = methods[mi].correct;
      p.rule_search.beam_width = 5;
      p.rule_covering.max_rules = 1;
      use_evc_options(options, p);
      p.seed = static_cast<int>(stream_seed(options.seed + 1, i) >> 33);
      RuleModel model = fit(art.data, p, 1);
      Point pt{0.5, 0.5, art.pmax, 0, 0};
      if (!model.rules.empty()) {
        const Rule& r = model.rules.front();
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t row = 0; row < art.data.rows(); ++row)
          if (r.covers(art.data, row)) {
            sum += r.klass == 1 ? art.p_class1[row] : 1 - art.p_class1[row];
            ++n;
          }
        pt = Point{sum / static_cast<double>(n), r.probability, art.pmax, r.conditions.size(), n};
      }
      points[i][mi] = pt;
    }
  });

  Table raw{{"dataset", "method", "pmax", "true", "estimated", "length", "covered"}, {}};
  Table summary{
      {"method", "mean true probability", "Spearman", "RMSE", "mean estimate", "mean length", "mean coverage"}, {}};
  for (std::size_t mi = 0; mi < methods.size(); ++mi) {
    std::vector<double> truth, est;
    double length = 0, covered = 0;
    for (std::size_t i = 0; i < kDataSets; ++i) {
      const Point& pt = points[i][mi];
      truth.push_back(pt.true_p);
      est.push_back(pt.estimated);
      length += static_cast<double>(pt.length);
      covered += static_cast<double>(pt.covered);
      raw.add({std::to_string(i + 1), methods[mi].name, format_number(pt.pmax, 6), format_number(pt.true_p, 6),
               format_number(pt.estimated, 6), std::to_string(pt.length), std::to_string(pt.covered)});
    }
    double mean_true = 0, mean_est = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
      mean_true += truth[i];
      mean_est += est[i];
    }
    const double n = kDataSets;
    summary.add({methods[mi].name, format_number(mean_true / n, 4), format_number(spearman(truth, est), 4),
                 format_number(rmse(est, truth), 4), format_number(mean_est / n, 4), format_number(length / n, 2),
                 format_number(covered / n, 1)});
  }
  write_table(raw, options.out, "rules", "Best rule of each artificial data set and method");
  write_table(summary, options.out, "table2",
              "Paper 000, Table 2 (and Fig. 11): 300 artificial data sets, one best rule each, beam 5");
  std::cout << "## evc-artificial: 300 data sets, one best rule each (paper 000, Table 2; the last three rows are "
               "beyond the paper)\n\n"
            << markdown(summary);

  nlohmann::json panels = nlohmann::json::array();
  for (const auto& m : methods)
    panels.push_back({{"title", m.name},
                      {"csv", "rules.csv"},
                      {"where", {{"method", m.name}}},
                      {"x", "true"},
                      {"y", "estimated"},
                      {"diagonal", true},
                      {"xlim", {0.4, 1.0}},
                      {"ylim", {0.4, 1.02}},
                      {"xlabel", "true class probability"},
                      {"ylabel", "estimated"}});
  nlohmann::json spec = {{"figures",
                          {{{"file", "fig6_fig11_estimated_vs_true.png"},
                            {"title", "Best rule per artificial data set: estimate vs true probability"},
                            {"columns", 4},
                            {"panels", panels}},
                           {{"file", "fig1_relative_frequency.png"}, {"panels", {panels[0]}}},
                           {{"file", "fig11_evc.png"}, {"panels", {panels[evc_method]}}}}}};
  draw_plots(spec, options.out, options.plots);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nwritten to " << options.out << " in " << format_number(secs, 1) << " s\n";
}

}  // namespace candor
