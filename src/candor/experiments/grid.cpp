#include "candor/experiments/grid.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "candor/data.hpp"
#include "candor/data/json_input.hpp"
#include "candor/data/table.hpp"
#include "candor/errors.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/eval/stability.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/experiments/experiment.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/experiments/report.hpp"
#include "candor/experiments/weka.hpp"
#include "candor/stats/comparison.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

namespace fs = std::filesystem;

std::string Resampling::describe() const {
  std::ostringstream s;
  if (kind == "cv")
    s << folds << "-fold stratified cross-validation" << (repeats > 1 ? " x " + std::to_string(repeats) : "");
  else if (kind == "holdout")
    s << repeats << " x stratified holdout, " << test_fraction << " for testing";
  else
    s << "train/test pairs";
  if (kind != "train-test" && evc_calibration == FoldCalibration::shared)
    s << "; EVC calibrated once per data set (evc_calibration shared)";
  return s.str();
}

namespace {

const std::vector<std::string> kColumns{"dataset",
                                        "learner",
                                        "repeat",
                                        "fold",
                                        "train_rows",
                                        "test_rows",
                                        "accuracy",
                                        "auc",
                                        "brier",
                                        "log_loss",
                                        "ece",
                                        "rule_rmse",
                                        "rules",
                                        "conditions",
                                        "mean_rule_length",
                                        "fit_seconds",
                                        "predict_seconds",
                                        "adjusted_accuracy",
                                        "undecided_rate",
                                        "adjusted_average_reliability",
                                        "ece_floor"};
// Results files written before the last columns existed (17 columns before PrIL's three, 20 before
// ece_floor): read, and rewritten with the missing columns empty.
const std::size_t kOldColumnCounts[] = {17, 20};
// DIR/stability.csv: one line per stability cell (eval/stability.hpp's figures; mean_rules over the
// resamples; fit_seconds of the cell's resample fits and measurement).
const std::vector<std::string> kStabilityColumns{"dataset",
                                                 "learner",
                                                 "resamples",
                                                 "resampling",
                                                 "quantiles",
                                                 "rule_set_stability",
                                                 "rule_set_stability_sd",
                                                 "prediction_agreement",
                                                 "probability_spread",
                                                 "mean_rules",
                                                 "fit_seconds"};

void check_resampling(const Resampling& r) {
  if (r.kind != "cv" && r.kind != "holdout" && r.kind != "train-test")
    throw std::invalid_argument(unknown_name_message("resampling", r.kind, {"cv", "holdout", "train-test"}));
  if (r.kind == "cv" && r.folds < 2) throw std::invalid_argument("cross-validation needs at least 2 folds");
  if (r.repeats < 1) throw std::invalid_argument("repeats must be at least 1");
  if (r.kind == "holdout" && !(r.test_fraction > 0 && r.test_fraction < 1))
    throw std::invalid_argument("the holdout test fraction must lie in (0, 1)");
}

nlohmann::json resampling_json(const Resampling& r) {
  nlohmann::json j = {{"kind", r.kind}, {"folds", r.folds}, {"repeats", r.repeats}, {"test_fraction", r.test_fraction}};
  // Written only when shared, so that folders of grids run before the key existed still resume.
  if (r.evc_calibration == FoldCalibration::shared)
    j["evc_calibration"] = name_of(kFoldCalibrationNames, r.evc_calibration);
  return j;
}

}  // namespace

// A data set of the grid: its data and the rows of every (repeat, fold) split.
struct GridData {
  std::string name;
  Dataset train;                // the whole data set; for train-test the training file
  std::optional<Dataset> test;  // train-test only
  std::vector<std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>>> splits;  // [repeat][fold]
};

