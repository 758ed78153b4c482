#include "candor/model/pril_model.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"

namespace candor {

PrilModel::Decision PrilModel::find(const Dataset& d, std::size_t row) const {
  Decision out;
  std::vector<int> key(branching.size());
  for (std::size_t i = 0; i < branching.size(); ++i) key[i] = categories.of(d, branching[i], row);
  int number = 0;
  for (const auto& b : branches) {
    if (b.values != key) {
      for (const auto& s : b.sets) number += static_cast<int>(s.rules.size());
      continue;
    }
    out.branch = &b;
    for (const auto& s : b.sets) {
      std::vector<int> v(s.attributes.size());
      bool known = true;
      for (std::size_t i = 0; i < v.size() && known; ++i) known = (v[i] = categories.of(d, s.attributes[i], row)) >= 0;
      for (const auto& r : s.rules) {
        ++number;
        if (known && !out.rule && r.values == v) {
          out.set = &s;
          out.rule = &r;
          out.number = number;
        }
      }
      if (out.rule) return out;
    }
    return out;
  }
  return out;
}

std::vector<double> PrilModel::predict_proba(const Dataset& d, std::size_t row) const {
  const auto prior_p = prior();
  const std::size_t k = prior_p.size();
  const Decision dec = find(d, row);
  std::vector<double> p(k);
  if (dec.rule) {
    const double own = (dec.rule->correct + 1) / (dec.rule->covered + static_cast<double>(k));
    const double rest = 1 - prior_p[dec.rule->klass];
    for (std::size_t c = 0; c < k; ++c)
      p[c] = static_cast<int>(c) == dec.rule->klass ? own
             : rest > 0                             ? (1 - own) * prior_p[c] / rest
                                                    : (1 - own) / static_cast<double>(k - 1);
    return p;
  }
  const std::vector<double>& counts = dec.branch ? dec.branch->class_counts : training_counts;
  const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
  for (std::size_t c = 0; c < k; ++c) p[c] = (counts[c] + 1) / (n + static_cast<double>(k));
  return p;
}

std::vector<std::string> PrilModel::explain(const Dataset& d, std::size_t row) const {
  const Decision dec = find(d, row);
  if (!dec.rule) return {"undecided"};
  return {std::to_string(dec.number)};
}

std::string PrilModel::rule_text(const PrilBranch& b, const PrilRuleSet& s, const PrilRule& r) const {
  std::string t = "IF ";
  bool first = true;
  for (std::size_t i = 0; i < branching.size(); ++i) {
    t += (first ? "" : " AND ") + (b.values[i] < 0 ? schema.attributes[branching[i]].name + " = ?"
                                                   : categories.describe(branching[i], b.values[i], schema));
    first = false;
  }
  for (std::size_t i = 0; i < s.attributes.size(); ++i) {
    t += (first ? "" : " AND ") + categories.describe(s.attributes[i], r.values[i], schema);
    first = false;
  }
  return t + " THEN " + schema.class_attribute.values[r.klass];
}

std::string PrilModel::text(const std::string& learner) const {
  std::string out = learner + "\nEvery reliability holds with confidence " + fixed_digits(100 * (1 - risk), 1) +
                    "%; training: adjusted average reliability " + fixed_digits(adjusted_average_reliability, 4) +
                    ", undecided " + fixed_digits(100 * training_undecided, 1) + "%\n" +
                    "A rule reads `[reliability r, c/n]`: of the n training cases it decided (those still undecided "
                    "when its rule set was posted), c are of its class, and the binomial test guarantees its accuracy "
                    "above r; S is its rule set's significance S(A_i), the largest among the candidate rule sets of "
                    "its step.\n";
  int number = 0;
  for (const auto& b : branches) {
    out += "\nBranch";
    if (branching.empty()) out += " (all cases)";
    for (std::size_t i = 0; i < branching.size(); ++i)
      out += (i ? ", " : " ") + (b.values[i] < 0 ? schema.attributes[branching[i]].name + " = ?"
                                                 : categories.describe(branching[i], b.values[i], schema));
    const double n = std::accumulate(b.class_counts.begin(), b.class_counts.end(), 0.0);
    out += " (" + fixed_digits(n, 0) + " cases)\n";
    double decided = 0;
    for (const auto& s : b.sets) {
      out += "  rule set on";
      for (int a : s.attributes) out += " " + schema.attributes[a].name;
      out += " (S = " + fixed_digits(s.significance, 4) + ")\n";
      for (const auto& r : s.rules) {
        out += "    " + std::to_string(++number) + ": " + rule_text(b, s, r) + "  [reliability " +
               fixed_digits(r.reliability, 3) + ", " + fixed_digits(r.correct, 1) + "/" + fixed_digits(r.covered, 1) +
               "]\n";
        decided += r.covered;
      }
    }
    out += "  undecided: " + fixed_digits(std::max(0.0, n - decided), 1) + " cases\n";
  }
  return out;
}

nlohmann::json PrilModel::to_json() const {
  nlohmann::json j = model_header_json(*this);
  j["cuts"] = categories.to_json();
  j["branching"] = branching;
  j["settings"] = {{"risk", risk}};
  j["adjusted_average_reliability"] = adjusted_average_reliability;
  j["training_undecided_rate"] = training_undecided;
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& b : branches) {
    nlohmann::json sets = nlohmann::json::array();
    for (const auto& s : b.sets) {
      nlohmann::json rules = nlohmann::json::array();
      for (const auto& r : s.rules)
        rules.push_back({{"values", r.values},
                         {"class", r.klass},
                         {"reliability", r.reliability},
                         {"confidence", 1 - risk},
                         {"covered", r.covered},
                         {"correct", r.correct}});
      sets.push_back(
          {{"attributes", s.attributes}, {"significance", s.significance}, {"step", s.step}, {"rules", rules}});
    }
    arr.push_back({{"values", b.values}, {"class_counts", b.class_counts}, {"sets", sets}});
  }
  j["branches"] = arr;
  return j;
}

