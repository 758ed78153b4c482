#include "candor/model/rule_model.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

#include "candor/errors.hpp"
#include "candor/model/combine.hpp"
#include "candor/stats/binomial_interval.hpp"
#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"

namespace candor {

double Rule::covered() const { return std::accumulate(class_counts.begin(), class_counts.end(), 0.0); }

std::string Rule::stable_frequency_text() const {
  return stable_frequency > 0 ? "found in " + fixed_digits(100 * stable_frequency, 0) + "% of resamples" : "";
}

double RuleModel::share_m() const { return settings.prior_weight * static_cast<double>(training_counts.size()); }

std::vector<double> RuleModel::default_distribution() const {
  double sum = std::accumulate(default_counts.begin(), default_counts.end(), 0.0);
  // Laplace's rule towards the prior (m = prior weight x number of classes): the examples left over for a
  // decision list's default rule are often few.
  return smoothed(sum > 0 ? default_counts : training_counts, prior(), share_m());
}

std::vector<std::size_t> RuleModel::deciding_rules(const Dataset& d, std::size_t row) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (!rules[i].covers(d, row)) continue;
    if (kind == ModelKind::best_rule) {
      if (out.empty())
        out.push_back(i);
      else if (rules[i].quality > rules[out[0]].quality)
        out[0] = i;
      continue;
    }
    out.push_back(i);
    if (kind == ModelKind::decision_list) break;
  }
  return out;
}

void RuleModel::use(RuleModelSettings s) {
  settings = std::move(s);
  combination = kind == ModelKind::rule_set ? &find_combination(settings.combine) : nullptr;
}

nlohmann::json rule_model_settings_json(const RuleModelSettings& s, ModelKind kind) {
  nlohmann::json j{{"m", s.m},
                   {"prior_weight", s.prior_weight},
                   {"quality", s.quality},
                   {"correct", name_of(kRuleEstimateNames, s.estimate)}};
  if (kind == ModelKind::rule_set) j["combine"] = s.combine;
  return j;
}

RuleModelSettings rule_model_settings_from_json(const nlohmann::json& j, ModelKind kind) {
  return read_entry(j, [&] {
    check_known_entries(j,
                        {{"m"}, {"prior_weight"}, {"quality"}, {"correct"}, {"combine", kind == ModelKind::rule_set}});
    constexpr double kInf = std::numeric_limits<double>::infinity();
    RuleModelSettings s;
    s.m = settings_number(j, "m", 0, kInf);
    s.prior_weight = settings_number(j, "prior_weight", 0, kInf);
    s.quality = json_get<std::string>(j, "quality");
    s.estimate = settings_name(j, "correct", kRuleEstimateNames);
    if (kind == ModelKind::rule_set) {
      s.combine = json_get<std::string>(j, "combine");
      read_entry(j.at("combine"), [&] { find_combination(s.combine); });  // throws for an unknown name
    }
    return s;
  });
}

namespace {

// The settings of a file written before rule models recorded their own: read from its learner object, where
// the learner wrote what it resolved (the correction, none where the quality corrects by EVC, whose
// calibration the file then holds; a rule set's combination). Files older still, from before rule
// combination and prior smoothing existed, predicted by the count sum and the raw distributions: they keep
// predicting exactly that.
RuleModelSettings rule_settings_of_older_file(const nlohmann::json& file, ModelKind kind) {
  const nlohmann::json& learner = file.at("learner");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  RuleModelSettings s;
  s.m = learner_number(learner, "m", s.m, 0, kInf);
  s.prior_weight = learner_number(learner, "prior_weight", 0.0, 0, kInf);
  s.quality = learner_text(learner, "quality", "");
  const std::string correct = learner_text(learner, "correct", "none");
  s.estimate = correct == "bootstrap"                     ? RuleEstimate::bootstrap
               : file.contains("evc") || correct == "evc" ? RuleEstimate::evc
                                                          : RuleEstimate::measure;
  if (kind == ModelKind::rule_set) s.combine = learner_text(learner, "combine", s.combine);
  return s;
}

}  // namespace