namespace {

std::string resolve_path(const std::string& name, const std::string& datasets_dir) {
  const std::string ext = fs::path(name).extension().string();
  if (ext == ".arff" || ext == ".csv" || ext == ".tsv" || name.find('/') != std::string::npos) return name;
  return datasets_dir + "/" + name + ".arff";
}

GridData load_grid_data(const std::string& name, const GridSpec& grid, const std::string& datasets_dir) {
  GridData g;
  g.name = name;
  const Resampling& r = grid.resampling;
  const auto colon = name.find(':');
  if (r.kind == "train-test") {
    if (colon == std::string::npos)
      throw std::invalid_argument("train-test resampling needs data sets given as TRAIN:TEST, not '" + name + "'");
    g.train = load_dataset(resolve_path(name.substr(0, colon), datasets_dir));
    LoadOptions lo;
    lo.schema = &g.train.schema;
    g.test = load_dataset(resolve_path(name.substr(colon + 1), datasets_dir), lo);
    g.splits = {{{{}, {}}}};
    return g;
  }
  if (colon != std::string::npos)
    throw std::invalid_argument("'" + name + "' is a TRAIN:TEST pair; use resampling train-test");
  const std::string path = resolve_path(name, datasets_dir);
  g.train = load_dataset(path);
  for (int rep = 0; rep < r.repeats; ++rep) {
    const std::uint64_t seed = grid.seed + static_cast<std::uint64_t>(rep);
    std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> folds;
    if (r.kind == "cv") {
      if (static_cast<std::size_t>(r.folds) > g.train.rows())
        throw InputError(
            path, 0,
            "cannot make " + std::to_string(r.folds) + " folds of " + std::to_string(g.train.rows()) + " rows");
      for (auto& test_rows : stratified_folds(g.train.y, r.folds, seed))
        folds.emplace_back(rows_not_in(g.train.rows(), test_rows), std::move(test_rows));
    } else {
      folds.push_back(stratified_holdout(g.train.y, r.test_fraction, seed));
    }
    g.splits.push_back(std::move(folds));
  }
  return g;
}

using CellKey = std::tuple<std::string, std::string, int, int>;  // data set, learner, repeat, fold

std::string number(double x) {
  if (std::isnan(x)) return "";
  std::ostringstream s;
  s.precision(10);
  s << x;
  return s.str();
}

// A training statistic of the fold's model, NaN when the model has none.
double training_statistic(const FoldResult& r, const std::string& name) {
  for (const auto& [key, value] : r.training_statistics)
    if (key == name) return value;
  return NAN;
}

// A results file's text without a last line left incomplete by an interruption (the file is rewritten
// without it).
std::string complete_lines(const std::string& path) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  const auto last_newline = text.rfind('\n');
  const std::size_t keep = last_newline == std::string::npos ? 0 : last_newline + 1;
  if (keep != text.size()) {
    std::cerr << path << ": dropping an incomplete last line left by an interrupted run\n";
    text.resize(keep);
    write_file_atomic(path, text);
  }
  return text;
}

// The lines of stability.csv after its header, each with its line number, checked for the file's columns
// (none for a file not yet started); cuts off a last line left incomplete by an interruption.
std::vector<std::pair<std::size_t, std::vector<detail::CsvCell>>> read_stability_lines(const std::string& path) {
  std::vector<std::pair<std::size_t, std::vector<detail::CsvCell>>> out;
  if (!fs::exists(path)) return out;
  std::istringstream in(complete_lines(path));
  std::string raw;
  for (std::size_t line = 1; std::getline(in, raw); ++line) {
    auto cells = detail::split_csv_line(raw, ',', path, line);
    if (line == 1) {
      std::vector<std::string> header;
      for (auto& c : cells) header.push_back(c.text);
      if (header != kStabilityColumns)
        throw InputError(path, 1, "not a stability file of `candor experiment grid` (unexpected columns)");
      continue;
    }
    if (cells.size() != kStabilityColumns.size())
      throw InputError(path, line, "expected " + std::to_string(kStabilityColumns.size()) + " values");
    out.emplace_back(line, std::move(cells));
  }
  return out;
}

// The (data set, learner) pairs already in stability.csv.
std::set<std::pair<std::string, std::string>> completed_stability_cells(const std::string& path) {
  std::set<std::pair<std::string, std::string>> done;
  for (const auto& [line, cells] : read_stability_lines(path)) done.insert({cells[0].text, cells[1].text});
  return done;
}

// Reads the cells already in results.csv; cuts off a last line left incomplete by an interruption.
std::set<CellKey> completed_cells(const std::string& path) {
  std::set<CellKey> done;
  if (!fs::exists(path)) return done;
  std::string text = complete_lines(path);
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    auto cells = detail::split_csv_line(raw, ',', path, line);
    if (line == 1) {
      std::vector<std::string> header;
      for (auto& c : cells) header.push_back(c.text);
      const auto old_count = std::find_if(std::begin(kOldColumnCounts), std::end(kOldColumnCounts), [&](std::size_t n) {
        return header == std::vector<std::string>(kColumns.begin(), kColumns.begin() + static_cast<std::ptrdiff_t>(n));
      });
      if (old_count != std::end(kOldColumnCounts)) {
        // An older results file: add the new columns, empty, and read it again.
        std::ostringstream migrated;
        std::istringstream old(text);
        std::string old_line;
        for (std::size_t n = 0; std::getline(old, old_line); ++n) {
          if (n == 0) {
            for (std::size_t i = 0; i < kColumns.size(); ++i) migrated << (i ? "," : "") << kColumns[i];
            migrated << "\n";
          } else {
            // A file rewritten by a tool that ends lines with CR LF (Python's csv module does) keeps its CR
            // out of the last old value.
            if (!old_line.empty() && old_line.back() == '\r') old_line.pop_back();
            migrated << old_line << std::string(kColumns.size() - *old_count, ',') << "\n";
          }
        }
        write_file_atomic(path, migrated.str());
        return completed_cells(path);
      }
      if (header != kColumns)
        throw InputError(path, 1, "not a results file of `candor experiment grid` (unexpected columns)");
      continue;
    }
    if (cells.size() != kColumns.size())
      throw InputError(path, line, "expected " + std::to_string(kColumns.size()) + " values");
    double repeat = 0, fold = 0;
    if (!detail::parse_number(cells[2].text, repeat) || !detail::parse_number(cells[3].text, fold))
      throw InputError(path, line, "repeat and fold must be numbers");
    done.insert({cells[0].text, cells[1].text, static_cast<int>(repeat), static_cast<int>(fold)});
  }
  return done;
}