std::size_t PrilModel::rule_count() const {
  std::size_t n = 0;
  for (const auto& b : branches)
    for (const auto& s : b.sets) n += s.rules.size();
  return n;
}

double PrilModel::mean_rule_length() const {
  double len = 0;
  std::size_t n = 0;
  for (const auto& b : branches)
    for (const auto& s : b.sets) {
      len += static_cast<double>((branching.size() + s.attributes.size()) * s.rules.size());
      n += s.rules.size();
    }
  return n ? len / static_cast<double>(n) : 0;
}

std::vector<RulePoint> PrilModel::rule_points(const Dataset& test) const {
  std::vector<double> n(rule_count() + 1, 0.0), correct(rule_count() + 1, 0.0), rel(rule_count() + 1, 0.0);
  for (std::size_t r = 0; r < test.rows(); ++r) {
    if (test.y[r] == kMissing) continue;
    const Decision dec = find(test, r);
    if (!dec.rule) continue;
    n[dec.number] += test.weights[r];
    if (test.y[r] == dec.rule->klass) correct[dec.number] += test.weights[r];
    rel[dec.number] = dec.rule->reliability;
  }
  std::vector<RulePoint> out;
  for (std::size_t i = 1; i < n.size(); ++i)
    if (n[i] > 0) {
      RulePoint point{rel[i], correct[i] / n[i], n[i]};
      point.rule = static_cast<int>(i);
      out.push_back(point);
    }
  return out;
}

std::vector<std::pair<std::string, double>> PrilModel::training_statistics() const {
  return {{"adjusted_average_reliability", adjusted_average_reliability},
          {"training_undecided_rate", training_undecided}};
}