std::vector<double> RuleModel::predict_proba(const Dataset& d, std::size_t row) const {
  const std::vector<double> pri = prior();
  const double n_train = std::accumulate(training_counts.begin(), training_counts.end(), 0.0);
  const auto decided = deciding_rules(d, row);
  std::vector<double> p;
  if (decided.empty()) {
    p = default_distribution();
  } else if (kind != ModelKind::rule_set) {
    const Rule& r = rules[decided.front()];
    p = rule_distribution(r, r.class_counts, pri, share_m());
  } else {
    std::vector<const Rule*> firing;
    for (auto i : decided) firing.push_back(&rules[i]);
    const Combination& c = combination ? *combination : find_combination(settings.combine);
    p = c.combine(CombineInput{firing, pri, n_train, settings.m, share_m()});
  }
  return mix_with_prior(std::move(p), pri, n_train, settings.prior_weight);
}

std::vector<std::string> RuleModel::explain(const Dataset& d, std::size_t row) const {
  std::vector<std::string> out;
  for (auto i : deciding_rules(d, row)) out.push_back(std::to_string(i + 1));
  return out;
}

std::vector<RulePoint> RuleModel::rule_points(const Dataset& test) const {
  std::vector<double> decided(rules.size(), 0.0), right(rules.size(), 0.0);
  for (std::size_t r = 0; r < test.rows(); ++r) {
    if (test.y[r] < 0) continue;
    for (auto i : deciding_rules(test, r)) {
      decided[i] += test.weights[r];
      if (test.y[r] == rules[i].klass) right[i] += test.weights[r];
    }
  }
  std::vector<RulePoint> out;
  for (std::size_t i = 0; i < rules.size(); ++i)
    if (decided[i] > 0)
      out.push_back({rules[i].probability, right[i] / decided[i], decided[i], rules[i].interval.first,
                     rules[i].interval.second, static_cast<int>(i + 1)});
  return out;
}

const std::vector<double>& RuleModel::estimated_on(const Rule& r) const {
  return kind == ModelKind::rule_set ? r.training_counts : r.class_counts;
}

std::pair<double, double> RuleModel::frequency_interval(const Rule& r) const {
  const auto& counts = estimated_on(r);
  return clopper_pearson(counts[static_cast<std::size_t>(r.klass)], std::accumulate(counts.begin(), counts.end(), 0.0));
}

double RuleModel::mean_rule_length() const {
  if (rules.empty()) return 0.0;
  double total = 0;
  for (const auto& r : rules) total += static_cast<double>(r.conditions.size());
  return total / static_cast<double>(rules.size());
}

// ---- JSON -------------------------------------------------------------------------------------------

namespace {

const char* kind_label(ModelKind k) {
  return k == ModelKind::decision_list ? "decision-list" : k == ModelKind::rule_set ? "rule-set" : "best-rule-set";
}

}  // namespace

std::string RuleModel::kind_name() const { return kind_label(kind); }

nlohmann::json RuleModel::to_json() const {
  const RuleModel& m = *this;
  nlohmann::json j = model_header_json(m);
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : m.rules) {
    const auto [lo, hi] = r.interval;
    nlohmann::json conds = nlohmann::json::array();
    for (const auto& c : r.conditions) {
      const Attribute& a = m.schema.attributes[c.attribute];
      nlohmann::json cj{{"attribute", a.name}, {"op", op_symbol(c.op)}};
      if (a.is_nominal())
        cj["value"] = a.values[c.value];
      else
        cj["value"] = c.threshold;
      conds.push_back(std::move(cj));
    }
    // Entries set one by one rather than through an initializer list, which would copy the conditions.
    nlohmann::json rule = nlohmann::json::object();
    rule["class"] = m.schema.class_attribute.values[r.klass];
    rule["conditions"] = std::move(conds);
    rule["covered"] = r.covered();
    rule["class_counts"] = r.class_counts;
    rule["training_counts"] = r.training_counts;
    rule["quality"] = r.quality;
    rule["probability"] = r.probability;
    rule["interval"] = {lo, hi};
    if (r.stable_frequency > 0) rule["stable_frequency"] = r.stable_frequency;
    if (r.additive) rule["additive"] = true;
    rules.push_back(std::move(rule));
  }
  j["rules"] = std::move(rules);
  j["default"] = {{"class_counts", m.default_counts}, {"probability", m.default_distribution()}};
  j["settings"] = rule_model_settings_json(m.settings, m.kind);
  if (m.evc) j["evc"] = calibration_to_json(*m.evc, m.schema.class_attribute.values);
  if (m.additive_evc) j["additive_evc"] = calibration_to_json(*m.additive_evc, m.schema.class_attribute.values);
  if (m.bootstrap) j["bootstrap"] = bootstrap_shrinkage_json(*m.bootstrap);
  return j;
}

