#include "candor/model/logistic_rule_model.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "candor/linear/penalised_logistic.hpp"
#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"

namespace candor {

namespace {

std::string signed_fixed(double x, int digits) {
  std::ostringstream s;
  s << std::showpos << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

nlohmann::json matrix_json(const Eigen::MatrixXd& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    std::vector<double> row(static_cast<std::size_t>(m.cols()));
    for (Eigen::Index j = 0; j < m.cols(); ++j) row[static_cast<std::size_t>(j)] = m(i, j);
    rows.push_back(row);
  }
  return rows;
}

Eigen::MatrixXd matrix_from_json(const nlohmann::json& j, Eigen::Index rows, Eigen::Index cols, const char* what) {
  if (!j.is_array() || static_cast<Eigen::Index>(j.size()) != rows)
    throw JsonEntryError(j, std::string(what) + " must have one row per logit");
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const auto& row_json = j[static_cast<std::size_t>(i)];
    const auto row = row_json.get<std::vector<double>>();
    if (static_cast<Eigen::Index>(row.size()) != cols)
      throw JsonEntryError(row_json, std::string(what) + " has a row of the wrong length");
    for (Eigen::Index c = 0; c < cols; ++c) {
      m(i, c) = row[static_cast<std::size_t>(c)];
      if (!std::isfinite(m(i, c))) throw JsonEntryError(row_json, std::string(what) + " must be finite");
    }
  }
  return m;
}

}  // namespace

Eigen::VectorXd LogisticRuleModel::logits(const Dataset& d, std::size_t row) const {
  Eigen::VectorXd eta = intercepts;
  for (std::size_t c = 0; c < encoding.size(); ++c) {
    const double x = encoding.value(d, row, c);
    if (x != 0) eta += attribute_weights.col(static_cast<Eigen::Index>(c)) * x;
  }
  for (std::size_t k = 0; k < rules.rules.size(); ++k)
    if (rules.rules[k].covers(d, row)) eta += rule_weights.col(static_cast<Eigen::Index>(k));
  return eta;
}

std::vector<double> link_probabilities(LogisticLink link, const Eigen::VectorXd& eta) {
  if (link != LogisticLink::one_vs_rest) return logit_probabilities(eta.data(), static_cast<int>(eta.size()));
  std::vector<double> p(static_cast<std::size_t>(eta.size()));
  double sum = 0;
  for (Eigen::Index j = 0; j < eta.size(); ++j) {
    p[static_cast<std::size_t>(j)] = logit_probabilities(&eta[j], 1)[1];
    sum += p[static_cast<std::size_t>(j)];
  }
  for (auto& x : p) x /= sum;
  return p;
}

std::vector<double> LogisticRuleModel::predict_proba(const Dataset& d, std::size_t row) const {
  return link_probabilities(link, logits(d, row));
}

std::vector<std::string> LogisticRuleModel::explain(const Dataset& d, std::size_t row) const {
  const Eigen::VectorXd eta = logits(d, row);
  const auto p = link_probabilities(link, eta);
  const int predicted = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
  // A feature's effect on the predicted class: its share of that class's logit; for softmax against the
  // mean over the logits (adding the same to every logit changes nothing); for one logit, towards class 1.
  auto effect = [&](const Eigen::VectorXd& column) {
    if (link == LogisticLink::binary) return predicted == 1 ? column[0] : -column[0];
    if (link == LogisticLink::softmax) return column[predicted] - column.mean();
    return column[predicted];
  };
  std::vector<std::pair<double, std::string>> parts;
  for (std::size_t c = 0; c < encoding.size(); ++c) {
    const double x = encoding.value(d, row, c);
    if (x == 0) continue;
    const double e = effect(attribute_weights.col(static_cast<Eigen::Index>(c)) * x);
    if (e != 0) parts.emplace_back(e, encoding.name(c, schema));
  }
  for (std::size_t k = 0; k < rules.rules.size(); ++k)
    if (rules.rules[k].covers(d, row)) {
      const double e = effect(rule_weights.col(static_cast<Eigen::Index>(k)));
      if (e != 0) parts.emplace_back(e, "rule " + std::to_string(k + 1));
    }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < parts.size() && i < 5; ++i)
    out.push_back(parts[i].second + " " + signed_fixed(parts[i].first, 2));
  return out;
}