// DIR/grid.json records the learner definitions, resampling and seed behind results.csv, so that a rerun
// never mixes results of different grids under the same names.
nlohmann::json learner_definition(const GridLearner& l) {
  return l.weka.empty() ? params_to_json(l.params) : nlohmann::json{{"weka", l.weka.text()}};
}

nlohmann::json stability_settings_json(const GridStability& s) {
  return {
      {"resamples", s.resamples}, {"resampling", stability_resampling_name(s.resampling)}, {"quantiles", s.quantiles}};
}

// The state file DIR/grid.json checked as the untrusted input it is (a hand edit, another program's file):
// an object whose seed, resampling and learners have the shapes written below, errors naming the pointer.
nlohmann::json read_grid_state(const std::string& path) {
  nlohmann::json stored = read_json_file(path);
  auto fail = [&](const std::string& pointer, const std::string& reason) -> void {
    throw InputError(path, 0,
                     "at " + pointer + ": " + reason +
                         " (not a grid state written by candor; remove it "
                         "with the folder's results.csv to start over)");
  };
  if (!stored.is_object()) fail("/", "must be a JSON object");
  for (const auto& [key, value] : stored.items()) {
    if (key == "seed") {
      if (!value.is_number_unsigned()) fail("/seed", "must be a non-negative integer");
    } else if (key == "resampling" || key == "learners" || key == "stability") {
      if (!value.is_object()) fail("/" + key, "must be an object");
    } else {
      fail("/" + json_pointer_token(key), "unknown key (known: seed, resampling, learners, stability)");
    }
  }
  return stored;
}

void check_and_record_grid(const GridSpec& grid, const std::string& out) {
  const std::string path = out + "/grid.json";
  nlohmann::json stored = nlohmann::json::object();
  if (fs::exists(path)) {
    stored = read_grid_state(path);
    const std::string hint = "; use another --out, or remove " + out + "/results.csv to start over";
    if (stored.contains("seed") && stored["seed"].get<std::uint64_t>() != grid.seed)
      throw std::invalid_argument(out + " holds results with seed " + stored["seed"].dump() + hint);
    if (stored.contains("resampling") && stored["resampling"] != resampling_json(grid.resampling))
      throw std::invalid_argument(out + " holds results of another resampling (" + stored["resampling"].dump() + ")" +
                                  hint);
    // Grids without stability cells record none, and may gain them later.
    if (grid.stability.resamples > 0 && stored.contains("stability") && fs::exists(out + "/stability.csv") &&
        stored["stability"] != stability_settings_json(grid.stability))
      throw std::invalid_argument(out + " holds stability cells of other settings (" + stored["stability"].dump() +
                                  "); use another --out, or remove " + out + "/stability.csv to start over");
    for (const auto& l : grid.learners)
      if (stored.contains("learners") && stored["learners"].contains(l.name) &&
          stored["learners"][l.name] != learner_definition(l))
        throw std::invalid_argument(out + " holds results of another learner named '" + l.name + "' (" +
                                    stored["learners"][l.name].dump() + ")" + hint);
  }
  stored["seed"] = grid.seed;
  stored["resampling"] = resampling_json(grid.resampling);
  if (grid.stability.resamples > 0) stored["stability"] = stability_settings_json(grid.stability);
  for (const auto& l : grid.learners) stored["learners"][l.name] = learner_definition(l);
  write_file_atomic(path, stored.dump(2) + "\n");
}