namespace {

// Class counts as a model file states them: one finite, non-negative entry per class.
void check_counts(const std::vector<double>& v, std::size_t classes, const char* what) {
  if (v.size() != classes) throw std::invalid_argument(std::string(what) + " must have one entry per class");
  for (double x : v)
    if (!(x >= 0) || !std::isfinite(x))
      throw std::invalid_argument(std::string(what) + " must be finite and non-negative");
}

Condition condition_from_json(const nlohmann::json& cj, const Schema& schema) {
  check_known_entries(cj, {{"attribute"}, {"op"}, {"value"}});
  Condition c;
  std::string name = json_get<std::string>(cj, "attribute");
  c.attribute = schema.attribute_index(name);
  if (c.attribute < 0) throw JsonEntryError(cj.at("attribute"), "condition on unknown attribute '" + name + "'");
  const Attribute& a = schema.attributes[c.attribute];
  std::string op = json_get<std::string>(cj, "op");
  if (a.is_nominal()) {
    if (op == "==" || op == "=")
      c.op = Op::eq;
    else if (op == "!=")
      c.op = Op::ne;
    else
      throw JsonEntryError(cj.at("op"), "operator '" + op + "' is not valid on nominal attribute '" + name + "'");
    c.value = a.value_index(json_get<std::string>(cj, "value"));
    if (c.value < 0)
      throw JsonEntryError(cj.at("value"), "unknown value " + cj.at("value").dump() + " of '" + name + "'");
  } else {
    if (op == "<=")
      c.op = Op::le;
    else if (op == ">")
      c.op = Op::gt;
    else
      throw JsonEntryError(cj.at("op"), "operator '" + op + "' is not valid on numeric attribute '" + name + "'");
    c.threshold = json_get<double>(cj, "value");
  }
  return c;
}

Rule rule_from_json(const nlohmann::json& rj, const Schema& schema) {
  check_known_entries(rj, {{"class"},
                           {"conditions"},
                           {"covered"},
                           {"class_counts"},
                           {"training_counts"},
                           {"quality"},
                           {"probability"},
                           {"interval"},
                           {"stable_frequency"},
                           {"additive"}});
  const std::size_t k = schema.class_attribute.values.size();
  Rule r;
  r.klass = schema.class_attribute.value_index(json_get<std::string>(rj, "class"));
  if (r.klass < 0) throw JsonEntryError(rj.at("class"), "rule predicts unknown class " + rj.at("class").dump());
  if (!rj.at("conditions").is_array()) throw JsonEntryError(rj.at("conditions"), "must be a list of conditions");
  for (const auto& cj : rj.at("conditions"))
    r.conditions.push_back(read_entry(cj, [&] { return condition_from_json(cj, schema); }));
  r.class_counts = json_get<std::vector<double>>(rj, "class_counts");
  r.training_counts = json_get<std::vector<double>>(rj, "training_counts");
  check_counts(r.class_counts, k, "rule class_counts");
  check_counts(r.training_counts, k, "rule training_counts");
  r.quality = json_get<double>(rj, "quality");
  r.probability = json_get<double>(rj, "probability");
  if (!(r.probability >= 0 && r.probability <= 1))
    throw JsonEntryError(rj.at("probability"), "rule probability " + rj.at("probability").dump() + " is not in [0, 1]");
  if (rj.contains("interval")) {
    const auto stated = json_get<std::vector<double>>(rj, "interval");
    if (stated.size() != 2 || !(stated[0] >= 0 && stated[0] <= stated[1] && stated[1] <= 1))
      throw JsonEntryError(rj.at("interval"),
                           "interval " + rj.at("interval").dump() + " is not an interval within [0, 1]");
    r.interval = {stated[0], stated[1]};
  }
  if (rj.contains("stable_frequency")) {
    r.stable_frequency = json_get<double>(rj, "stable_frequency");
    if (!(r.stable_frequency > 0 && r.stable_frequency <= 1))
      throw JsonEntryError(rj.at("stable_frequency"), "stable_frequency " + rj.at("stable_frequency").dump() +
                                                          " is not a share of resamples in (0, 1]");
  }
  if (rj.contains("additive")) r.additive = json_get<bool>(rj, "additive");
  if (!std::isfinite(r.quality)) throw JsonEntryError(rj.at("quality"), "rule quality must be finite");
  return r;
}

// What candor writes beside each rule for its readers follows from the counts (covered weight) or holds
// the probability (interval): a file where it does not was edited by hand or damaged.
void check_rule_statements(const RuleModel& m, const nlohmann::json& rules_json) {
  for (std::size_t index = 0; index < m.rules.size(); ++index) {
    const auto& rj = rules_json[index];
    auto same = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
    if (rj.contains("covered") && !same(json_get<double>(rj, "covered"), m.rules[index].covered()))
      throw JsonEntryError(rj.at("covered"),
                           "covered " + rj.at("covered").dump() + " is not the sum of its class_counts");
    // Files written before intervals belonged to the probability state the frequency's; they load as
    // they are. A newer interval must hold the probability it is of.
    const Rule& r = m.rules[index];
    const auto [f_lo, f_hi] = m.frequency_interval(r);
    const bool frequency_interval = same(r.interval.first, f_lo) && same(r.interval.second, f_hi);
    const double slack = 1e-9;
    if (rj.contains("interval") && !frequency_interval &&
        !(r.interval.first <= r.probability + slack && r.probability <= r.interval.second + slack))
      throw JsonEntryError(rj.at("interval"), "interval " + rj.at("interval").dump() +
                                                  " does not hold the probability " + rj.at("probability").dump());
  }
}

}  // namespace