std::vector<RulePoint> LogisticRuleModel::rule_points(const Dataset& test) const {
  std::vector<RulePoint> out;
  for (std::size_t k = 0; k < rules.rules.size(); ++k) {
    const Rule& r = rules.rules[k];
    double n = 0, s = 0;
    for (std::size_t row = 0; row < test.rows(); ++row) {
      if (test.y[row] < 0 || !r.covers(test, row)) continue;
      n += test.weights[row];
      if (test.y[row] == r.klass) s += test.weights[row];
    }
    if (n > 0) out.push_back({r.probability, s / n, n, r.interval.first, r.interval.second, static_cast<int>(k + 1)});
  }
  return out;
}

nlohmann::json logistic_rule_model_settings_json(const LogisticRuleModelSettings& s) {
  return {{"features", name_of(kLogisticFeatureNames, s.features)},
          {"penalty", name_of(kLogisticPenaltyNames, s.penalty)},
          {"rule_penalty", name_of(kRulePenaltyNames, s.rule_penalty)}};
}

LogisticRuleModelSettings logistic_rule_model_settings_from_json(const nlohmann::json& j) {
  return read_entry(j, [&] {
    check_known_entries(j, {{"features"}, {"penalty"}, {"rule_penalty"}});
    return LogisticRuleModelSettings{settings_name(j, "features", kLogisticFeatureNames),
                                     settings_name(j, "penalty", kLogisticPenaltyNames),
                                     settings_name(j, "rule_penalty", kRulePenaltyNames)};
  });
}

namespace {

// The settings of a file written before models recorded their own: the learner's options, as it wrote them.
LogisticRuleModelSettings logistic_settings_of_older_file(const nlohmann::json& learner) {
  return read_entry(learner, [&] {
    return LogisticRuleModelSettings{
        parse_named(kLogisticFeatureNames, "features", learner_text(learner, "features", "rules")),
        parse_named(kLogisticPenaltyNames, "penalty", learner_text(learner, "penalty", "l2")),
        parse_named(kRulePenaltyNames, "rule penalty", learner_text(learner, "rule_penalty", "gamma"))};
  });
}

}  // namespace

