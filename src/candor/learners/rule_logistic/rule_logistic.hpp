#pragma once
// The rule-logistic learner (paper 000, section 4.3.3): CN2 rules as 0/1 features beside the original
// attributes in an L2 logistic regression whose rule weights also pay gamma_k |b_k| (LRRP). Variants by
// option: LR (--features attributes), LRR (--rule-penalty none), LRRP-EVC(R) (--features rules), LRRS
// (--rule-data half), LRRP-M2 (--quality m-estimate --m 2 --m-scale 0).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/model.hpp"
#include "candor/util/names.hpp"

namespace candor {

// What rule-logistic does, read from its options once: the options as given, and what the learner's
// defaults and the data resolve.
struct RuleLogisticOptions {
  LinearOptions linear;
  LambdaSearchOn lambda_search = LambdaSearchOn::none;  // resolved (resolved_lambda_search)
  LogisticLink link = LogisticLink::binary;             // binary on two classes, else --multiclass
  bool with_rules() const { return linear.features != LogisticFeatures::attributes; }
  bool with_attributes() const { return linear.features != LogisticFeatures::rules; }
};
// Throws std::invalid_argument naming the option for a name it does not know.
RuleLogisticOptions read_rule_logistic_options(const LearnerParams& p, std::size_t classes);

// The learner's fit function (learn/learner.hpp's ModelFit); the rules come from cn2-unordered with the
// rule options of `params`.
std::unique_ptr<Model> fit_rule_logistic(const Dataset& data, const LearnerParams& params, int threads);
// The same on rows wherever they are held (learn/fit_rows.hpp), for the options rule_logistic_refuses_rows
// leaves: rules only, gradient candidates, no stable rules, lambda given or fixed. The first fit runs these
// options through this one, on the rows as one part.
class FitRows;
std::unique_ptr<Model> fit_rule_logistic(FitRows& rows, const LearnerParams& params, int threads);
std::string rule_logistic_refuses_rows(const LearnerParams& params);
// --lambda-search, or its default: none (lambda fixed) for a rules-only model, whose gamma penalty already
// ties each weight to its rule's corrected probability; attributes otherwise.
LambdaSearchOn resolved_lambda_search(const LearnerParams& p);
// --candidates, or its default: gradient, and covering for the stable mode (--stable-resamples), whose
// frequent rules reach the stability the mode is for (docs/stability.md, "Stable gradient rules").
RuleCandidates resolved_candidates(const LearnerParams& p);
// The lambda of --lambda-search none: --lambda, or 0.01 (a stabiliser, measured in docs/defaults.md).
double resolved_fixed_lambda(const LearnerParams& p);
// rule-logistic's steps of the shared option handling (LearnerInfo): the line heading its models' text (the
// rules' and the linear model's settings), the resolved --lambda-search written, paper 000's LRRP settings.
std::string describe_rule_logistic(const LearnerParams& p);
// The gradient options (--gradient-rounds, --gradient-shrinkage, --gradient-sample, --gradient-prune) are read
// only where the candidates resolve to gradient.
void check_rule_logistic_options(const LearnerParams& p);
// The learner that finds the rules (LearnerInfo::searches_with), whose search defaults apply: gradient-rules for
// --candidates gradient, cn2-unordered for covering (resolved_candidates: the stable mode's default).
const char* rule_candidates_learner(const LearnerParams& p);
void write_rule_logistic_options(const LearnerParams& p, nlohmann::json& j);
void rule_logistic_paper_settings(LearnerParams& p);

// The lambdas tried when --lambda is 0: 10^3 down to 10^-3 in half decades (the search stops early once
// the cross-validated log loss has risen twice in a row).
const std::vector<double>& lambda_grid();

}  // namespace candor