RuleModel RuleModel::from_json(const nlohmann::json& j) {
  RuleModel m;
  std::string kind = json_get<std::string>(j, "model");
  if (kind == "decision-list")
    m.kind = ModelKind::decision_list;
  else if (kind == "rule-set")
    m.kind = ModelKind::rule_set;
  else if (kind == "best-rule-set")
    m.kind = ModelKind::best_rule;
  else
    throw std::invalid_argument("not a rule model: '" + kind + "'");
  read_model_header(j, m, {{"rules"}, {"default"}, {"evc"}, {"additive_evc"}, {"bootstrap"}, {"settings"}});
  const std::size_t k = m.schema.class_attribute.values.size();
  check_counts(m.training_counts, k, "training class_counts");
  const auto& rules_json = j.at("rules");
  if (!rules_json.is_array()) throw std::invalid_argument("\"rules\" must be a list");
  // Every problem names the rule, as a JSON pointer into the file.
  for (const auto& rj : rules_json) m.rules.push_back(read_entry(rj, [&] { return rule_from_json(rj, m.schema); }));
  check_known_entries(j.at("default"), {{"class_counts"}, {"probability"}});
  m.default_counts = json_get<std::vector<double>>(j.at("default"), "class_counts");
  check_counts(m.default_counts, k, "default class_counts");
  if (j.contains("evc")) m.evc = calibration_from_json(j.at("evc"), m.schema.class_attribute.values);
  m.use(j.contains("settings") ? rule_model_settings_from_json(j.at("settings"), m.kind)
                               : rule_settings_of_older_file(j, m.kind));
  if (j.contains("additive_evc"))
    m.additive_evc = read_entry(j.at("additive_evc"), [&] {
      return calibration_from_json(j.at("additive_evc"), m.schema.class_attribute.values);
    });
  if (m.settings.estimate == RuleEstimate::evc && !m.evc && !m.rules.empty())
    throw std::invalid_argument("an evc model needs its \"evc\" calibration");
  if (m.settings.estimate == RuleEstimate::evc && !m.additive_evc)
    for (std::size_t k = 0; k < m.rules.size(); ++k)
      if (m.rules[k].additive)
        throw JsonEntryError(rules_json[k].at("additive"),
                             "an additive rule of an evc model needs the model's \"additive_evc\" calibration");
  if (j.contains("bootstrap"))
    m.bootstrap = read_entry(j.at("bootstrap"), [&] { return bootstrap_shrinkage_from_json(j.at("bootstrap")); });
  if (m.settings.estimate == RuleEstimate::bootstrap && !m.bootstrap)
    throw std::invalid_argument("a --correct bootstrap model needs its \"bootstrap\" shrinkage");
  check_rule_statements(m, rules_json);
  return m;
}