std::string LogisticRuleModel::text(const std::string& learner) const {
  std::ostringstream out;
  const auto& cls = schema.class_attribute;
  const Eigen::Index logit_count = intercepts.size();
  out << "Logistic regression over " << counted(rules.rules.size(), "rule");
  if (settings.features != LogisticFeatures::rules) out << " and " << encoding.size() << " attribute columns";
  out << " by " << learner << ", learned from " << training_source << ": " << training_rows << " rows, class '"
      << cls.name << "'\n";
  out << "Link " << link_name(link);
  if (link == LogisticLink::binary) out << " (the logit of " << cls.name << " = " << cls.values[1] << ")";
  out << "; loss = log loss + " << (settings.penalty == LogisticPenalty::l1 ? "lambda ||w||_1" : "lambda/2 ||w||^2")
      << " (intercepts unpenalised)"
      << (settings.rule_penalty == RulePenalty::gamma || lambda_search.keeps_gamma() ? " + sum gamma_k |b_k|" : "")
      << ", lambda = " << lambda;
  if (!lambda_search.grid.empty() && !lambda_search.keeps_gamma()) {
    const auto best = std::min_element(lambda_search.log_loss.begin(), lambda_search.log_loss.end());
    out << " (chosen by " << lambda_search.folds << "-fold cross-validation of "
        << lambda_search_subject(lambda_search.on) << " on log loss, " << fixed_digits(*best, 4) << ")";
  }
  if (settings.rule_penalty == RulePenalty::relaxed) {
    out << "\nRelaxed: the gamma penalty chose the rules; ";
    if (lambda_search.keeps_gamma())
      out << "its own weights are kept (cross-validated log loss " << fixed_digits(*lambda_search.gamma_log_loss, 4)
          << ", no L2 weighing lower)";
    else
      out << "an L2 penalty alone weighs them"
          << (lambda_search.gamma_log_loss ? " (the gamma penalty's own weights: cross-validated log loss " +
                                                 fixed_digits(*lambda_search.gamma_log_loss, 4) + ")"
                                           : std::string());
  }
  out << "\n";
  out << format_evc_calibrations(rules);
  if (rules.bootstrap) out << format_bootstrap_shrinkage(*rules.bootstrap);
  out << "Intercepts:";
  for (Eigen::Index j = 0; j < logit_count; ++j)
    out << " " << (link == LogisticLink::binary ? cls.values[1] : cls.values[static_cast<std::size_t>(j)]) << " "
        << signed_fixed(intercepts[j], 3);
  out << "\n";
  auto column_label = [&](Eigen::Index j) {
    return link == LogisticLink::binary ? std::string() : cls.values[static_cast<std::size_t>(j)] + " ";
  };
  auto weights_text = [&](const Eigen::VectorXd& col) {
    std::string s;
    for (Eigen::Index j = 0; j < col.size(); ++j) s += (j ? ", " : "") + column_label(j) + signed_fixed(col[j], 3);
    return s;
  };

  std::vector<std::size_t> order(rules.rules.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rule_importance(a) > rule_importance(b); });
  if (rules.rules.empty()) {
    if (rules_without_weight > 0) out << "\nNo rules with a weight.\n";
  } else {
    out << "\nRules, most important first (importance = |weight| x sd of the rule feature in training); the weight "
           "is added to the logit of the rule's class when it fires, P is the "
        << (rules.settings.estimate == RuleEstimate::evc ? "rule learner's estimate, corrected for the search by EVC"
            : rules.bootstrap ? "rule learner's estimate, corrected for the search by bootstrap shrinkage"
                              : "rule learner's estimate (not corrected for the search)")
        << ", of the probability of its class on the training set, with its 95% interval (from that estimate at the "
           "lower end of the Clopper-Pearson interval of the rule's relative frequency to that interval's upper "
           "end):\n";
  }
  std::vector<std::size_t> unused;  // rules the penalties left at weight 0
  for (auto k : order) {
    const Rule& r = rules.rules[k];
    const Eigen::VectorXd col = rule_weights.col(static_cast<Eigen::Index>(k));
    if (col.cwiseAbs().maxCoeff() < 1e-9) {
      unused.push_back(k);
      continue;
    }
    const double own = own_class_weight(k);
    out << (k + 1) << ". " << format_rule(r, schema) << "\n   weight " << signed_fixed(own, 3);
    if (link == LogisticLink::one_vs_rest) out << " (other classes' logits: " << weights_text(col) << ")";
    out << "  importance " << fixed_digits(rule_importance(k), 3) << "  P("
        << cls.values[static_cast<std::size_t>(r.klass)] << ") = " << fixed_digits(r.probability, 4) << " ["
        << fixed_digits(r.interval.first, 3) << ", " << fixed_digits(r.interval.second, 3) << "]  gamma "
        << fixed_digits(rule_gamma[k], 2) << "  covers "
        << fixed_digits(std::accumulate(r.training_counts.begin(), r.training_counts.end(), 0.0), 0);
    if (r.stable_frequency > 0) out << "  " << r.stable_frequency_text();
    if (r.additive) out << "  additive";
    out << "\n";
  }
  if (!unused.empty()) {
    std::sort(unused.begin(), unused.end());
    out << unused.size() << " rule" << (unused.size() == 1 ? " has" : "s have")
        << " weight 0 (the penalties found no use for them beside the features above):";
    for (auto k : unused) out << " " << (k + 1);
    out << "\n";
  }
  if (rules_without_weight > 0) out << dropped_rules_sentence() << "\n";
  if (encoding.size() == 0) return out.str();
  std::vector<std::size_t> attrs(encoding.size());
  std::iota(attrs.begin(), attrs.end(), 0);
  std::stable_sort(attrs.begin(), attrs.end(),
                   [&](std::size_t a, std::size_t b) { return attribute_importance(a) > attribute_importance(b); });
  out << "\nAttribute columns, most important first (numeric ones per standard deviation):\n";
  for (auto c : attrs) {
    const Eigen::VectorXd col = attribute_weights.col(static_cast<Eigen::Index>(c));
    out << "  " << encoding.name(c, schema) << ": " << weights_text(col) << "  importance "
        << fixed_digits(attribute_importance(c), 3) << "\n";
  }
  return out.str();
}