// The stability cells' means per learner over the data sets it has lines for: DIR/stability_means.{csv,md}
// and the section of summary.md that shows them.
std::string stability_summary(const GridSpec& grid, const GridRunOptions& o) {
  const std::string path = o.out + "/stability.csv";
  std::map<std::string, std::vector<std::vector<double>>> by_learner;  // learner -> per data set: the 4 figures
  for (const auto& [line, cells] : read_stability_lines(path)) {
    std::vector<double> figures;
    for (std::size_t c : {5, 7, 8, 9}) {
      double x = 0;
      if (!detail::parse_number(cells[c].text, x))
        throw InputError(path, line, kStabilityColumns[c] + " must be a number, not '" + cells[c].text + "'");
      figures.push_back(x);
    }
    by_learner[cells[1].text].push_back(figures);
  }
  Table means{
      {"learner", "data sets", "rule_set_stability", "prediction_agreement", "probability_spread", "mean_rules"}, {}};
  for (const auto& l : grid.learners) {
    const auto it = by_learner.find(l.name);
    if (it == by_learner.end()) continue;
    std::vector<std::string> row{l.name, std::to_string(it->second.size())};
    for (std::size_t k = 0; k < 4; ++k) {
      double sum = 0;
      for (const auto& figures : it->second) sum += figures[k];
      row.push_back(format_number(sum / static_cast<double>(it->second.size()), k == 3 ? 1 : 3));
    }
    means.add(row);
  }
  write_table(means, o.out, "stability_means", "stability: mean per learner over its data sets");
  std::ostringstream md;
  md << "## Stability\n\n"
     << grid.stability.resamples << " " << stability_resampling_name(grid.stability.resampling)
     << " resamples of each whole data set, thresholds snapped to " << grid.stability.quantiles
     << "-quantiles (per data set: stability.csv; definitions: docs/guide-cli.md, \"Stability\"). Means over the "
        "data sets:\n\n"
     << markdown(means) << "\n";
  return md.str();
}

void write_summary(const GridSpec& grid, const GridRunOptions& o, const std::string& results_path) {
  std::vector<std::string> learners, datasets;
  for (const auto& l : grid.learners) learners.push_back(l.name);
  datasets = grid.datasets;
  std::ostringstream md;
  md << "# Experiment grid\n\n- resampling: " << grid.resampling.describe() << ", seed " << grid.seed
     << "\n- learners:";
  for (const auto& l : grid.learners) md << " `" << l.name << "` (" << l.options << ");";
  md << "\n- data sets: " << datasets.size() << "\n\n";
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& metric : grid.metrics) {
    const auto higher = metric_higher_is_better(metric);
    if (!higher) throw std::invalid_argument("grid metric '" + metric + "' is not one candor measures");
    ResultsMatrix m = read_results(results_path, metric, learners, datasets);
    Table means;
    means.columns = {"dataset"};
    for (const auto& l : learners) means.columns.push_back(l);
    for (std::size_t d = 0; d < m.datasets.size(); ++d) {
      std::vector<std::string> row{m.datasets[d]};
      for (double x : m.scores[d]) row.push_back(format_number(x, 4));
      means.add(row);
    }
    if (m.datasets.size() < 2) {
      md << "## " << metric << "\n\nNot compared: " << m.datasets.size()
         << " data sets where every learner has a value (two needed).\n\n";
      write_table(means, o.out, "means_" + metric, metric + ": mean per data set");
      continue;
    }
    const Comparison c = compare_learners(m, *higher, grid.alpha, grid.control);
    std::vector<std::string> avg{"mean"}, rank{"average rank"};
    for (std::size_t l = 0; l < learners.size(); ++l) {
      avg.push_back(format_number(c.mean_scores[l], 4));
      rank.push_back(format_number(c.average_ranks[l], 3));
    }
    means.add(avg);
    means.add(rank);
    write_table(means, o.out, "means_" + metric, metric + ": mean per data set, average rank");
    write_file_atomic(o.out + "/comparison_" + metric + ".json", comparison_json(c).dump(2) + "\n");
    md << comparison_markdown(c, metric) << "\n![CD diagram](cd_" << metric << ".png)\n\n";
    figures.push_back(
        cd_figure(c, "cd_" + metric + ".png", metric + " (" + std::to_string(c.datasets.size()) + " data sets)"));
  }
  if (grid.stability.resamples > 0) md << stability_summary(grid, o);
  write_file_atomic(o.out + "/summary.md", md.str());
  draw_plots({{"figures", figures}}, o.out, o.plots);
}

}  // namespace

GridLearner make_grid_learner(const std::string& name, const std::string& options) {
  GridLearner l;
  l.name = name;
  l.options = options;
  if (options.rfind("weka:", 0) == 0) {
    try {
      l.weka = parse_weka_classifier(options.substr(5));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("learner '" + name + "': " + e.what());
    }
    return l;
  }
  try {
    l.params = parse_learner_options(l.options);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("learner '" + l.name + "': " + e.what());
  }
  return l;
}

