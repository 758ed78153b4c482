#include "candor/learn/learner.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "candor/learn/covering.hpp"
#include "candor/learn/rule_logistic.hpp"

namespace candor {

const std::vector<LearnerInfo>& learner_table() {
  // name, description, fit; defaults: quality, search, length, stop, combine, m scale (measured on the
  // whole corpus: docs/defaults.md); capabilities: only quality,
  // layered, separate heuristics, evc quality, correct evc, stopping, probabilistic covering, linear.
  static const std::vector<LearnerInfo> table{
      {"cn2-unordered",
       "rules per class (Clark and Boswell 1991), combined by --combine", fit_cn2_unordered, nullptr,
       "m-estimate", "beam", 5, "prior", "lift-product", 1.0, nullptr, false, false, true, true, true, true, false},
      {"cn2-ordered", "a decision list (Clark and Niblett 1989): the first firing rule decides", fit_cn2_ordered,
       nullptr, "m-estimate", "beam", 5, "prior", "", 1.0, nullptr, false, false, true, true, true, false, false},
      {"laplace-covering",
       "rules per class minimising the Laplace error, the matching rule of lowest error decides (paper 002, "
       "section 4)",
       fit_laplace_covering, nullptr, "laplace", "layered", kNoLengthLimit, "none", "", 0.0, "laplace", true, false,
       false, false, false, false, false},
      {"decision-list",
       "top-down hill-climbing separate-and-conquer with separate refinement and selection heuristics (paper 003)",
       fit_decision_list, nullptr, "laplace", "greedy", kNoLengthLimit, "none", "", 0.0, nullptr, false, true, false,
       true, true, false, false},
      {"rule-logistic",
       "L2 logistic regression over CN2 rules (0/1 features, learned by cn2-unordered with these rule options) "
       "and the attributes, each rule's weight penalised by gamma = s - q n (paper 000, section 4.3.3)",
       nullptr, fit_rule_logistic, "evc", "beam", 5, "prior", "", 1.0, nullptr, false, false, true, true, true, true,
       true},
  };
  return table;
}

std::string learners_markdown() {
  std::string out =
      "| learner | what | quality | m scale | search | max length | stop | combine |\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& l : learner_table()) {
    const std::string length = l.max_rule_length >= kNoLengthLimit ? "none" : std::to_string(l.max_rule_length);
    const std::string combine = l.linear                       ? "(logistic weights)"
                                : std::string(l.combine).empty() ? "(one rule decides)"
                                                                 : l.combine;
    out += std::string("| `") + l.name + "` | " + l.description + " | " + l.quality + " | " +
           nlohmann::json(l.m_scale).dump() + " | " + l.search + " | " + length +
           " | " + l.stop + " | " + combine + " |\n";
  }
  return out;
}

const LearnerInfo& find_learner(const std::string& name) {
  for (const auto& l : learner_table())
    if (name == l.name) return l;
  std::string known;
  for (const auto& l : learner_table()) known += (known.empty() ? "" : ", ") + std::string(l.name);
  throw std::invalid_argument("unknown learner '" + name + "' (known: " + known + ")");
}

}  // namespace candor