double LogisticRuleModel::attribute_importance(std::size_t c) const {
  return attribute_weights.col(static_cast<Eigen::Index>(c)).cwiseAbs().maxCoeff() * attribute_spread[c];
}

double LogisticRuleModel::rule_importance(std::size_t k) const {
  return rule_weights.col(static_cast<Eigen::Index>(k)).cwiseAbs().maxCoeff() * rule_spread[k];
}

std::string LogisticRuleModel::dropped_rules_sentence() const {
  if (rules_without_weight == 0) return "";
  const bool one = rules_without_weight == 1;
  return std::to_string(rules_without_weight) + " more rule" + (one ? "" : "s") +
         " the rule learner found had weight 0 (the penalties found no use for " + (one ? "it" : "them") +
         " beside the model's other features) and " + (one ? "was" : "were") +
         " dropped from the model: " + (one ? "it changes" : "they change") + " no prediction";
}

nlohmann::json LogisticRuleModel::to_json() const {
  nlohmann::json j = model_header_json(*this);
  j["link"] = link_name(link);
  j["lambda"] = lambda;
  if (!lambda_search.grid.empty()) {
    j["lambda_search"] = {{"on", name_of(kLambdaSearchNames, lambda_search.on)},
                          {"folds", lambda_search.folds},
                          {"grid", lambda_search.grid},
                          {"log_loss", lambda_search.log_loss}};
    if (lambda_search.gamma_log_loss) j["lambda_search"]["gamma_log_loss"] = *lambda_search.gamma_log_loss;
  }
  j["intercepts"] = std::vector<double>(intercepts.data(), intercepts.data() + intercepts.size());
  j["attribute_columns"] = encoding.to_json(schema);
  j["attribute_spread"] = attribute_spread;
  j["attribute_weights"] = matrix_json(attribute_weights);
  j["rule_weights"] = matrix_json(rule_weights);
  j["rule_gamma"] = rule_gamma;
  j["rule_spread"] = rule_spread;
  j["rules_without_weight"] = rules_without_weight;
  j["rule_model"] = rules.to_json();
  j["settings"] = logistic_rule_model_settings_json(settings);
  return j;
}

