#pragma once
// A logistic regression over rules and original attributes (paper 000, section 4.3.3): each rule of a CN2
// rule set is a 0/1 feature (1 when it covers the example), the attributes enter as AttributeEncoding
// columns, and the class probabilities come from the logits
//
//   eta_j = intercept_j + sum_c attribute_weights(j, c) x_c + sum_k rule_weights(j, k) r_k(x)
//
// by the link: binary (one logit, of the second class value), softmax (one logit per class) or
// one-vs-rest (a sigmoid per class, normalised to sum to 1).
#include <Eigen/Core>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "candor/linear/attribute_encoding.hpp"
#include "candor/model/lambda_search.hpp"
#include "candor/model/logistic_loss.hpp"
#include "candor/model/model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/util/names.hpp"

namespace candor {

enum class LogisticLink { binary, softmax, one_vs_rest };
// The model file's "link" (softmax and one-vs-rest also --multiclass's names).
inline constexpr Named<LogisticLink> kLogisticLinkNames[] = {
    {"binary", LogisticLink::binary}, {"softmax", LogisticLink::softmax}, {"one-vs-rest", LogisticLink::one_vs_rest}};
inline const char* link_name(LogisticLink link) { return name_of(kLogisticLinkNames, link); }
// Class probabilities from one row's logits by the link: logit_probabilities for binary and softmax, for
// one-vs-rest each class's sigmoid normalised to sum to 1.
std::vector<double> link_probabilities(LogisticLink link, const Eigen::VectorXd& eta);

// How lambda was chosen: the grid, each value's cross-validated log loss (empty when --lambda was given).
struct LambdaSearch {
  LambdaSearchOn on = LambdaSearchOn::none;  // model or attributes: which model's cross-validation chose it
  int folds = 0;
  std::vector<double> grid, log_loss;
  // --rule-penalty relaxed: the same cross-validation's log loss of the gamma penalty's own weights, which the
  // model keeps when no lambda's is lower.
  std::optional<double> gamma_log_loss;
  // Whether the weights are the gamma penalty's own (relaxed, where its loss was the lowest).
  bool keeps_gamma() const {
    return gamma_log_loss &&
           (log_loss.empty() || *gamma_log_loss <= *std::min_element(log_loss.begin(), log_loss.end()));
  }
};

// The loss of a rule-logistic model: its features, penalty and rule penalty, under the names of the options
// that set them (--features, --penalty, --rule-penalty). The model file's "settings"; reading throws
// JsonEntryError naming the entry.
struct LogisticRuleModelSettings {
  LogisticFeatures features = LogisticFeatures::rules;
  LogisticPenalty penalty = LogisticPenalty::l2;
  RulePenalty rule_penalty = RulePenalty::gamma;
};
nlohmann::json logistic_rule_model_settings_json(const LogisticRuleModelSettings& s);
LogisticRuleModelSettings logistic_rule_model_settings_from_json(const nlohmann::json& j);

struct LogisticRuleModel : Model {
  RuleModel rules;  // the rules used as features, with their statistics and EVC calibration
  AttributeEncoding encoding;
  LogisticLink link = LogisticLink::binary;
  Eigen::VectorXd intercepts;         // per logit
  Eigen::MatrixXd attribute_weights;  // logits x encoding columns
  Eigen::MatrixXd rule_weights;       // logits x rules, the rule's sign included
  // What rule k adds to the logit of its own class when it fires (the weight `candor rules` and rule_table
  // show): for a binary model, whose one logit is the second class's, the sign follows the rule's class.
  double own_class_weight(std::size_t k) const;
  // RuleFit's importance of rule k: its largest absolute weight on a logit times the standard deviation of its
  // 0/1 feature in training (rule_spread), the order `candor rules` lists the rules in.
  double rule_importance(std::size_t k) const;
  // The same of attribute column c: its largest absolute weight times its standard deviation in training.
  double attribute_importance(std::size_t c) const;
  std::vector<double> rule_gamma;  // gamma_k = s_k - q_k n_k of each rule in its own class's problem
  // Rules the rule learner found that the penalties left at weight 0 on every logit: dropped from `rules`
  // after the fit, since they change no prediction (the model file's "rules_without_weight").
  std::size_t rules_without_weight = 0;
  // "4 more rules the rule learner found had weight 0 ... and were dropped from the model" (empty when none
  // were): what `candor rules` and the report page say of them.
  std::size_t rules_dropped() const override { return rules_without_weight; }
  std::string dropped_rules_sentence() const override;
  double lambda = 0;
  LambdaSearch lambda_search;
  // The loss the model was fitted with, which text() states: its model file's "settings", set where the learner
  // fits it and read back with the file.
  LogisticRuleModelSettings settings;

  std::string kind_name() const override { return "rule-logistic"; }
  std::vector<double> predict_proba(const Dataset& d, std::size_t row) const override;
  // The five features that moved the predicted class's logit most (against the mean of the logits for
  // softmax), with their contributions: "rule 3 +1.20", "age -0.41".
  std::vector<std::string> explain(const Dataset& d, std::size_t row) const override;
  // Rules with weight, corrected probability and gamma, then attribute weights, most important first
  // (importance as in RuleFit: |weight| x the feature's standard deviation in training).
  std::string text(const std::string& learner) const override;
  nlohmann::json to_json() const override;
  // The rules' rows (RuleModel::rule_table) with each rule's weight on the logit of its class and gamma.
  nlohmann::json rule_table() const override;
  std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const override;
  std::vector<RuleShape> rule_shapes() const override;
  std::vector<double> rule_importances() const override;
  std::vector<double> attribute_column_importances() const override;
  std::size_t rule_count() const override { return rules.rules.size(); }
  double mean_rule_length() const override { return rules.mean_rule_length(); }
  // Every rule covering at least one labelled test example: its probability against the share of its
  // class among the examples it covers.
  std::vector<RulePoint> rule_points(const Dataset& test) const override;
  static LogisticRuleModel from_json(const nlohmann::json& j);

  // The logits of one row.
  Eigen::VectorXd logits(const Dataset& d, std::size_t row) const;
  // Each feature's spread in training (importance = |weight| x spread): 1 for a standardised column,
  // sqrt(p (1 - p)) for a 0/1 column or rule with training share p.
  std::vector<double> attribute_spread, rule_spread;
};

}  // namespace candor