RuleModel load_rule_model(const std::string& path) {
  auto model = load_model(path);
  auto* rules = dynamic_cast<RuleModel*>(model.get());
  if (!rules) throw InputError(path, 0, "a " + model->kind_name() + " model, not a rule model");
  return std::move(*rules);
}

// ---- text -------------------------------------------------------------------------------------------

namespace {
double relative_frequency(const std::vector<double>& counts, int klass) {
  const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
  return n > 0 ? counts[static_cast<std::size_t>(klass)] / n : 0.0;
}
std::string counts_text(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    s += (i ? ", " : "");
    s += count_text(v[i]);
  }
  return s + "]";
}
}  // namespace

std::string format_rule(const Rule& r, const Schema& schema) {
  return "IF " + describe_conditions(r.conditions, schema) + " THEN " + schema.class_attribute.name + " = " +
         schema.class_attribute.values[r.klass];
}

std::string RuleModel::text(const std::string& learner) const { return format_rules(*this, learner); }

nlohmann::json RuleModel::rule_table() const {
  // The names mean what they mean in the model file and in `candor rules`: covered and class_counts count
  // the examples the rule was learned from (those its covering step still had); training_covered and
  // training_counts count every training row it covers.
  nlohmann::json rows = nlohmann::json::array();
  auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
  // covering+additive's models say of every rule which learner found it.
  const bool any_additive = std::any_of(rules.begin(), rules.end(), [](const Rule& r) { return r.additive; });
  for (std::size_t k = 0; k < rules.size(); ++k) {
    const Rule& r = rules[k];
    const auto [low, high] = r.interval;
    rows.push_back({{"id", k + 1},
                    {"rule", describe_conditions(r.conditions, schema)},
                    {"class", schema.class_attribute.values[r.klass]},
                    {"covered", sum(r.class_counts)},
                    {"class_counts", r.class_counts},
                    {"training_covered", sum(r.training_counts)},
                    {"training_counts", r.training_counts},
                    {"quality", r.quality},
                    {"probability", r.probability},
                    {"interval_low", low},
                    {"interval_high", high}});
    if (r.stable_frequency > 0) rows.back()["stable_frequency"] = r.stable_frequency;
    if (any_additive) rows.back()["additive"] = r.additive;
  }
  return rows;
}

std::vector<std::vector<std::size_t>> RuleModel::fired_rules(const Dataset& d) const {
  std::vector<std::vector<std::size_t>> out(d.rows());
  for (std::size_t r = 0; r < d.rows(); ++r) out[r] = deciding_rules(d, r);
  return out;
}

