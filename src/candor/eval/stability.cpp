#include "candor/eval/stability.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "candor/coverage/condition.hpp"
#include "candor/data/quantiles.hpp"
#include "candor/data/resampling.hpp"
#include "candor/learn/fit.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/progress.hpp"
#include "candor/util/random.hpp"

namespace candor {

StabilityResampling parse_stability_resampling(const std::string& name) {
  return parse_named(kStabilityResamplingNames, "resampling", name);
}

const char* stability_resampling_name(StabilityResampling r) { return name_of(kStabilityResamplingNames, r); }

namespace {

std::string key_of(const RuleShape& shape, const std::vector<std::vector<double>>& grid) {
  // Per attribute the tightest snapped bound on each side; nominal tests as they are.
  std::map<std::tuple<int, int, int>, double> bounds;  // (attribute, op, value) -> threshold
  for (const Condition& c : shape.conditions) {
    const std::tuple<int, int, int> at{c.attribute, static_cast<int>(c.op),
                                       c.op == Op::le || c.op == Op::gt ? 0 : c.value};
    if (c.op != Op::le && c.op != Op::gt) {
      bounds[at] = 0;
      continue;
    }
    const double t = snap_to_grid(c.threshold, grid[static_cast<std::size_t>(c.attribute)]);
    const auto found = bounds.find(at);
    if (found == bounds.end())
      bounds[at] = t;
    else
      found->second = c.op == Op::le ? std::min(found->second, t) : std::max(found->second, t);
  }
  std::string key;
  for (const auto& [at, t] : bounds) {
    const auto [attribute, op, value] = at;
    key +=
        std::to_string(attribute) + op_symbol(static_cast<Op>(op)) +
        (op == static_cast<int>(Op::le) || op == static_cast<int>(Op::gt) ? format_number(t) : std::to_string(value)) +
        ";";
  }
  std::vector<int> missing = shape.missing;
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  for (int a : missing) key += std::to_string(a) + "=?;";
  return key + "=>" + std::to_string(shape.klass);
}

std::vector<std::string> sorted_unique(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace

double rule_set_overlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() && b.empty()) return 1;
  std::size_t common = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j)
      ++i;
    else if (*j < *i)
      ++j;
    else {
      ++common;
      ++i;
      ++j;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(a.size() + b.size());
}

std::vector<std::string> rule_keys(const Model& model, const std::vector<std::vector<double>>& grid) {
  std::vector<std::string> out;
  for (const auto& shape : model.rule_shapes()) out.push_back(key_of(shape, grid));
  return out;
}

StabilityResult measure_stability(const Dataset& data, const LearnerParams& params, const StabilityOptions& options,
                                  const Model* fitted) {
  if (options.resamples < 2) throw std::invalid_argument("stability needs at least 2 resamples");
  if (options.quantiles < 2) throw std::invalid_argument("stability needs at least 2 quantiles");
  const std::size_t n = data.rows(), b_count = static_cast<std::size_t>(options.resamples);
  const auto grid = quantile_grid(data, options.quantiles);

  // The resamples' rows, drawn in order from one seeded stream: the same on any thread count. Folds are
  // stratified over the labelled rows; rows without a label are in every training set (no fit reads them).
  Rng rng(options.seed);
  std::vector<std::vector<std::size_t>> samples(b_count);
  if (options.resampling == StabilityResampling::folds) {
    std::vector<std::size_t> labelled;
    std::vector<int> labels;
    for (std::size_t r = 0; r < n; ++r)
      if (data.y[r] != kMissing) {
        labelled.push_back(r);
        labels.push_back(data.y[r]);
      }
    const auto folds = stratified_folds(labels, options.resamples, options.seed);
    for (std::size_t b = 0; b < b_count; ++b) {
      std::vector<std::size_t> held;
      for (std::size_t i : folds[b]) held.push_back(labelled[i]);
      samples[b] = rows_not_in(n, held);
    }
  } else {
    for (auto& rows : samples)
      rows =
          options.resampling == StabilityResampling::bootstrap ? bootstrap_rows(n, rng) : half_subsample_rows(n, rng);
  }

  std::vector<std::vector<std::string>> keys(b_count);
  std::vector<std::vector<std::vector<double>>> proba(b_count);
  std::vector<std::string> full_keys;
  if (fitted) full_keys = rule_keys(*fitted, grid);
  Progress progress("stability", "fits", b_count + (fitted ? 0 : 1), true);
  parallel_for(b_count + (fitted ? 0 : 1), options.threads, [&](std::size_t b) {
    if (b == b_count) {
      full_keys = rule_keys(*fit_model(data, params, 1), grid);
      progress.step();
      return;
    }
    const Dataset sample = data.subset(samples[b]);
    const auto model = fit_model(sample, params, 1);
    keys[b] = sorted_unique(rule_keys(*model, grid));
    proba[b].resize(n);
    for (std::size_t r = 0; r < n; ++r) proba[b][r] = model->predict_proba(data, r);
    progress.step();
  });

  StabilityResult out;
  out.resamples = options.resamples;
  out.resampling = stability_resampling_name(options.resampling);
  out.quantiles = options.quantiles;
  std::vector<double> pairs;
  for (std::size_t i = 0; i < b_count; ++i)
    for (std::size_t j = i + 1; j < b_count; ++j) pairs.push_back(rule_set_overlap(keys[i], keys[j]));
  double sum = 0;
  for (double d : pairs) sum += d;
  out.rule_set_stability = sum / static_cast<double>(pairs.size());
  double squares = 0;
  for (double d : pairs) squares += (d - out.rule_set_stability) * (d - out.rule_set_stability);
  out.rule_set_stability_sd = pairs.size() > 1 ? std::sqrt(squares / static_cast<double>(pairs.size() - 1)) : 0;

  const std::size_t classes = data.num_classes();
  const double pair_count = static_cast<double>(b_count * (b_count - 1) / 2);
  double agreement = 0, spread = 0;
  for (std::size_t r = 0; r < n; ++r) {
    std::vector<double> votes(classes, 0);
    for (std::size_t b = 0; b < b_count; ++b) {
      const auto& p = proba[b][r];
      votes[static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin())] += 1;
    }
    double same = 0;
    for (double v : votes) same += v * (v - 1) / 2;
    agreement += same / pair_count;
    double row_spread = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      double mean = 0;
      for (std::size_t b = 0; b < b_count; ++b) mean += proba[b][r][c];
      mean /= static_cast<double>(b_count);
      double var = 0;
      for (std::size_t b = 0; b < b_count; ++b) var += (proba[b][r][c] - mean) * (proba[b][r][c] - mean);
      row_spread += std::sqrt(var / static_cast<double>(b_count));
    }
    spread += row_spread / static_cast<double>(classes);
  }
  out.prediction_agreement = n ? agreement / static_cast<double>(n) : 1;
  out.probability_spread = n ? spread / static_cast<double>(n) : 0;

  double rules = 0;
  for (const auto& k : keys) rules += static_cast<double>(k.size());
  out.mean_rules = rules / static_cast<double>(b_count);
  for (const auto& key : full_keys) {
    double found = 0;
    for (const auto& k : keys) found += std::binary_search(k.begin(), k.end(), key) ? 1 : 0;
    out.rule_frequency.push_back(found / static_cast<double>(b_count));
  }
  return out;
}

StabilityRecord measure_stability(const Dataset& data, const Learner& learner, const StabilityOptions& options) {
  return measure_stability(data, learner.params(), options);
}

}  // namespace candor
