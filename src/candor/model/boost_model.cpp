#include "candor/model/boost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

#include "candor/linear/logit_probabilities.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"

namespace candor {

nlohmann::json boost_model_settings_json(const BoostModelSettings& s) {
  return {{"boosting", name_of(kBoostingNames, s.boosting)},
          {"leaf_estimate", name_of(kLeafEstimateNames, s.leaf_estimate)},
          {"prior_weight", s.prior_weight},
          {"calibrate", name_of(kBoostCalibrationNames, s.calibrate)},
          {"multiclass", name_of(kBoostMulticlassNames, s.one_vs_rest)}};
}

BoostModelSettings boost_model_settings_from_json(const nlohmann::json& j) {
  return read_entry(j, [&] {
    check_known_entries(j, {{"boosting"}, {"leaf_estimate"}, {"prior_weight"}, {"calibrate"}, {"multiclass"}});
    BoostModelSettings s;
    s.boosting = settings_name(j, "boosting", kBoostingNames);
    s.leaf_estimate = settings_name(j, "leaf_estimate", kLeafEstimateNames);
    s.prior_weight = settings_number(j, "prior_weight", 0, std::numeric_limits<double>::infinity());
    s.calibrate = settings_name(j, "calibrate", kBoostCalibrationNames);
    s.one_vs_rest = settings_name(j, "multiclass", kBoostMulticlassNames);
    return s;
  });
}

namespace {

// The settings of a file written before ensembles recorded their own: the learner's options, as it wrote them.
// kbs files written before kbs read --multiclass do not name it: they are one softmax ensemble.
BoostModelSettings boost_settings_of_older_file(const nlohmann::json& learner) {
  return read_entry(learner, [&] {
    BoostModelSettings s;
    s.boosting = parse_boosting(learner_text(learner, "boosting", "kbs"));
    s.leaf_estimate = parse_leaf_estimate(learner_text(learner, "leaf_estimate", "laplace"));
    s.prior_weight = learner_number(learner, "prior_weight", 1.0, 0, std::numeric_limits<double>::infinity());
    s.calibrate = parse_named(kBoostCalibrationNames, "calibration", learner_text(learner, "calibrate", "none"));
    s.one_vs_rest = s.boosting == BoostingMethod::kbs && learner_text(learner, "multiclass", "") == "one-vs-rest";
    return s;
  });
}

// A member's most probable class for a row (its leaves' raw weights, fractions included).
int member_class(const Tree& t, const Dataset& d, std::size_t row, const std::vector<double>& prior) {
  const auto p = t.predict_proba(d, row, LeafEstimate::counts, 0.0, prior);
  return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

}  // namespace

std::vector<std::vector<double>> BoostModel::contributions(const Dataset& d, std::size_t row) const {
  const std::size_t classes = schema.class_attribute.values.size();
  std::vector<std::vector<double>> out(members.size(), std::vector<double>(classes, 0.0));
  if (settings.boosting == BoostingMethod::kbs) {
    std::vector<std::pair<int, double>> cells;
    std::vector<double> undecided(classes, 1.0);  // one-vs-rest: the row's share not yet decided, per class
    for (std::size_t i = 0; i < members.size(); ++i) {
      members[i].cell_route(d, row, cells);
      for (std::size_t c = 0; c < classes; ++c) {
        double lift = 0;
        for (const auto& [cell, fraction] : cells) lift += fraction * lifts[i][cell][c];
        out[i][c] = std::log(lift);
      }
      if (member_classes.empty()) continue;
      const auto c = static_cast<std::size_t>(member_classes[i]);
      out[i][c] *= undecided[c];
      double share = 0;  // of the row in decided cells
      for (const auto& [cell, fraction] : cells)
        if (std::find(decided_cells[i].begin(), decided_cells[i].end(), cell) != decided_cells[i].end())
          share += fraction;
      undecided[c] *= 1 - share;  // a row's fractions sum to 1
    }
  } else if (settings.boosting == BoostingMethod::adaboost_m1) {
    const auto p = prior();
    for (std::size_t i = 0; i < members.size(); ++i) out[i][member_class(members[i], d, row, p)] = member_weights[i];
  } else {
    const double j = static_cast<double>(classes);
    for (std::size_t i = 0; i < members.size(); i += static_cast<std::size_t>(per_iteration)) {
      if (per_iteration == 1) {  // two classes: the figure's F for the second class, -F for the first
        const double f = members[i].predict_value(d, row) / 2;
        out[i][1] = f;
        out[i][0] = -f;
        continue;
      }
      std::vector<double> f(classes);
      for (std::size_t c = 0; c < classes; ++c) f[c] = members[i + c].predict_value(d, row);
      const double mean = std::accumulate(f.begin(), f.end(), 0.0) / j;
      for (std::size_t c = 0; c < classes; ++c) out[i + c][c] = (j - 1) / j * (f[c] - mean);
    }
  }
  if (member_discount != 1) {
    const auto rounds = member_rounds();
    for (std::size_t i = 0; i < members.size(); ++i) {
      const double factor = std::pow(member_discount, static_cast<double>(rounds[i]));
      for (double& v : out[i]) v *= factor;
    }
  }
  return out;
}

std::vector<std::size_t> BoostModel::member_rounds() const {
  std::vector<std::size_t> rounds(members.size());
  // One-vs-rest: a member's round is how many members of its class come before it.
  std::vector<std::size_t> seen(member_classes.empty() ? 0 : schema.class_attribute.values.size(), 0);
  for (std::size_t i = 0; i < members.size(); ++i)
    rounds[i] = settings.boosting == BoostingMethod::logitboost
                    ? i / static_cast<std::size_t>(std::max(1, per_iteration))
                : member_classes.empty() ? i
                                         : seen[static_cast<std::size_t>(member_classes[i])]++;
  return rounds;
}

std::vector<double> BoostModel::base_scores() const {
  std::vector<double> score(schema.class_attribute.values.size(), 0.0);
  if (settings.boosting == BoostingMethod::kbs) {
    const auto p = prior();
    for (std::size_t c = 0; c < score.size(); ++c)
      score[c] = !(p[c] > 0)              ? -1e300
                 : member_classes.empty() ? std::log(p[c])
                 : p[c] < 1               ? std::log(p[c] / (1 - p[c]))
                                          : 1e300;
  }
  return score;
}

std::vector<double> BoostModel::softmax(std::vector<double> s) {
  const double top = *std::max_element(s.begin(), s.end());
  double sum = 0;
  for (double& v : s) sum += (v = std::exp(v - top));
  for (double& v : s) v /= sum;
  return s;
}

std::vector<double> BoostModel::probabilities(const std::vector<double>& scores) {
  return logit_probabilities(scores.data(), static_cast<int>(scores.size()));
}

std::vector<double> BoostModel::predict_proba(const Dataset& d, std::size_t row) const {
  if (settings.boosting == BoostingMethod::adaboost_m1 && members.size() == 1)
    return members[0].predict_proba(d, row, settings.leaf_estimate, settings.prior_weight, prior());
  std::vector<double> score = scores(d, row);
  if (temperature != 1)
    for (double& v : score) v *= temperature;
  return probabilities(std::move(score));
}

std::vector<double> BoostModel::scores(const Dataset& d, std::size_t row) const {
  std::vector<double> score = base_scores();
  for (const auto& member : contributions(d, row))
    for (std::size_t c = 0; c < score.size(); ++c) score[c] += member[c];
  return score;
}

std::vector<std::string> BoostModel::explain(const Dataset& d, std::size_t row) const {
  const auto p = predict_proba(d, row);
  const std::size_t best = std::max_element(p.begin(), p.end()) - p.begin();
  const auto parts = contributions(d, row);
  std::vector<std::pair<double, std::size_t>> moved;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const double mean = std::accumulate(parts[i].begin(), parts[i].end(), 0.0) / static_cast<double>(parts[i].size());
    const double v = parts[i][best] - mean;
    if (v != 0) moved.emplace_back(v, i);
  }
  std::stable_sort(moved.begin(), moved.end(),
                   [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < moved.size() && k < 5; ++k)
    out.push_back("member " + std::to_string(moved[k].second + 1) + " " + (moved[k].first > 0 ? "+" : "") +
                  fixed_digits(moved[k].first, 2));
  return out;
}

std::string BoostModel::text(const std::string& learner) const {
  std::string out = learner + ": " + std::to_string(members.size()) + " members\n";
  if (settings.calibrate == BoostCalibration::temperature)
    out += "Every score is multiplied by the temperature " + fixed_digits(temperature, 4) +
           " before the softmax (fitted on 5 internal folds; the most probable class is unchanged).\n";
  if (settings.calibrate == BoostCalibration::discount)
    out += "The members of round k (k = 0 for the first) count " + fixed_digits(member_discount, 4) +
           "^k times, then every score is multiplied by the temperature " + fixed_digits(temperature, 4) +
           " before the softmax (both fitted on 5 internal folds).\n";
  if (settings.calibrate == BoostCalibration::smoothing)
    out += "The LIFTs are smoothed with " + fixed_digits(lift_prior_weight, 4) +
           " pseudo-examples of the prior per cell (fitted on 5 internal folds, in place of --prior-weight).\n";
  if (settings.boosting != BoostingMethod::logitboost) out += std::string(kLeafNotation) + "\n";
  const auto& classes = schema.class_attribute.values;
  for (std::size_t i = 0; i < members.size(); ++i) {
    out += "\nMember " + std::to_string(i + 1);
    if (settings.boosting == BoostingMethod::adaboost_m1)
      out += " (vote weight " + fixed_digits(member_weights[i], 4) + ")";
    if (!member_classes.empty())
      out += " (" + classes[static_cast<std::size_t>(member_classes[i])] + " against the rest)";
    if (settings.boosting == BoostingMethod::logitboost)
      out += per_iteration == 1 ? " (round " + std::to_string(i + 1) + ", F of " + classes[1] + ")"
                                : " (round " + std::to_string(i / per_iteration + 1) + ", class " +
                                      classes[i % static_cast<std::size_t>(per_iteration)] + ")";
    const Tree& t = members[i];
    // A member whose leaves share cells is a rule (learn/base_learner.hpp's rule_as_tree): cell 0 is the
    // leaf of the examples it covers, cell 1 every other leaf.
    const bool rule = static_cast<std::size_t>(t.cells) < t.leaf_count();
    std::vector<std::string> cell_names(t.cells);
    if (rule) {
      const auto parents = t.parents();
      std::vector<std::vector<double>> counts(t.cells, std::vector<double>(classes.size(), 0.0));
      for (const auto& path : t.leaf_paths()) {
        const int cell = t.nodes[path.leaf].cell;
        for (std::size_t c = 0; c < classes.size(); ++c) counts[cell][c] += t.nodes[path.leaf].class_counts[c];
        if (cell == 0) cell_names[0] = format_leaf_path(path, schema);
      }
      if (t.cells > 1) cell_names[1] = "otherwise";
      out += ":\n";
      for (int cell = 0; cell < t.cells; ++cell) {
        const auto best = std::max_element(counts[cell].begin(), counts[cell].end()) - counts[cell].begin();
        out += "  " + cell_names[cell] + (cell == 0 ? " " : ": ") + classes[best] + " [";
        for (std::size_t c = 0; c < classes.size(); ++c) out += (c ? ", " : "") + fixed_digits(counts[cell][c], 1);
        out += "]\n";
      }
    } else {
      out += ":\n" + t.text(schema, settings.boosting == BoostingMethod::logitboost);
      for (const auto& path : t.leaf_paths()) cell_names[t.nodes[path.leaf].cell] = format_leaf_path(path, schema);
    }
    if (settings.boosting != BoostingMethod::kbs) continue;
    if (!member_classes.empty()) {
      const auto c = static_cast<std::size_t>(member_classes[i]);
      out += "LIFT of " + classes[c] + " over LIFT of the rest per " + std::string(rule ? "cell" : "leaf") + ":\n";
      for (int cell = 0; cell < t.cells; ++cell) {
        const bool decided =
            std::find(decided_cells[i].begin(), decided_cells[i].end(), cell) != decided_cells[i].end();
        out += "  " + cell_names[cell] + " " + fixed_digits(lifts[i][cell][c], 3) +
               (decided ? "  (decides: later members of " + classes[c] + " skip these rows)" : "") + "\n";
      }
      continue;
    }
    out += "LIFT per " + std::string(rule ? "cell" : "leaf") + " and class (";
    for (std::size_t c = 0; c < classes.size(); ++c) out += (c ? ", " : "") + classes[c];
    out += "):\n";
    for (int cell = 0; cell < t.cells; ++cell) {
      out += "  " + cell_names[cell] + " ";
      for (std::size_t c = 0; c < classes.size(); ++c) out += (c ? " " : "") + fixed_digits(lifts[i][cell][c], 3);
      out += "\n";
    }
  }
  return out;
}

nlohmann::json BoostModel::to_json() const {
  nlohmann::json j = model_header_json(*this);
  j["settings"] = boost_model_settings_json(settings);
  nlohmann::json arr = nlohmann::json::array();
  for (std::size_t i = 0; i < members.size(); ++i) {
    nlohmann::json m{{"tree", members[i].to_json()}};
    if (settings.boosting == BoostingMethod::adaboost_m1) m["vote_weight"] = member_weights[i];
    if (settings.boosting == BoostingMethod::kbs) m["lifts"] = lifts[i];
    if (!member_classes.empty()) {
      m["against_rest"] = schema.class_attribute.values[static_cast<std::size_t>(member_classes[i])];
      m["decided_cells"] = decided_cells[i];
    }
    arr.push_back(m);
  }
  j["members"] = arr;
  j["per_iteration"] = per_iteration;
  if (settings.calibrate == BoostCalibration::temperature || settings.calibrate == BoostCalibration::discount)
    j["temperature"] = temperature;
  if (settings.calibrate == BoostCalibration::discount) j["member_discount"] = member_discount;
  if (settings.calibrate == BoostCalibration::smoothing) j["lift_prior_weight"] = lift_prior_weight;
  return j;
}

std::size_t BoostModel::rule_count() const {
  std::size_t n = 0;
  for (const auto& t : members) n += static_cast<std::size_t>(t.cells);
  return n;
}

double BoostModel::mean_rule_length() const {
  double s = 0;
  std::size_t n = 0;
  for (const auto& t : members)
    for (const auto& p : t.leaf_paths()) {
      s += static_cast<double>(p.tests.size());
      ++n;
    }
  return n ? s / static_cast<double>(n) : 0;
}

BoostModel BoostModel::from_json(const nlohmann::json& j) {
  BoostModel m;
  read_model_header(
      j, m,
      {{"members"}, {"per_iteration"}, {"temperature"}, {"member_discount"}, {"lift_prior_weight"}, {"settings"}});
  m.settings = j.contains("settings") ? boost_model_settings_from_json(j.at("settings"))
                                      : boost_settings_of_older_file(m.learner);
  const std::size_t classes = m.schema.class_attribute.values.size();
  m.per_iteration = json_int(j.at("per_iteration"), "per_iteration", 1);
  const bool logit = m.settings.boosting == BoostingMethod::logitboost;
  const int expected_per_iteration = logit && classes > 2 ? static_cast<int>(classes) : 1;
  if (m.per_iteration != expected_per_iteration) throw std::invalid_argument("per_iteration does not fit the classes");
  if (logit && classes < 2) throw std::invalid_argument("a logitboost model needs at least two classes");
  const auto& arr = j.at("members");
  if (!arr.is_array() || arr.empty() || arr.size() % static_cast<std::size_t>(m.per_iteration))
    throw std::invalid_argument("a boost model needs members, a whole number of rounds of them");
  // Every problem names the member, as a JSON pointer into the file.
  for (const auto& jm : arr) {
    read_entry(jm, [&] {
      check_known_entries(jm, {{"tree"},
                               {"vote_weight", m.settings.boosting == BoostingMethod::adaboost_m1},
                               {"lifts", m.settings.boosting == BoostingMethod::kbs},
                               {"against_rest"},
                               {"decided_cells"}});
      m.members.push_back(Tree::from_json(jm.at("tree"), m.schema, logit));
      if (m.settings.boosting == BoostingMethod::adaboost_m1) {
        const double w = json_get<double>(jm, "vote_weight");
        if (!std::isfinite(w)) throw std::invalid_argument("a member's vote weight must be finite");
        m.member_weights.push_back(w);
      }
      if (m.settings.boosting == BoostingMethod::kbs) {
        auto l = json_get<std::vector<std::vector<double>>>(jm, "lifts");
        if (l.size() != static_cast<std::size_t>(m.members.back().cells))
          throw std::invalid_argument("a member needs one LIFT row per cell");
        for (const auto& row : l) {
          if (row.size() != classes) throw std::invalid_argument("a LIFT row needs one entry per class");
          for (double v : row)
            if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("LIFTs must be finite and positive");
        }
        m.lifts.push_back(std::move(l));
      }
      if (jm.contains("against_rest")) {
        const int c = m.schema.class_attribute.value_index(json_get<std::string>(jm, "against_rest"));
        if (c < 0) throw std::invalid_argument("a member's class must be a class of the data");
        m.member_classes.push_back(c);
        auto decided = json_ints(jm.at("decided_cells"), "decided_cells");
        for (int cell : decided)
          if (cell < 0 || cell >= m.members.back().cells)
            throw std::invalid_argument("a decided cell must be a cell of its member");
        m.decided_cells.push_back(std::move(decided));
      }
    });
  }
  // Members name their class exactly when the ensemble is KBS's one-vs-rest form (member_classes decides
  // how it predicts; the settings say which form it is).
  const bool one_vs_rest = m.settings.boosting == BoostingMethod::kbs && m.settings.one_vs_rest && classes > 2;
  if (m.member_classes.size() != (one_vs_rest ? m.members.size() : 0))
    throw std::invalid_argument(one_vs_rest ? "every member of a kbs one-vs-rest ensemble names its class"
                                            : "only a kbs one-vs-rest ensemble's members name a class");
  if (j.contains("temperature")) {
    m.temperature = json_get<double>(j, "temperature");
    if (!(m.temperature > 0) || !std::isfinite(m.temperature))
      throw JsonEntryError(j.at("temperature"), "must be finite and positive");
  } else if (m.settings.calibrate == BoostCalibration::temperature ||
             m.settings.calibrate == BoostCalibration::discount) {
    throw std::invalid_argument(std::string("a --calibrate ") + name_of(kBoostCalibrationNames, m.settings.calibrate) +
                                " model needs its \"temperature\"");
  }
  if (j.contains("member_discount")) {
    m.member_discount = json_get<double>(j, "member_discount");
    if (!(m.member_discount >= 0 && m.member_discount <= 1))
      throw JsonEntryError(j.at("member_discount"), "must be between 0 and 1");
  } else if (m.settings.calibrate == BoostCalibration::discount) {
    throw std::invalid_argument("a --calibrate discount model needs its \"member_discount\"");
  }
  if (j.contains("lift_prior_weight")) {
    m.lift_prior_weight = json_get<double>(j, "lift_prior_weight");
    if (!(m.lift_prior_weight >= 0) || !std::isfinite(m.lift_prior_weight))
      throw JsonEntryError(j.at("lift_prior_weight"), "must be finite and not negative");
  } else if (m.settings.calibrate == BoostCalibration::smoothing) {
    throw std::invalid_argument("a --calibrate smoothing model needs its \"lift_prior_weight\"");
  }
  return m;
}

nlohmann::json BoostModel::rule_table() const {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < members.size(); ++i)
    for (const auto& path : members[i].leaf_paths()) {
      const TreeNode& leaf = members[i].nodes[path.leaf];
      std::string text = format_leaf_path(path, schema);
      text = text.substr(3, text.size() - 8);  // without "IF " and " THEN"
      nlohmann::json row{{"member", i + 1}, {"rule", text}};
      if (settings.boosting == BoostingMethod::logitboost) {
        row["response"] = leaf.value_mean;
      } else {
        const auto best =
            std::max_element(leaf.class_counts.begin(), leaf.class_counts.end()) - leaf.class_counts.begin();
        row["class"] = schema.class_attribute.values[best];
        row["covered"] = std::accumulate(leaf.class_counts.begin(), leaf.class_counts.end(), 0.0);
        row["class_counts"] = leaf.class_counts;
        if (settings.boosting == BoostingMethod::adaboost_m1) {
          row["vote_weight"] = member_weights[i];
        } else if (!member_classes.empty()) {
          const auto c = static_cast<std::size_t>(member_classes[i]);
          row["against_rest"] = schema.class_attribute.values[c];
          row["lift_ratio"] = lifts[i][leaf.cell][c];
          row["decides"] =
              std::find(decided_cells[i].begin(), decided_cells[i].end(), leaf.cell) != decided_cells[i].end();
        } else {
          row["lifts"] = lifts[i][leaf.cell];
        }
      }
      rows.push_back(row);
    }
  return rows;
}

std::vector<std::vector<std::size_t>> BoostModel::fired_rules(const Dataset& d) const {
  // rule_table() lists the members' leaves member by member, each in leaf_paths() order.
  std::vector<std::map<int, std::size_t>> row_of_leaf(members.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < members.size(); ++i)
    for (const auto& path : members[i].leaf_paths()) row_of_leaf[i][path.leaf] = next++;
  std::vector<std::vector<std::size_t>> out(d.rows());
  std::vector<std::pair<int, double>> leaves;
  for (std::size_t r = 0; r < d.rows(); ++r)
    for (std::size_t i = 0; i < members.size(); ++i) {
      leaves.clear();
      members[i].route(d, r, leaves);
      std::vector<std::size_t> rows;
      for (const auto& leaf : leaves) rows.push_back(row_of_leaf[i].at(leaf.first));
      std::sort(rows.begin(), rows.end());
      out[r].insert(out[r].end(), rows.begin(), rows.end());
    }
  return out;
}

std::vector<RuleShape> BoostModel::rule_shapes() const {
  // In rule_table()'s order; a LogitBoost leaf names no class.
  const nlohmann::json table = rule_table();
  std::vector<RuleShape> out;
  std::size_t k = 0;
  for (const auto& member : members)
    for (const auto& path : member.leaf_paths()) {
      const auto& row = table[k++];
      out.push_back(leaf_path_shape(
          path, row.contains("class") ? schema.class_attribute.value_index(row["class"].get<std::string>()) : -1));
    }
  return out;
}

}  // namespace candor