GridLearner grid_learner_from_argument(const std::string& argument) {
  const auto eq = argument.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument("a grid learner is NAME=OPTIONS (e.g. 'evc=--quality evc'), not '" + argument + "'");
  return make_grid_learner(argument.substr(0, eq), argument.substr(eq + 1));
}

namespace {

// A value of a grid config, read with its JSON pointer in every error.
struct GridValue {
  const nlohmann::ordered_json& j;
  std::string pointer;

  [[noreturn]] void fail(const std::string& reason) const {
    throw std::invalid_argument("at " + (pointer.empty() ? std::string("/") : pointer) + ": " + reason);
  }
  GridValue at(const std::string& key, const nlohmann::ordered_json& value) const {
    return {value, pointer + "/" + json_pointer_token(key)};
  }
  std::string string() const {
    if (!j.is_string()) fail("must be a string, not " + j.dump().substr(0, 40));
    return j.get<std::string>();
  }
  std::vector<std::string> strings() const {
    if (!j.is_array()) fail("must be a list of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(GridValue{j[i], pointer + "/" + std::to_string(i)}.string());
    return out;
  }
  // One of a table's names (util/names.hpp), as the enum it names.
  template <class E, std::size_t N>
  E named(const Named<E> (&table)[N], const std::string& what) const {
    try {
      return parse_named(table, what, string());
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
  long long integer(long long lo, long long hi) const {
    try {
      return json_integer(j, "the value", lo, hi);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
  double number(double lo, double hi) const {
    if (!j.is_number() || !std::isfinite(j.get<double>()) || j.get<double>() <= lo || j.get<double>() >= hi)
      fail("must be a number in (" + format_number(lo, 0) + ", " + format_number(hi, 0) + "), not " +
           j.dump().substr(0, 40));
    return j.get<double>();
  }
};

}  // namespace

GridSpec grid_from_json(const nlohmann::ordered_json& j, const std::string& source) {
  GridSpec g;
  const GridValue root{j, ""};
  try {
    if (!j.is_object()) root.fail("a grid is a JSON object");
    for (const auto& [key, value] : j.items()) {
      const GridValue v = root.at(key, value);
      if (key == "learners") {
        if (!value.is_object()) v.fail("'learners' maps names to options");
        for (const auto& [name, def] : value.items()) {
          const GridValue d = v.at(name, def);
          if (!def.is_string() && !def.is_object())
            d.fail("learner '" + name + "' must be a string of options or an object of parameters");
          try {
            if (def.is_string()) {
              g.learners.push_back(make_grid_learner(name, def.get<std::string>()));
            } else {
              GridLearner l;
              l.name = name;
              l.options = def.dump();
              l.params = params_from_json(nlohmann::json::parse(def.dump()));
              validate(l.params);
              g.learners.push_back(std::move(l));
            }
          } catch (const nlohmann::json::exception& e) {
            d.fail(json_exception_reason(e));
          } catch (const std::invalid_argument& e) {
            d.fail(e.what());
          }
        }
      } else if (key == "datasets") {
        g.datasets = v.strings();
      } else if (key == "resampling") {
        if (!value.is_object())
          v.fail("'resampling' is an object {kind, folds, repeats, test_fraction, evc_calibration}");
        for (const auto& [rk, rv] : value.items()) {
          const GridValue r = v.at(rk, rv);
          if (rk == "kind")
            g.resampling.kind = r.string();
          else if (rk == "folds")
            g.resampling.folds = static_cast<int>(r.integer(2, 1000000));
          else if (rk == "repeats")
            g.resampling.repeats = static_cast<int>(r.integer(1, 1000000));
          else if (rk == "test_fraction")
            g.resampling.test_fraction = r.number(0, 1);
          else if (rk == "evc_calibration")
            g.resampling.evc_calibration = r.named(kFoldCalibrationNames, "EVC calibration");
          else
            r.fail("unknown resampling key '" + rk + "' (known: kind, folds, repeats, test_fraction, evc_calibration)");
        }
        try {
          check_resampling(g.resampling);
        } catch (const std::invalid_argument& e) {
          v.fail(e.what());
        }
      } else if (key == "seed") {
        g.seed = static_cast<std::uint64_t>(v.integer(0, std::numeric_limits<long long>::max()));
      } else if (key == "metrics") {
        g.metrics = v.strings();
      } else if (key == "control") {
        g.control = v.string();
      } else if (key == "alpha") {
        g.alpha = v.number(0, 1);
      } else if (key == "stability") {
        if (!value.is_object()) v.fail("'stability' is an object {resamples, resampling, quantiles}");
        for (const auto& [sk, sv] : value.items()) {
          const GridValue s = v.at(sk, sv);
          if (sk == "resamples") {
            g.stability.resamples = static_cast<int>(s.integer(0, 100000));
            if (g.stability.resamples == 1) s.fail("stability needs at least 2 resamples (0: none)");
          } else if (sk == "resampling") {
            g.stability.resampling = s.named(kStabilityResamplingNames, "resampling");
          } else if (sk == "quantiles") {
            g.stability.quantiles = static_cast<int>(s.integer(2, 1000000));
          } else {
            s.fail("unknown stability key '" + sk + "' (known: resamples, resampling, quantiles)");
          }
        }
      } else {
        v.fail("unknown key '" + key +
               "' (known: learners, datasets, resampling, seed, metrics, control, alpha, stability)");
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, 0, "bad value: " + json_exception_reason(e));
  } catch (const std::invalid_argument& e) {
    throw InputError(source, 0, e.what());
  }
  return g;
}

void run_grid_experiment(const ExperimentOptions& o) {
  GridSpec grid;
  if (!o.config.empty()) {
    const nlohmann::ordered_json j = read_ordered_json_file(o.config);
    grid = grid_from_json(j, o.config);
  }
  if (!o.datasets.empty()) grid.datasets = o.datasets;
  for (const auto& arg : o.learners) grid.learners.push_back(grid_learner_from_argument(arg));
  if (o.resampling) grid.resampling.kind = *o.resampling;
  if (o.folds) grid.resampling.folds = *o.folds;
  if (o.repeats) grid.resampling.repeats = *o.repeats;
  if (o.test_fraction) grid.resampling.test_fraction = *o.test_fraction;
  if (o.evc_calibration)
    grid.resampling.evc_calibration = parse_named(kFoldCalibrationNames, "EVC calibration", *o.evc_calibration);
  if (o.alpha) grid.alpha = *o.alpha;
  if (o.control) grid.control = *o.control;
  if (!o.metrics.empty()) grid.metrics = o.metrics;
  if (o.seed_given || o.config.empty()) grid.seed = o.seed;
  run_grid(grid, grid_run_options(o));
}

GridRunOptions grid_run_options(const ExperimentOptions& o) {
  GridRunOptions run;
  run.out = o.out;
  run.datasets_dir = o.datasets_dir;
  run.threads = o.threads;
  run.plots = o.plots;
  return run;
}

struct GridCellRunner::State {
  struct Entry {
    std::once_flag once;
    std::unique_ptr<GridData> data;
  };
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<Entry>> loaded;
  std::map<std::string, std::size_t> learner_index;
};

namespace {

// A grid from the text of its JSON (`source` names it in messages).
GridSpec grid_from_text(const std::string& config_json, const std::string& source) {
  return grid_from_json(parse_ordered_json_input(config_json, source), source);
}

}  // namespace

GridCellRunner::GridCellRunner(const std::string& config_json, const std::string& source, std::string datasets_dir)
    : GridCellRunner(grid_from_text(config_json, source), std::move(datasets_dir)) {}

const GridSpec& GridCellRunner::grid() const { return *grid_; }

GridCellRunner::GridCellRunner(GridSpec grid, std::string datasets_dir)
    : grid_(std::make_unique<const GridSpec>(std::move(grid))),
      datasets_dir_(std::move(datasets_dir)),
      state_(std::make_unique<State>()) {
  check_resampling(grid_->resampling);
  if (grid_->learners.empty())
    throw std::invalid_argument("the grid has no learners (--learner NAME=OPTIONS or a config file)");
  if (grid_->datasets.empty()) throw std::invalid_argument("the grid has no data sets (--datasets or a config file)");
  if (!(grid_->alpha > 0 && grid_->alpha < 1))
    throw std::invalid_argument("the significance level alpha must lie in (0, 1)");
  for (std::size_t l = 0; l < grid_->learners.size(); ++l)
    if (!state_->learner_index.emplace(grid_->learners[l].name, l).second)
      throw std::invalid_argument("two grid learners are named '" + grid_->learners[l].name + "'");
  for (const auto& m : grid_->metrics)
    if (!metric_higher_is_better(m) || std::find(kColumns.begin(), kColumns.end(), m) == kColumns.end())
      throw std::invalid_argument("unknown grid metric '" + m + "'");
}

GridCellRunner::~GridCellRunner() = default;

const GridData& GridCellRunner::data(const std::string& dataset) {
  std::shared_ptr<State::Entry> entry;
  {
    std::lock_guard lock(state_->mutex);
    if (std::find(grid_->datasets.begin(), grid_->datasets.end(), dataset) == grid_->datasets.end())
      throw std::invalid_argument("'" + dataset + "' is not a data set of the grid");
    auto& slot = state_->loaded[dataset];
    if (!slot) slot = std::make_shared<State::Entry>();
    entry = slot;
  }
  // Data sets load in parallel; each once.
  std::call_once(entry->once,
                 [&] { entry->data = std::make_unique<GridData>(load_grid_data(dataset, *grid_, datasets_dir_)); });
  return *entry->data;
}

std::vector<GridCell> GridCellRunner::cells() {
  std::vector<GridCell> out;
  for (const auto& name : grid_->datasets) {
    const GridData& g = data(name);
    for (std::size_t r = 0; r < g.splits.size(); ++r)
      for (std::size_t f = 0; f < g.splits[r].size(); ++f)
        for (const auto& l : grid_->learners) out.push_back({name, l.name, static_cast<int>(r), static_cast<int>(f)});
    if (grid_->stability.resamples > 0)
      for (const auto& l : grid_->learners)
        if (l.weka.empty()) out.push_back({name, l.name, 0, 0, true});
  }
  return out;
}

std::size_t GridCellRunner::work(const std::string& dataset) {
  const Dataset& d = data(dataset).train;
  return d.rows() * std::max<std::size_t>(1, d.num_attributes());
}

std::string GridCellRunner::run(const GridCell& c, int threads) {
  const auto learner_at = state_->learner_index.find(c.learner);
  if (learner_at == state_->learner_index.end())
    throw std::invalid_argument("'" + c.learner + "' is not a learner of the grid");
  const GridLearner& learner = grid_->learners[learner_at->second];
  const GridData& g = data(c.dataset);
  if (c.stability) return run_stability(g, learner, threads);
  if (c.repeat < 0 || static_cast<std::size_t>(c.repeat) >= g.splits.size() || c.fold < 0 ||
      static_cast<std::size_t>(c.fold) >= g.splits[c.repeat].size())
    throw std::invalid_argument("the grid has no repeat " + std::to_string(c.repeat) + ", fold " +
                                std::to_string(c.fold) + " of '" + c.dataset + "'");
  FoldResult res;
  std::size_t train_rows, test_rows;
  auto evaluate = [&](const Dataset& train, const Dataset& test) {
    return learner.weka.empty() ? evaluate_split(train, test, learner.params, threads)
                                : evaluate_weka_split(train, test, learner.weka);
  };
  if (g.test) {
    res = evaluate(g.train, *g.test);
    train_rows = g.train.rows();
    test_rows = g.test->rows();
  } else {
    const auto& split = g.splits[c.repeat][c.fold];
    const Dataset train = g.train.subset(split.first);
    FoldCalibrationScope::Clock clock;
    FoldCalibrationScope scope(train, g.train, grid_->resampling.evc_calibration == FoldCalibration::shared, threads,
                               clock);
    res = evaluate(train, g.train.subset(split.second));
    // A shared calibration counts in the fit of the cell that computed it, and only there: the folds' mean
    // fit time carries it once per data set and process (as a calibration shared by learners always did).
    res.fit_seconds += clock.computing.load() - scope.seconds_sharing();
    train_rows = split.first.size();
    test_rows = split.second.size();
  }
  std::ostringstream line;
  line << csv_field(g.name) << "," << csv_field(learner.name) << "," << c.repeat << "," << c.fold << "," << train_rows
       << "," << test_rows << "," << number(res.metrics.accuracy) << "," << number(res.metrics.auc) << ","
       << number(res.metrics.brier) << "," << number(res.metrics.log_loss) << "," << number(res.metrics.ece) << ","
       << number(res.rule_rmse) << "," << res.rules << ","
       << std::llround(static_cast<double>(res.rules) * res.mean_rule_length) << "," << number(res.mean_rule_length)
       << "," << number(res.fit_seconds) << "," << number(res.predict_seconds) << "," << number(res.adjusted_accuracy)
       << "," << number(res.undecided_rate) << "," << number(training_statistic(res, "adjusted_average_reliability"))
       << "," << number(res.metrics.ece_floor) << "\n";
  return line.str();
}

std::string GridCellRunner::run_stability(const GridData& g, const GridLearner& learner, int threads) {
  if (grid_->stability.resamples <= 0) throw std::invalid_argument("the grid measures no stability");
  if (!learner.weka.empty())
    throw std::invalid_argument("learner '" + learner.name + "' is a Weka classifier: it has no stability cell");
  StabilityOptions options;
  options.resamples = grid_->stability.resamples;
  options.resampling = grid_->stability.resampling;
  options.quantiles = grid_->stability.quantiles;
  options.seed = grid_->seed;
  options.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  const StabilityResult s = measure_stability(g.train, learner.params, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line << csv_field(g.name) << "," << csv_field(learner.name) << "," << s.resamples << "," << s.resampling << ","
       << s.quantiles << "," << number(s.rule_set_stability) << "," << number(s.rule_set_stability_sd) << ","
       << number(s.prediction_agreement) << "," << number(s.probability_spread) << "," << number(s.mean_rules) << ","
       << number(seconds) << "\n";
  return line.str();
}

std::vector<GridCell> prepare_grid(GridCellRunner& runner, const GridRunOptions& o) {
  const GridSpec& grid = runner.grid();
  fs::create_directories(o.out);
  check_and_record_grid(grid, o.out);
  const std::vector<GridCell> all = runner.cells();
  const std::string results_path = o.out + "/results.csv";
  const std::set<CellKey> done = completed_cells(results_path);
  const std::string stability_path = o.out + "/stability.csv";
  const auto stable_done = completed_stability_cells(stability_path);
  std::vector<GridCell> pending;
  for (const auto& c : all)
    if (c.stability ? !stable_done.count({c.dataset, c.learner})
                    : !done.count({c.dataset, c.learner, c.repeat, c.fold}))
      pending.push_back(c);
  auto start_file = [](const std::string& path, const std::vector<std::string>& columns) {
    if (fs::exists(path) && fs::file_size(path) > 0) return;
    std::string header;
    for (std::size_t i = 0; i < columns.size(); ++i) header += (i ? "," : "") + columns[i];
    write_file_atomic(path, header + "\n");
  };
  start_file(results_path, kColumns);
  if (grid.stability.resamples > 0) start_file(stability_path, kStabilityColumns);
  if (o.progress) {
    const auto stability_cells = std::count_if(all.begin(), all.end(), [](const GridCell& c) { return c.stability; });
    std::cerr << "grid: " << all.size() << " cells (" << grid.datasets.size() << " data sets x " << grid.learners.size()
              << " learners, " << grid.resampling.describe();
    if (stability_cells > 0)
      std::cerr << "; " << stability_cells << " of them stability cells of " << grid.stability.resamples << " "
                << stability_resampling_name(grid.stability.resampling) << " resamples";
    std::cerr << "); " << all.size() - pending.size() << " already in " << results_path
              << (stability_cells > 0 ? " and " + stability_path : std::string()) << "\n";
  }
  // Largest data sets first: long cells do not end up last on one thread, and the time estimate errs on the
  // pessimistic side rather than the optimistic one.
  const auto order = largest_first(pending.size(), [&](std::size_t i) { return runner.work(pending[i].dataset); });
  std::vector<GridCell> ordered;
  ordered.reserve(pending.size());
  for (std::size_t i : order) ordered.push_back(pending[i]);
  return ordered;
}

void append_grid_result(const GridRunOptions& o, const GridCell& cell, const std::string& line) {
  append_to_file(o.out + (cell.stability ? "/stability.csv" : "/results.csv"), line);
}

void write_grid_summary(const GridSpec& grid, const GridRunOptions& o) {
  write_summary(grid, o, o.out + "/results.csv");
  if (o.progress) std::cerr << "grid: results in " << o.out << "/results.csv, summary in " << o.out << "/summary.md\n";
}

void run_grid(const GridSpec& grid, const GridRunOptions& o) {
  GridCellRunner runner(grid, o.datasets_dir);
  const std::vector<GridCell> pending = prepare_grid(runner, o);
  const int threads = resolve_threads(o.threads);
  const int inner = pending.size() >= static_cast<std::size_t>(threads) ? 1 : threads;
  std::mutex mutex;
  Progress progress("grid", "cells run", pending.size());
  parallel_for(pending.size(), threads, [&](std::size_t i) {
    const std::string line = runner.run(pending[i], inner);
    {
      std::lock_guard lock(mutex);
      append_grid_result(o, pending[i], line);
    }
    if (o.progress) progress.step(pending[i].dataset + " / " + pending[i].learner);
  });
  if (o.summary) write_grid_summary(grid, o);
}

void run_grid(const std::string& config_json, const std::string& source, const GridRunOptions& options) {
  run_grid(grid_from_text(config_json, source), options);
}

void write_grid_summary(const GridCellRunner& runner, const GridRunOptions& options) {
  write_grid_summary(runner.grid(), options);
}

}  // namespace candor