LogisticRuleModel LogisticRuleModel::from_json(const nlohmann::json& j) {
  LogisticRuleModel m;
  read_model_header(j, m,
                    {{"link"},
                     {"lambda"},
                     {"lambda_search"},
                     {"intercepts"},
                     {"attribute_columns"},
                     {"attribute_spread"},
                     {"attribute_weights"},
                     {"rule_weights"},
                     {"rule_gamma"},
                     {"rule_spread"},
                     {"rules_without_weight"},
                     {"rule_model"},
                     {"settings"}});
  m.settings = j.contains("settings") ? logistic_rule_model_settings_from_json(j.at("settings"))
                                      : logistic_settings_of_older_file(m.learner);
  m.link = parse_named(kLogisticLinkNames, "link", json_get<std::string>(j, "link"));
  m.lambda = json_get<double>(j, "lambda");
  if (!(m.lambda >= 0) || !std::isfinite(m.lambda))
    throw JsonEntryError(j.at("lambda"), "lambda must be finite and non-negative");
  if (j.contains("lambda_search")) {
    const auto& s = j.at("lambda_search");
    check_known_entries(s, {{"on"}, {"folds"}, {"grid"}, {"log_loss"}, {"gamma_log_loss"}});
    m.lambda_search.on = parse_named(kLambdaSearchNames, "lambda search", json_get<std::string>(s, "on"));
    m.lambda_search.folds = json_int(s.at("folds"), "lambda search folds", 0);
    m.lambda_search.grid = json_get<std::vector<double>>(s, "grid");
    m.lambda_search.log_loss = json_get<std::vector<double>>(s, "log_loss");
    if (s.contains("gamma_log_loss")) {
      m.lambda_search.gamma_log_loss = json_get<double>(s, "gamma_log_loss");
      if (!std::isfinite(*m.lambda_search.gamma_log_loss) || *m.lambda_search.gamma_log_loss < 0)
        throw JsonEntryError(s.at("gamma_log_loss"), "gamma_log_loss must be finite and non-negative");
    }
  }
  const auto intercepts = json_get<std::vector<double>>(j, "intercepts");
  const std::size_t classes = m.schema.class_attribute.values.size();
  const std::size_t logit_count = m.link == LogisticLink::binary ? 1 : classes;
  if (intercepts.size() != logit_count)
    throw JsonEntryError(j.at("intercepts"),
                         "intercepts: " + std::to_string(logit_count) + " expected for this link and class");
  m.intercepts = Eigen::Map<const Eigen::VectorXd>(intercepts.data(), static_cast<Eigen::Index>(intercepts.size()));
  m.rules = RuleModel::from_json(j.at("rule_model"));
  m.encoding = AttributeEncoding::from_json(j.at("attribute_columns"), m.schema);
  const auto L = static_cast<Eigen::Index>(logit_count);
  m.attribute_weights =
      matrix_from_json(j.at("attribute_weights"), L, static_cast<Eigen::Index>(m.encoding.size()), "attribute_weights");
  m.rule_weights =
      matrix_from_json(j.at("rule_weights"), L, static_cast<Eigen::Index>(m.rules.rules.size()), "rule_weights");
  m.rule_gamma = json_get<std::vector<double>>(j, "rule_gamma");
  m.rule_spread = json_get<std::vector<double>>(j, "rule_spread");
  // Models written before zero-weight rules were dropped keep them among their rules and lack the count.
  if (j.contains("rules_without_weight"))
    m.rules_without_weight =
        static_cast<std::size_t>(json_integer(j.at("rules_without_weight"), "rules_without_weight", 0, 1LL << 40));
  m.attribute_spread = json_get<std::vector<double>>(j, "attribute_spread");
  for (const char* key : {"rule_gamma", "rule_spread"})
    if (j.at(key).size() != m.rules.rules.size())
      throw JsonEntryError(j.at(key), std::string(key) + " needs one entry per rule");
  if (m.attribute_spread.size() != m.encoding.size())
    throw JsonEntryError(j.at("attribute_spread"), "attribute_spread needs one entry per attribute column");
  if (m.rules.schema.attributes.size() != m.schema.attributes.size())
    throw std::invalid_argument("the rule model's attributes differ from the model's");
  return m;
}

double LogisticRuleModel::own_class_weight(std::size_t k) const {
  const int klass = rules.rules[k].klass;
  const Eigen::Index rule = static_cast<Eigen::Index>(k);
  // A binary model has one logit, the second class's: a rule of the first class lowers it.
  if (link == LogisticLink::binary) return klass == 1 ? rule_weights(0, rule) : -rule_weights(0, rule);
  return rule_weights(klass, rule);
}

nlohmann::json LogisticRuleModel::rule_table() const {
  nlohmann::json rows = rules.rule_table();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows[k]["weight"] = own_class_weight(k);
    rows[k]["gamma"] = k < rule_gamma.size() ? rule_gamma[k] : 0.0;
  }
  return rows;
}

std::vector<std::vector<std::size_t>> LogisticRuleModel::fired_rules(const Dataset& d) const {
  std::vector<std::vector<std::size_t>> out(d.rows());
  for (std::size_t r = 0; r < d.rows(); ++r)
    for (std::size_t k = 0; k < rules.rules.size(); ++k)
      if (rules.rules[k].covers(d, r)) out[r].push_back(k);
  return out;
}

std::vector<RuleShape> LogisticRuleModel::rule_shapes() const { return rules.rule_shapes(); }

std::vector<double> LogisticRuleModel::rule_importances() const {
  std::vector<double> out(rules.rules.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = rule_importance(k);
  return out;
}

std::vector<double> LogisticRuleModel::attribute_column_importances() const {
  std::vector<double> out(schema.attributes.size(), 0.0);
  for (std::size_t c = 0; c < encoding.size(); ++c)
    out[static_cast<std::size_t>(encoding.columns[c].attribute)] += attribute_importance(c);
  return out;
}

}  // namespace candor
