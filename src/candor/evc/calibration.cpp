#include "candor/evc/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "candor/coverage/coverage_index.hpp"
#include "candor/evc/general.hpp"
#include "candor/quality/quality.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

const GumbelLaw& EvcCalibration::law(int klass, int length) const {
  if (klass < 0 || static_cast<std::size_t>(klass) >= laws.size() || laws[klass].empty())
    throw std::out_of_range("EVC: class " + std::to_string(klass) + " was not calibrated");
  const auto& by_length = laws[klass];
  const std::size_t i = static_cast<std::size_t>(std::clamp(length, 1, static_cast<int>(by_length.size())) - 1);
  return by_length[i];
}

std::vector<GumbelLaw> fit_length_laws(const std::vector<std::vector<double>>& maxima, GumbelFit fit,
                                       std::vector<double>* means) {
  if (maxima.empty()) throw std::invalid_argument("EVC: no permutations to fit");
  const std::size_t lengths = maxima.front().size();
  std::vector<GumbelLaw> laws;
  if (means) means->clear();
  std::vector<double> column(maxima.size());
  for (std::size_t l = 0; l < lengths; ++l) {
    double mean = 0;
    for (std::size_t p = 0; p < maxima.size(); ++p) {
      column[p] = maxima[p][l];
      mean += column[p];
    }
    mean /= static_cast<double>(maxima.size());
    GumbelLaw law = fit_gumbel(column, fit);
    if (!laws.empty()) law.mu = std::max(law.mu, laws.back().mu);
    laws.push_back(law);
    if (means) means->push_back(mean);
  }
  return laws;
}

EvcCalibration calibrate_evc(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                             const std::vector<int>& classes_in, int threads) {
  if (settings.permutations < 1) throw std::invalid_argument("EVC needs at least one permutation");
  std::vector<int> classes = classes_in;
  if (classes.empty())
    for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) classes.push_back(c);
  const std::size_t lengths = static_cast<std::size_t>(std::max(1, search.max_rule_length));
  auto lrs = make_quality("lrs");
  SearchOptions options = search;
  options.alpha = options.parent_alpha = 1.0;  // significance only decides which rule is returned
  options.threads = 1;                          // parallel across permutations instead

  // maxima[c][p][L - 1]
  std::vector<std::vector<std::vector<double>>> maxima(
      classes.size(), std::vector<std::vector<double>>(static_cast<std::size_t>(settings.permutations)));
  // Rows without a label stay where they are; only the labels of labelled rows are shuffled among them.
  std::vector<std::size_t> labelled;
  for (std::size_t r = 0; r < data.rows(); ++r)
    if (data.y[r] != kMissing) labelled.push_back(r);

  parallel_for(static_cast<std::size_t>(settings.permutations), threads, [&](std::size_t p) {
    Rng rng(stream_seed(settings.seed, p));
    Dataset permuted = data;
    std::vector<int> labels;
    labels.reserve(labelled.size());
    for (std::size_t r : labelled) labels.push_back(data.y[r]);
    shuffle(labels, rng);
    for (std::size_t i = 0; i < labelled.size(); ++i) permuted.y[labelled[i]] = labels[i];
    CoverageIndex index(permuted);
    Bitset all(permuted.rows(), true);
    std::vector<double> level_max;
    SearchOptions o = options;
    o.level_maxima = &level_max;
    for (std::size_t ci = 0; ci < classes.size(); ++ci) {
      find_best_rule(index, all, classes[ci], *lrs, o);
      std::vector<double>& row = maxima[ci][p];
      row.assign(lengths, 0.0);
      double running = 0.0;  // LRS is never negative; lengths never reached keep the best shorter rule
      for (std::size_t l = 0; l < lengths; ++l) {
        if (l < level_max.size() && std::isfinite(level_max[l])) running = std::max(running, level_max[l]);
        row[l] = running;
      }
    }
  });

  EvcCalibration out;
  out.settings = settings;
  out.laws.resize(data.num_classes());
  out.mean_maxima.resize(data.num_classes());
  for (std::size_t ci = 0; ci < classes.size(); ++ci)
    out.laws[classes[ci]] = fit_length_laws(maxima[ci], settings.fit, &out.mean_maxima[classes[ci]]);
  return out;
}

nlohmann::json calibration_to_json(const EvcCalibration& c, const std::vector<std::string>& class_names) {
  nlohmann::json laws = nlohmann::json::object();
  for (std::size_t k = 0; k < c.laws.size(); ++k) {
    if (c.laws[k].empty()) continue;
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t l = 0; l < c.laws[k].size(); ++l)
      rows.push_back({{"length", l + 1},
                      {"mu", c.laws[k][l].mu},
                      {"beta", c.laws[k][l].beta},
                      {"mean_max_lrs", l < c.mean_maxima[k].size() ? c.mean_maxima[k][l] : 0.0}});
    laws[class_names.at(k)] = rows;
  }
  return {{"permutations", c.settings.permutations},
          {"fit", gumbel_fit_name(c.settings.fit)},
          {"seed", c.settings.seed},
          {"laws", laws}};
}

EvcCalibration calibration_from_json(const nlohmann::json& j, const std::vector<std::string>& class_names) {
  EvcCalibration c;
  c.settings.permutations = j.at("permutations").get<int>();
  c.settings.fit = parse_gumbel_fit(j.at("fit").get<std::string>());
  c.settings.seed = j.at("seed").get<std::uint64_t>();
  c.laws.resize(class_names.size());
  c.mean_maxima.resize(class_names.size());
  for (auto it = j.at("laws").begin(); it != j.at("laws").end(); ++it) {
    auto pos = std::find(class_names.begin(), class_names.end(), it.key());
    if (pos == class_names.end()) throw std::invalid_argument("EVC calibration names unknown class '" + it.key() + "'");
    const std::size_t k = static_cast<std::size_t>(pos - class_names.begin());
    for (const auto& row : it.value()) {
      if (row.at("length").get<std::size_t>() != c.laws[k].size() + 1)
        throw std::invalid_argument("EVC calibration lengths must run 1, 2, ...");
      GumbelLaw law{row.at("mu").get<double>(), row.at("beta").get<double>()};
      if (!(law.beta > 0) || !std::isfinite(law.mu)) throw std::invalid_argument("EVC law needs finite mu and beta > 0");
      c.laws[k].push_back(law);
      c.mean_maxima[k].push_back(row.value("mean_max_lrs", 0.0));
    }
  }
  return c;
}

}  // namespace candor