double BootstrapShrinkage::m_for_length(std::size_t length) const {
  if (length >= 1 && length <= m_by_length.size() && rules_by_length[length - 1] > 0) return m_by_length[length - 1];
  return pooled_m;
}

nlohmann::json bootstrap_shrinkage_json(const BootstrapShrinkage& b) {
  return {{"resamples", b.resamples},
          {"m_by_length", b.m_by_length},
          {"rules_by_length", b.rules_by_length},
          {"pooled_m", b.pooled_m},
          {"pooled_rules", b.pooled_rules}};
}

BootstrapShrinkage bootstrap_shrinkage_from_json(const nlohmann::json& j) {
  check_known_entries(j, {{"resamples"}, {"m_by_length"}, {"rules_by_length"}, {"pooled_m"}, {"pooled_rules"}});
  BootstrapShrinkage b;
  b.resamples = json_int(j.at("resamples"), "resamples", 1);
  b.m_by_length = json_get<std::vector<double>>(j, "m_by_length");
  for (const auto& n : j.at("rules_by_length"))
    b.rules_by_length.push_back(
        static_cast<std::size_t>(json_integer(n, "rules_by_length", 0, std::numeric_limits<long long>::max())));
  b.pooled_m = json_get<double>(j, "pooled_m");
  b.pooled_rules = static_cast<std::size_t>(
      json_integer(j.at("pooled_rules"), "pooled_rules", 0, std::numeric_limits<long long>::max()));
  if (b.m_by_length.size() != b.rules_by_length.size())
    throw std::invalid_argument("m_by_length and rules_by_length must have one entry per rule length");
  for (double m : b.m_by_length)
    if (!(m >= 0) || !std::isfinite(m))
      throw JsonEntryError(j.at("m_by_length"), "every m must be finite and non-negative");
  if (!(b.pooled_m >= 0) || !std::isfinite(b.pooled_m))
    throw JsonEntryError(j.at("pooled_m"), "pooled_m must be finite and non-negative");
  return b;
}

std::string format_bootstrap_shrinkage(const BootstrapShrinkage& b) {
  std::ostringstream out;
  out << "Bootstrap correction: " << b.resamples
      << " resamples; P = (s + m prior) / (n + m) with m fitted on the left-out rows by rule length:";
  for (std::size_t l = 0; l < b.m_by_length.size(); ++l)
    if (b.rules_by_length[l] > 0)
      out << "  L" << (l + 1) << " m " << fixed_digits(b.m_by_length[l], 2) << " ("
          << counted(b.rules_by_length[l], "rule") << ")";
  out << "  other lengths (all rules pooled) m " << fixed_digits(b.pooled_m, 2) << " ("
      << counted(b.pooled_rules, "rule") << ")\n";
  return out.str();
}

std::string format_evc_calibration(const EvcCalibration& evc, const Schema& schema, const std::string& of) {
  std::ostringstream out;
  const auto& cls = schema.class_attribute;
  out << "EVC calibration" << (of.empty() ? "" : " of " + of) << ": " << evc.settings.permutations
      << " class permutations (seed " << evc.settings.seed << "), Gumbel fit " << gumbel_fit_name(evc.settings.fit)
      << "; laws of the best LRS by rule length:\n";
  for (std::size_t k = 0; k < evc.laws.size(); ++k) {
    if (evc.laws[k].empty()) continue;
    out << "  " << cls.values[k] << ":";
    for (std::size_t l = 0; l < evc.laws[k].size(); ++l)
      out << "  L" << (l + 1) << " mu " << fixed_digits(evc.laws[k][l].mu, 2) << " beta "
          << fixed_digits(evc.laws[k][l].beta, 2);
    out << "\n";
  }
  return out.str();
}

std::string format_evc_calibrations(const RuleModel& m) {
  std::string out;
  if (m.evc) out += format_evc_calibration(*m.evc, m.schema);
  if (m.additive_evc)
    out += format_evc_calibration(*m.additive_evc, m.schema,
                                  "the additive rules (one-condition gradient rules, marked \"additive\")");
  return out;
}