PrilModel PrilModel::from_json(const nlohmann::json& j) {
  PrilModel m;
  read_model_header(j, m,
                    {{"cuts"},
                     {"branching"},
                     {"adjusted_average_reliability"},
                     {"training_undecided_rate"},
                     {"branches"},
                     {"settings"}});
  if (j.contains("settings")) {
    const nlohmann::json& settings = j.at("settings");
    read_entry(settings, [&] {
      check_known_entries(settings, {{"risk"}});
      m.risk = settings_number(settings, "risk", 0, 1);
    });
  } else {  // a file written before models recorded their settings: the learner's --risk
    m.risk = learner_number(m.learner, "risk", m.risk, 0, 1);
  }
  const int attrs = static_cast<int>(m.schema.attributes.size());
  const int classes = static_cast<int>(m.schema.class_attribute.values.size());
  // Each part's problems name the part (its JSON pointer), down to the rule.
  const nlohmann::json& cuts = j.at("cuts");
  m.categories = read_entry(cuts, [&] { return Categories::from_json(cuts, m.schema); });
  const nlohmann::json& branching = j.at("branching");
  read_entry(branching, [&] {
    m.branching = json_ints(branching, "branching");
    for (int a : m.branching)
      if (a < 0 || a >= attrs) throw std::invalid_argument("a branching attribute is out of range");
  });
  m.adjusted_average_reliability = json_get<double>(j, "adjusted_average_reliability");
  m.training_undecided = json_get<double>(j, "training_undecided_rate");
  for (const auto& jb : j.at("branches")) {
    read_entry(jb, [&] {
      check_known_entries(jb, {{"values"}, {"class_counts"}, {"sets"}});
      PrilBranch b;
      b.values = json_ints(jb.at("values"), "a branch's values");
      b.class_counts = json_get<std::vector<double>>(jb, "class_counts");
      if (b.values.size() != m.branching.size() || static_cast<int>(b.class_counts.size()) != classes)
        throw std::invalid_argument("a branch needs one value per branching attribute and one count per class");
      for (std::size_t i = 0; i < b.values.size(); ++i)
        if (b.values[i] < -1 || b.values[i] >= m.categories.count[m.branching[i]])
          throw std::invalid_argument("a branch value is out of range");
      for (const auto& js : jb.at("sets"))
        read_entry(js, [&] {
          check_known_entries(js, {{"attributes"}, {"significance"}, {"step"}, {"rules"}});
          PrilRuleSet s;
          s.attributes = json_ints(js.at("attributes"), "a subset's attributes");
          s.significance = json_get<double>(js, "significance");
          s.step = json_int(js.at("step"), "a subset's step");
          for (int a : s.attributes)
            if (a < 0 || a >= attrs) throw std::invalid_argument("a rule set attribute is out of range");
          for (const auto& jr : js.at("rules"))
            read_entry(jr, [&] {
              check_known_entries(jr,
                                  {{"values"}, {"class"}, {"reliability"}, {"confidence"}, {"covered"}, {"correct"}});
              PrilRule r;
              r.values = json_ints(jr.at("values"), "a rule's values");
              r.klass = json_int(jr.at("class"), "a rule's class");
              r.reliability = json_get<double>(jr, "reliability");
              r.covered = json_get<double>(jr, "covered");
              r.correct = json_get<double>(jr, "correct");
              if (r.values.size() != s.attributes.size())
                throw std::invalid_argument("a rule needs one value per attribute");
              for (std::size_t i = 0; i < r.values.size(); ++i)
                if (r.values[i] < 0 || r.values[i] >= m.categories.count[s.attributes[i]])
                  throw std::invalid_argument("a rule value is out of range");
              if (r.klass < 0 || r.klass >= classes) throw std::invalid_argument("a rule's class is out of range");
              if (!(r.reliability > 0 && r.reliability < 1))
                throw std::invalid_argument("a reliability must lie in (0, 1)");
              if (!(r.covered >= r.correct && r.correct >= 0) || !std::isfinite(r.covered))
                throw std::invalid_argument("a rule's counts must satisfy 0 <= correct <= covered");
              s.rules.push_back(std::move(r));
            });
          b.sets.push_back(std::move(s));
        });
      m.branches.push_back(std::move(b));
    });
  }
  return m;
}

nlohmann::json PrilModel::rule_table() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& b : branches)
    for (const auto& s : b.sets)
      for (const auto& r : s.rules) {
        std::string text = rule_text(b, s, r);
        text = text.substr(3, text.rfind(" THEN ") - 3);
        rows.push_back({{"rule", text},
                        {"class", schema.class_attribute.values[r.klass]},
                        {"covered", r.covered},
                        {"correct", r.correct},
                        {"reliability", r.reliability},
                        {"confidence", 1 - risk}});
      }
  return rows;
}

std::vector<std::vector<std::size_t>> PrilModel::fired_rules(const Dataset& d) const {
  std::vector<std::vector<std::size_t>> out(d.rows());
  for (std::size_t r = 0; r < d.rows(); ++r) {
    const Decision dec = find(d, r);
    if (dec.rule) out[r].push_back(static_cast<std::size_t>(dec.number - 1));
  }
  return out;
}

std::vector<RuleShape> PrilModel::rule_shapes() const {
  // A category as conditions: a numeric range cuts[c-1] < x <= cuts[c] as its bounds, a nominal value as A = v;
  // a branch's missing value as a missing-value test.
  auto add = [&](RuleShape& shape, int attribute, int category) {
    if (category < 0) {
      shape.missing.push_back(attribute);
      return;
    }
    const auto& cuts = categories.cuts[static_cast<std::size_t>(attribute)];
    if (!schema.attributes[static_cast<std::size_t>(attribute)].is_nominal()) {
      if (category > 0)
        shape.conditions.push_back({attribute, Op::gt, 0, cuts[static_cast<std::size_t>(category - 1)]});
      if (static_cast<std::size_t>(category) < cuts.size())
        shape.conditions.push_back({attribute, Op::le, 0, cuts[static_cast<std::size_t>(category)]});
    } else {
      shape.conditions.push_back({attribute, Op::eq, category, 0});
    }
  };
  std::vector<RuleShape> out;
  for (const auto& b : branches)
    for (const auto& s : b.sets)
      for (const auto& r : s.rules) {
        RuleShape shape;
        shape.klass = r.klass;
        for (std::size_t i = 0; i < branching.size(); ++i) add(shape, branching[i], b.values[i]);
        for (std::size_t i = 0; i < s.attributes.size(); ++i) add(shape, s.attributes[i], r.values[i]);
        out.push_back(std::move(shape));
      }
  return out;
}

}  // namespace candor
