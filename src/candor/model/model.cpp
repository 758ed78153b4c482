#include "candor/model/model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <numeric>
#include <optional>
#include <utility>

#include "candor/data/json_input.hpp"
#include "candor/errors.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/pril_model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/model/tree_model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"

namespace candor {

int Model::predict(const Dataset& d, std::size_t row) const {
  const auto p = predict_proba(d, row);
  return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

std::vector<double> Model::prior() const {
  const double sum = std::accumulate(training_counts.begin(), training_counts.end(), 0.0);
  std::vector<double> p(training_counts.size(),
                        1.0 / static_cast<double>(std::max<std::size_t>(1, training_counts.size())));
  if (sum > 0)
    for (std::size_t c = 0; c < p.size(); ++c) p[c] = training_counts[c] / sum;
  return p;
}

std::vector<RuleShape> Model::rule_shapes() const { return {}; }

std::vector<double> Model::rule_importances() const {
  const nlohmann::json rows = rule_table();
  const std::vector<double> p = prior();
  const double total = std::accumulate(training_counts.begin(), training_counts.end(), 0.0);
  std::vector<double> out;
  out.reserve(rows.size());
  for (const auto& row : rows) {
    const double covered =
        row.contains("training_covered") ? row.at("training_covered").get<double>() : row.value("covered", 0.0);
    const double share = total > 0 ? covered / total : 0.0;
    const int klass = schema.class_attribute.value_index(row.value("class", ""));
    if (row.contains("probability") && klass >= 0)
      out.push_back(share * std::abs(row.at("probability").get<double>() - p[static_cast<std::size_t>(klass)]));
    else
      out.push_back(share);
  }
  return out;
}

std::vector<double> attribute_importances(const Model& m) {
  std::vector<double> out(m.schema.attributes.size(), 0.0);
  const std::vector<RuleShape> shapes = m.rule_shapes();
  const std::vector<double> rules = m.rule_importances();
  for (std::size_t k = 0; k < shapes.size() && k < rules.size(); ++k) {
    std::vector<int> tested;
    for (const Condition& c : shapes[k].conditions) tested.push_back(c.attribute);
    tested.insert(tested.end(), shapes[k].missing.begin(), shapes[k].missing.end());
    std::sort(tested.begin(), tested.end());
    tested.erase(std::unique(tested.begin(), tested.end()), tested.end());
    for (int a : tested) out[static_cast<std::size_t>(a)] += rules[k] / static_cast<double>(tested.size());
  }
  const std::vector<double> own = m.attribute_column_importances();
  for (std::size_t a = 0; a < own.size() && a < out.size(); ++a) out[a] += own[a];
  const double sum = std::accumulate(out.begin(), out.end(), 0.0);
  if (sum > 0)
    for (double& x : out) x /= sum;
  return out;
}

namespace {

nlohmann::json attribute_json(const Attribute& a) {
  nlohmann::json j{{"name", a.name}, {"type", a.is_nominal() ? "nominal" : "numeric"}};
  if (a.is_nominal()) j["values"] = a.values;
  return j;
}

Attribute attribute_from_json(const nlohmann::json& j) {
  Attribute a;
  a.name = json_get<std::string>(j, "name");
  std::string type = json_get<std::string>(j, "type");
  check_known_entries(j, {{"name"}, {"type"}, {"values", type == "nominal"}});
  if (type == "nominal") {
    a.type = AttributeType::nominal;
    a.values = json_get<std::vector<std::string>>(j, "values");
  } else if (type == "numeric") {
    a.type = AttributeType::numeric;
  } else {
    throw std::invalid_argument("attribute '" + a.name + "' has unknown type '" + type + "'");
  }
  return a;
}

template <class M>
std::unique_ptr<Model> read_as(const nlohmann::json& j) {
  return std::make_unique<M>(M::from_json(j));
}

}  // namespace

double settings_number(const nlohmann::json& settings, const char* key, double low, double high) {
  const double x = json_get<double>(settings, key);
  if (!(x >= low && x <= high) || !std::isfinite(x))
    throw JsonEntryError(settings.at(key),
                         std::string(key) + " must be a finite number " +
                             (std::isfinite(high) ? "in [" + count_text(low) + ", " + count_text(high) + "]"
                                                  : "of at least " + count_text(low)) +
                             ", not " + settings.at(key).dump());
  return x;
}

double learner_number(const nlohmann::json& learner, const char* key, double fallback, double low, double high) {
  if (!learner.contains(key)) return fallback;
  const nlohmann::json& v = learner.at(key);
  const double x = v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
  if (!(x >= low && x <= high) || !std::isfinite(x))
    throw std::invalid_argument("learner parameter '" + std::string(key) + "' must be a finite number in [" +
                                nlohmann::json(low).dump() + ", " + nlohmann::json(high).dump() + "], not " +
                                v.dump().substr(0, 40));
  return x;
}

std::string learner_text(const nlohmann::json& learner, const char* key, const std::string& fallback) {
  if (!learner.contains(key)) return fallback;
  const nlohmann::json& v = learner.at(key);
  if (!v.is_string())
    throw std::invalid_argument("learner parameter '" + std::string(key) + "' must be a text, not " +
                                v.dump().substr(0, 40));
  return v.get<std::string>();
}

std::string learner_name(const Model& m) { return learner_text(m.learner, "learner", ""); }

void record_training(Model& m, const Dataset& data) {
  m.schema = data.schema;
  m.training_counts = data.class_totals();
  m.training_rows = data.rows();
  m.training_source = data.source;
}

nlohmann::json model_header_json(const Model& m) {
  nlohmann::json j;
  j["format"] = "candor-model";
  j["version"] = 1;
  j["model"] = m.kind_name();
  j["learner"] = m.learner;
  j["training"] = {{"source", m.training_source}, {"rows", m.training_rows}, {"class_counts", m.training_counts}};
  nlohmann::json attrs = nlohmann::json::array();
  for (const auto& a : m.schema.attributes) attrs.push_back(attribute_json(a));
  j["attributes"] = attrs;
  j["class"] = {{"name", m.schema.class_attribute.name}, {"values", m.schema.class_attribute.values}};
  if (m.stability) j["stability"] = stability_json(*m.stability);
  return j;
}

nlohmann::json stability_json(const StabilityRecord& s) {
  return {{"resamples", s.resamples},
          {"resampling", s.resampling},
          {"quantiles", s.quantiles},
          {"rule_set_stability", s.rule_set_stability},
          {"rule_set_stability_sd", s.rule_set_stability_sd},
          {"prediction_agreement", s.prediction_agreement},
          {"probability_spread", s.probability_spread},
          {"mean_rules", s.mean_rules},
          {"rule_frequency", s.rule_frequency}};
}

StabilityRecord stability_from_json(const nlohmann::json& s) {
  check_known_entries(s, {{"resamples"},
                          {"resampling"},
                          {"quantiles"},
                          {"rule_set_stability"},
                          {"rule_set_stability_sd"},
                          {"prediction_agreement"},
                          {"probability_spread"},
                          {"mean_rules"},
                          {"rule_frequency"}});
  StabilityRecord r;
  r.resamples = static_cast<int>(json_integer(s.at("resamples"), "stability resamples", 2, 1000000));
  r.resampling = json_get<std::string>(s, "resampling");
  parse_named(kStabilityResamplingNames, "stability resampling", r.resampling);  // throws for any other name
  r.quantiles = static_cast<int>(json_integer(s.at("quantiles"), "stability quantiles", 2, 1000000));
  auto share = [&](const char* key) {
    const double x = s.at(key).get<double>();
    if (!(x >= 0 && x <= 1)) throw std::invalid_argument(std::string("stability ") + key + " must lie in [0, 1]");
    return x;
  };
  r.rule_set_stability = share("rule_set_stability");
  r.rule_set_stability_sd = share("rule_set_stability_sd");
  r.prediction_agreement = share("prediction_agreement");
  r.probability_spread = share("probability_spread");
  r.mean_rules = json_get<double>(s, "mean_rules");
  if (!(r.mean_rules >= 0) || !std::isfinite(r.mean_rules))
    throw std::invalid_argument("stability mean_rules must be a non-negative number");
  r.rule_frequency = json_get<std::vector<double>>(s, "rule_frequency");
  for (double x : r.rule_frequency)
    if (!(x >= 0 && x <= 1)) throw std::invalid_argument("stability rule_frequency values must lie in [0, 1]");
  return r;
}

nlohmann::json rule_table_with_stability(const Model& m) {
  nlohmann::json rows = m.rule_table();
  if (m.stability && m.stability->rule_frequency.size() == rows.size())
    for (std::size_t k = 0; k < rows.size(); ++k) rows[k]["frequency"] = m.stability->rule_frequency[k];
  return rows;
}

nlohmann::json numbered_rule_table(const Model& m) {
  nlohmann::json rows = rule_table_with_stability(m);
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (!rows[k].contains("id")) rows[k]["id"] = k + 1;
  return rows;
}

std::vector<std::string> rule_table_columns(const nlohmann::json& rows) {
  std::vector<std::string> seen;
  for (const auto& row : rows)
    for (const auto& [key, value] : row.items())
      if (std::find(seen.begin(), seen.end(), key) == seen.end()) seen.push_back(key);
  std::vector<std::string> out;
  for (const char* first : {"id", "member", "rule", "class", "covered", "class_counts", "training_covered",
                            "training_counts", "probability", "interval_low", "interval_high"})
    if (std::find(seen.begin(), seen.end(), first) != seen.end()) out.push_back(first);
  std::sort(seen.begin(), seen.end());
  for (const auto& key : seen)
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
  return out;
}

void read_model_header(const nlohmann::json& j, Model& m, std::initializer_list<KnownEntry> own) {
  check_known_entries(
      j, own,
      {{"format"}, {"version"}, {"model"}, {"learner"}, {"training"}, {"attributes"}, {"class"}, {"stability"}});
  m.learner = j.at("learner");
  if (!m.learner.is_object() || !m.learner.contains("learner") || !m.learner.at("learner").is_string())
    throw std::invalid_argument("\"learner\" must be an object naming its learner");
  const auto& tr = j.at("training");
  check_known_entries(tr, {{"source"}, {"rows"}, {"class_counts"}});
  m.training_source = json_get<std::string>(tr, "source");
  m.training_rows =
      static_cast<std::size_t>(json_integer(tr.at("rows"), "training rows", 0, std::numeric_limits<long long>::max()));
  m.training_counts = json_get<std::vector<double>>(tr, "class_counts");
  m.schema.attributes.clear();
  if (!j.at("attributes").is_array()) throw JsonEntryError(j.at("attributes"), "must be a list of attributes");
  for (const auto& a : j.at("attributes"))
    m.schema.attributes.push_back(read_entry(a, [&] { return attribute_from_json(a); }));
  check_known_entries(j.at("class"), {{"name"}, {"values"}});
  m.schema.class_attribute.name = json_get<std::string>(j.at("class"), "name");
  m.schema.class_attribute.type = AttributeType::nominal;
  m.schema.class_attribute.values = json_get<std::vector<std::string>>(j.at("class"), "values");
  if (j.contains("stability")) m.stability = stability_from_json(j.at("stability"));
  if (m.schema.class_attribute.values.empty())
    throw JsonEntryError(j.at("class").at("values"), "the class has no values");
  if (m.training_counts.size() != m.schema.class_attribute.values.size())
    throw std::invalid_argument("training class_counts must have one entry per class");
  for (double c : m.training_counts)
    if (!(c >= 0) || !std::isfinite(c))
      throw std::invalid_argument("training class_counts must be finite and non-negative");
}

const std::vector<ModelKindInfo>& model_kind_table() {
  static const std::vector<ModelKindInfo> table{
      {"decision-list", "a decision list: the first firing rule decides", read_as<RuleModel>},
      {"rule-set", "an unordered rule set: the firing rules are combined", read_as<RuleModel>},
      {"best-rule-set", "a rule set whose firing rule of highest quality decides", read_as<RuleModel>},
      {"rule-logistic", "a penalised logistic regression over rules and attributes", read_as<LogisticRuleModel>},
      {"tree", "a decision tree or stump: the leaf a row reaches gives its class distribution", read_as<TreeModel>},
      {"boost", "a boosted ensemble of trees, stumps or rules (kbs, adaboost-m1 or logitboost)", read_as<BoostModel>},
      {"pril", "a PrIL tree: rules with reliabilities, undecided cases", read_as<PrilModel>},
  };
  return table;
}

namespace {

// `file` with the entries that version-1 files wrote under an earlier name renamed to today's, so that every
// reader and the check of known entries see one vocabulary: a boost member's "weight" (AdaBoost.M1's vote)
// and "class" (the class of a one-vs-rest KBS member) took the rule table's names, "vote_weight" and
// "against_rest"; PrIL's "training_undecided" the evaluation's "training_undecided_rate".
void use_current_names(nlohmann::json& file) {
  if (!file.is_object() || !file.contains("model")) return;
  if (file["model"] == "pril" && file.contains("training_undecided") && !file.contains("training_undecided_rate")) {
    file["training_undecided_rate"] = std::move(file["training_undecided"]);
    file.erase("training_undecided");
  }
  if (file["model"] != "boost" || !file.contains("members") || !file["members"].is_array()) return;
  for (auto& member : file["members"]) {
    if (!member.is_object()) continue;
    for (const auto& [old_name, name] : {std::pair{"weight", "vote_weight"}, std::pair{"class", "against_rest"}})
      if (member.contains(old_name) && !member.contains(name)) {
        member[name] = std::move(member[old_name]);
        member.erase(old_name);
      }
  }
}

}  // namespace

std::unique_ptr<Model> model_from_json(nlohmann::json j, const std::string& source) {
  use_current_names(j);
  try {
    if (!j.is_object() || j.value("format", "") != "candor-model")
      throw std::invalid_argument("not a candor model (\"format\" is not \"candor-model\")");
    if (!j.at("version").is_number_integer() || j.at("version").get<long long>() != 1)
      throw std::invalid_argument("unsupported model version " + j.at("version").dump());
    const std::string kind = json_get<std::string>(j, "model");
    for (const auto& k : model_kind_table())
      if (kind == k.name) {
        // Every entry of a model file is one candor writes (each reader checks its objects' entries): an
        // entry it does not write is a typo or a hand edit that would otherwise be ignored without a word.
        auto model = k.from_json(j);
        if (model->stability && model->stability->rule_frequency.size() != model->rule_table().size())
          throw std::invalid_argument("stability rule_frequency has " +
                                      std::to_string(model->stability->rule_frequency.size()) + " entries for " +
                                      std::to_string(model->rule_table().size()) + " rules");
        return model;
      }
    std::vector<std::string> known;
    for (const auto& k : model_kind_table()) known.emplace_back(k.name);
    throw std::invalid_argument(unknown_name_message("model kind", kind, known));
  } catch (const UnknownJsonEntry& e) {
    throw InputError(source, 0, "malformed model: unknown entry " + json_pointer_of(j, e.entry()).value_or("?"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, 0, "malformed model: " + json_error_text(j, e));
  } catch (const std::invalid_argument& e) {
    throw InputError(source, 0, "malformed model: " + json_error_text(j, e));
  }
}

namespace {

// The JSON pointer of the first number that is not finite (nlohmann writes those as null, which no reader
// takes back), or "" when there is none.
std::string non_finite_number(const nlohmann::json& j, const std::string& path) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return path.empty() ? "/" : path;
  if (j.is_object())
    for (const auto& [key, value] : j.items())
      if (auto found = non_finite_number(value, path + "/" + key); !found.empty()) return found;
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      if (auto found = non_finite_number(j[i], path + "/" + std::to_string(i)); !found.empty()) return found;
  return "";
}

}  // namespace

void save_model(const Model& m, const std::string& path) {
  const nlohmann::json j = m.to_json();
  if (const std::string bad = non_finite_number(j, ""); !bad.empty())
    throw std::invalid_argument("the model would hold a number that is not finite at " + bad +
                                " (an option too large?); nothing written to " + path);
  // 17 significant digits: thresholds, weights and counts read back as exactly the same doubles. Written
  // beside the target and renamed over it: a crash or a full disk leaves the previous model whole.
  write_file_atomic(path, j.dump(2) + "\n");
}

std::unique_ptr<Model> model_from_text(const std::string& text, const std::string& source) {
  return model_from_json(parse_json_input(text, source), source);
}

std::unique_ptr<Model> load_model(const std::string& path) {
  // Data given where a model goes (swapped arguments, or a data file by mistake) is named as such rather
  // than reported as a JSON syntax error.
  std::ifstream head(path, std::ios::binary);
  std::string start(256, '\0');
  head.read(start.data(), static_cast<std::streamsize>(start.size()));
  start.resize(static_cast<std::size_t>(head.gcount()));
  const std::size_t first = start.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && start[first] != '{') {
    std::string lower = start;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool arff = lower.find("@relation") != std::string::npos || lower.find("@attribute") != std::string::npos;
    const bool named_as_data =
        path.size() > 4 && (path.substr(path.size() - 4) == ".csv" || path.substr(path.size() - 4) == ".tsv" ||
                            (path.size() > 5 && path.substr(path.size() - 5) == ".arff"));
    if (arff || named_as_data || start[first] == '%')
      throw InputError(path, 1,
                       "is a data file, not a model file (a model is the JSON that 'candor fit -o' writes); in "
                       "'candor predict MODEL DATA' the model comes first");
  }
  return model_from_json(read_json_file(path), path);
}

}  // namespace candor