std::string format_rules(const RuleModel& m, const std::string& learner) {
  std::ostringstream out;
  const auto& cls = m.schema.class_attribute;
  // Weighted training data: every count below is a sum of example weights, which a reader must not take
  // for rows.
  const double total = std::accumulate(m.training_counts.begin(), m.training_counts.end(), 0.0);
  const bool weighted = std::abs(total - static_cast<double>(m.training_rows)) > 1e-9 * std::max(1.0, total);
  out << (m.kind == ModelKind::decision_list ? "Decision list"
          : m.kind == ModelKind::rule_set    ? "Unordered rule set"
                                             : "Rule set, the matching rule of highest quality decides")
      << " by " << learner << ", learned from " << m.training_source << ": " << m.training_rows << " rows, "
      << m.schema.attributes.size() << " attributes, class '" << cls.name << "' " << (weighted ? "weights " : "")
      << counts_text(m.training_counts) << " for (";
  for (std::size_t c = 0; c < cls.values.size(); ++c) out << (c ? ", " : "") << cls.values[c];
  out << ")\n";
  out << format_evc_calibrations(m);
  if (m.bootstrap) out << format_bootstrap_shrinkage(*m.bootstrap);
  out << counted(m.rules.size(), "rule") << "; class counts are of the examples each rule was learned from";
  if (m.kind == ModelKind::rule_set) out << " (probabilities and votes use the whole training set)";
  // A learner that ranks no candidates by a measure (one attribute's rules, a tree's leaves) names none.
  if (!m.settings.quality.empty())
    out << "; quality is the rule's score under the learner's ranking measure (" << m.settings.quality
        << ") on those examples";
  out << ".\nP is the learner's estimate"
      << (m.settings.estimate == RuleEstimate::evc         ? ", corrected for the search by EVC"
          : m.settings.estimate == RuleEstimate::bootstrap ? ", corrected for the search by bootstrap shrinkage"
                                                           : " (not corrected for the search)")
      << "; its 95% interval runs from that estimate at the lower end of the Clopper-Pearson interval of the "
         "relative frequency f on n examples to that interval's upper end.\n";
  if (m.kind == ModelKind::rule_set) out << "Rules are combined by " << m.settings.combine << ".\n";
  if (weighted)
    out << "The training data is weighted: every count (covers, class counts, n) is a sum of example weights, not "
           "rows.\n";
  out << "\n";
  for (std::size_t i = 0; i < m.rules.size(); ++i) {
    const Rule& r = m.rules[i];
    const auto [lo, hi] = r.interval;
    const auto& counts = m.estimated_on(r);
    out << (i + 1) << ". " << format_rule(r, m.schema) << "\n"
        << "   covers " << count_text(r.covered()) << " " << counts_text(r.class_counts) << "  quality "
        << fixed_digits(r.quality, 4) << "\n   P(" << cls.values[r.klass] << ") = " << fixed_digits(r.probability, 4)
        << "  [" << fixed_digits(lo, 3) << ", " << fixed_digits(hi, 3)
        << "]  f = " << fixed_digits(relative_frequency(counts, r.klass), 4)
        << " of n = " << count_text(std::accumulate(counts.begin(), counts.end(), 0.0)) << "\n";
    if (r.stable_frequency > 0) out << "   " << r.stable_frequency_text() << "\n";
    if (r.additive) out << "   additive\n";
  }
  auto dist = m.default_distribution();
  int def = static_cast<int>(std::max_element(dist.begin(), dist.end()) - dist.begin());
  out << (m.rules.size() + 1) << ". DEFAULT " << cls.name << " = " << cls.values[def] << "\n   counts "
      << counts_text(m.default_counts) << "  P(" << cls.values[def] << ") = " << fixed_digits(dist[def], 4) << "\n";
  return out.str();
}

std::vector<RuleShape> RuleModel::rule_shapes() const {
  std::vector<RuleShape> out;
  for (const Rule& r : rules) out.push_back({r.conditions, {}, r.klass});
  return out;
}

}  // namespace candor
