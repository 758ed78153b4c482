#pragma once
// A PrIL tree (paper 004): a complete tree over the branching attributes, then in each branch the rule sets
// subset elimination posted, in order. A case takes its branch, then the first rule set with a rule for its
// value (combination) decides: that rule's class, and its reliability, which holds with confidence
// 1 - risk. A case no rule covers is undecided.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/model/model.hpp"
#include "candor/pril/categories.hpp"
#include "candor/pril/subset_elimination.hpp"

namespace candor {

struct PrilBranch {
  std::vector<int> values;           // category of each branching attribute (-1: missing)
  std::vector<double> class_counts;  // training weight of each class in the branch
  std::vector<PrilRuleSet> sets;
};

struct PrilModel : Model {
  Categories categories;
  std::vector<int> branching;  // attribute indices
  std::vector<PrilBranch> branches;
  double adjusted_average_reliability = 0;  // training: mean reliability of the deciding rule, undecided as 0
  double training_undecided = 0;            // training: share of the weight left undecided
  // The risk each reliability was tested at (--risk): its confidence is 1 - risk. The learner sets it; the
  // model file holds it as its "settings" {"risk": ...}.
  double risk = 0.05;

  std::string kind_name() const override { return "pril"; }
  // A deciding rule: its Laplace share (correct + 1) / (covered + classes) for its class, the rest shared in
  // proportion to the prior; undecided: the branch's Laplace-smoothed training distribution.
  std::vector<double> predict_proba(const Dataset& d, std::size_t row) const override;
  bool decides(const Dataset& d, std::size_t row) const override { return find(d, row).rule != nullptr; }
  // The deciding rule's number in text(), or "undecided".
  std::vector<std::string> explain(const Dataset& d, std::size_t row) const override;
  std::string text(const std::string& learner) const override;
  nlohmann::json to_json() const override;
  // Every rule: conditions (branch included), class, covered and correct training weight, reliability and
  // confidence.
  nlohmann::json rule_table() const override;
  std::vector<std::vector<std::size_t>> fired_rules(const Dataset& d) const override;
  std::vector<RuleShape> rule_shapes() const override;
  std::size_t rule_count() const override;
  double mean_rule_length() const override;
  // Each rule deciding test examples: its reliability (a lower bound, not an estimate) against its test
  // accuracy.
  std::vector<RulePoint> rule_points(const Dataset& test) const override;
  std::vector<std::pair<std::string, double>> training_statistics() const override;
  static PrilModel from_json(const nlohmann::json& j);

  struct Decision {
    const PrilBranch* branch = nullptr;
    const PrilRuleSet* set = nullptr;
    const PrilRule* rule = nullptr;
    int number = 0;  // 1-based rule number in text()
  };
  Decision find(const Dataset& d, std::size_t row) const;
  // The rule's conditions as text.
  std::string rule_text(const PrilBranch& b, const PrilRuleSet& s, const PrilRule& r) const;
};

}  // namespace candor
