#include "candor/learners/rule_logistic/rule_logistic.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "candor/data/resampling.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/fit_rows.hpp"
#include "candor/learn/gradient_rules_options.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/learn/stable_options.hpp"
#include "candor/learners/rule_logistic/rule_logistic_options.hpp"
#include "candor/linear/pattern_sums.hpp"
#include "candor/linear/penalised_logistic.hpp"
#include "candor/linear/row_patterns.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/util/exact_sum.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

const std::vector<ParamInfo>& linear_params() {
  static const std::vector<ParamInfo> table{
      {"features", named_option_field<kLogisticFeatureNames, &LinearOptions::features>(),
       "rule-logistic: the model's inputs: rules (each rule a 0/1 feature; the default), rules+attributes (LRRP) or "
       "attributes (plain L2 logistic regression); attributes are standardised (numeric) or one-hot (nominal), "
       "missing values imputed with an indicator column (see docs/method-rule-logistic.md)",
       "linear"},
      {"penalty", named_option_field<kLogisticPenaltyNames, &LinearOptions::penalty>(),
       "rule-logistic: l2 (lambda/2 times the sum of squared weights, the paper's) or l1 (a plain lasso, lambda "
       "times the sum of absolute weights: RuleFit's penalty; with --rule-penalty none a RuleFit-style model over "
       "candor's rules); intercepts are never penalised",
       "linear"},
      {"rule_penalty", named_option_field<kRulePenaltyNames, &LinearOptions::rule_penalty>(),
       "rule-logistic: gamma (each rule weight b_k also costs gamma_k abs(b_k), gamma_k = s_k - q_k n_k from its "
       "training counts and probability q_k: the mean predicted probability of its class on the examples it "
       "covers cannot pass q_k), none (L2 only, as RuleFit-like models) or relaxed (the gamma penalty, at the "
       "default's lambda 0.01, chooses the rules it leaves a weight; an L2 penalty alone then weighs them, at "
       "--lambda or by --lambda-search refit, whose default it is, where the gamma penalty's own weights compete "
       "with every lambda and are kept when their cross-validated log loss is the lowest: glmnet's relaxed "
       "lasso; the default's rules, more accurate and at about --lambda-folds more fits, docs/defaults.md)",
       "linear"},
      {"rule_sign", named_option_field<kRuleSignNames, &LinearOptions::rule_sign>(),
       "rule-logistic: class (a rule can only raise the probability of its own class, as the authors' add-on) "
       "or free (either sign)",
       "linear"},
      {"rule_data", named_option_field<kRuleDataNames, &LinearOptions::rule_data>(),
       "rule-logistic: all (rules and weights learned on the same data) or half (a stratified half learns the "
       "rules, the other half the weights; LRRS)",
       "linear"},
      {"candidates", named_option_field<kRuleCandidateNames, &LinearOptions::candidates>(),
       "rule-logistic: where the rules it weighs come from: gradient (gradient-rules: --gradient-rounds rounds of "
       "one search per class, each on the rows weighted by their residuals under the rules so far; "
       "docs/defaults.md), covering (cn2-unordered's one pass of covering, the default before) or "
       "covering+additive (covering's rules and gradient rules of one condition each, an additive model's steps, "
       "whatever --max-rule-length, which bounds covering's); with --stable-resamples, the learners whose frequent "
       "rules are kept: covering's are more stable than gradient's, covering+additive more accurate than either "
       "and more stable than covering's (docs/stability.md); all with the rule options given (quality, search, "
       "--stop prior keeping only rules that beat their class's prior) (default: gradient, covering+additive with "
       "--stable-resamples)",
       "linear"},
      {"multiclass", named_field<kMulticlassNames, &LearnerParams::multiclass>(),
       "rule-logistic and boost with kbs, on more than two classes: softmax (rule-logistic: one multinomial "
       "model, a rule adds to the logit of its class; kbs: one ensemble whose LIFTs cover every class) or "
       "one-vs-rest (one binary model or ensemble per class, its log odds the class's score, normalised); "
       "default: softmax for rule-logistic, and for kbs softmax over trees with --calibrate discount or "
       "temperature, one-vs-rest otherwise",
       "linear"},
      {"lambda", option_field<&LinearOptions::lambda>(),
       "rule-logistic: the strength of --penalty on every weight but the intercepts, against the summed "
       "(weighted) log loss; 0: the choice of --lambda-search (0.01 when it is none)",
       "linear", at_least(0)},
      {"lambda_search", named_option_field<kLambdaSearchNames, &LinearOptions::lambda_search>(),
       "rule-logistic: how lambda is chosen when --lambda is 0: attributes (cross-validate the attributes-only "
       "model, the paper's choice: every variant gets plain logistic regression's lambda; measured on the "
       "corpus, slightly better and cheaper than model), model (cross-validate this model, its rules fixed), "
       "refit (cross-validate this model with its rules found again on each fold's training rows: the held-out "
       "rows were never searched, so the loss does not favour the weak penalty that fits the rules' own rows; "
       "costs about --lambda-folds more fits; docs/defaults.md), "
       "or none (lambda fixed at --lambda, else 0.01: with rules only the gamma penalty does the regularising "
       "and cross-validation buys nothing measurable, docs/defaults.md); the cross-validation is seeded and "
       "stratified, on log loss, from 10^3 down to 10^-3 in half decades, stopping once the loss has risen "
       "twice in a row (default: none for --features rules, attributes otherwise)",
       "linear"},
      {"lambda_folds", option_field<&LinearOptions::lambda_folds>(),
       "rule-logistic with a lambda search: folds of that cross-validation", "linear", at_least(2)},
  };
  return table;
}

const std::vector<double>& lambda_grid() {
  static const std::vector<double> grid = [] {
    std::vector<double> g;
    for (int e = 6; e >= -6; --e) g.push_back(std::pow(10.0, e / 2.0));
    return g;
  }();
  return grid;
}

const char* rule_candidates_learner(const LearnerParams& p) {
  return resolved_candidates(p) == RuleCandidates::gradient ? "gradient-rules" : "cn2-unordered";
}

namespace {

// The rows the weights are learned on, encoded once: attribute columns, labels, weights, rule coverage.
struct Design {
  Eigen::MatrixXd X;
  std::vector<int> y;
  std::vector<double> w;
  std::vector<std::vector<std::uint32_t>> covered;  // per rule
};

Design make_design(const Dataset& d, const std::vector<std::size_t>& rows, const AttributeEncoding& encoding,
                   const std::vector<Rule>& rules) {
  Design out;
  // The matrix, and its copy in each problem the lambda path solves at once.
  check_memory(
      3.0 * static_cast<double>(rows.size()) * static_cast<double>(encoding.size()) * sizeof(double),
      "rule-logistic's attribute matrix (" + std::to_string(rows.size()) + " rows x " +
          std::to_string(encoding.size()) + " columns)",
      "nominal attributes with many values become one column each: drop or group them, or use --features rules");
  out.X.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(encoding.size()));
  out.y.reserve(rows.size());
  out.w.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t r = rows[i];
    for (std::size_t c = 0; c < encoding.size(); ++c)
      out.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = encoding.value(d, r, c);
    out.y.push_back(d.y[r]);
    out.w.push_back(d.weights[r]);
  }
  out.covered = covered_rows(d, rules, &rows);
  return out;
}

// Row patterns (linear/row_patterns.hpp) as the rows of a design without attribute columns.
Design pattern_design(RowPatterns patterns) {
  Design out;
  out.X.resize(static_cast<Eigen::Index>(patterns.y.size()), 0);
  out.y = std::move(patterns.y);
  out.w = std::move(patterns.w);
  out.covered = std::move(patterns.covered);
  return out;
}

// The design's rows as row patterns, for a design without attribute columns.
Design aggregate_rows(const Design& d) {
  if (d.X.cols() != 0) throw std::invalid_argument("aggregate_rows: a design with attribute columns");
  return pattern_design(row_patterns(d.y, d.w, d.covered));
}

// The problems of one model: one (binary, softmax) or one per class (one-vs-rest). In a binary problem a
// rule of the second class adds +b, of the first -b; in a one-vs-rest problem for class c a rule of c adds
// +b and any other rule -b, its probability q_k a lower bound for "not c".
std::vector<LogisticProblem> make_problems(const Design& d, const std::vector<Rule>& rules, int classes,
                                           LogisticLink link, const RuleLogisticOptions& o, double lambda) {
  LogisticProblem base;
  base.X = d.X;
  base.w = d.w;
  base.lambda = lambda;
  base.rule_penalty = o.linear.rule_penalty == RulePenalty::gamma;
  base.sign_constrained = o.linear.rule_sign == RuleSign::by_class;
  base.lasso = o.linear.penalty == LogisticPenalty::l1;
  base.rule_rows = d.covered;
  for (const auto& r : rules) base.rule_q.push_back(r.probability);
  std::vector<LogisticProblem> out;
  const int problems = link == LogisticLink::one_vs_rest ? classes : 1;
  for (int c = 0; c < problems; ++c) {
    // The last problem takes the base itself: a copy of the rules' covered rows costs tens of MB at 1M rows.
    LogisticProblem q = c + 1 < problems ? base : std::move(base);
    q.logits = link == LogisticLink::softmax ? classes : 1;
    for (int y : d.y) q.y.push_back(link == LogisticLink::one_vs_rest ? (y == c ? 1 : 0) : y);
    for (const auto& r : rules) {
      const int positive_class = link == LogisticLink::one_vs_rest ? c : 1;
      q.rule_logit.push_back(link == LogisticLink::softmax ? r.klass : 0);
      q.rule_sign.push_back(link == LogisticLink::softmax || r.klass == positive_class ? 1.0 : -1.0);
    }
    out.push_back(std::move(q));
  }
  return out;
}

// The same options with another rule penalty: the two stages of --rule-penalty relaxed.
RuleLogisticOptions with_rule_penalty(RuleLogisticOptions o, RulePenalty penalty) {
  o.linear.rule_penalty = penalty;
  return o;
}

// --rule-penalty relaxed: the lambda of its gamma stage, the default's (--lambda-search none's 0.01), so that it
// keeps the default's rules; --lambda and the search set the L2 stage's.
constexpr double kGammaStageLambda = 0.01;

// Class probabilities of the problems' rows under `weights` (one per problem), by the link: each row's
// logits gathered from the problems (one-vs-rest: one logit each) as the model will see them.
std::vector<std::vector<double>> problem_probabilities(const std::vector<LogisticProblem>& problems,
                                                       const std::vector<LogisticWeights>& weights, LogisticLink link) {
  std::vector<Eigen::MatrixXd> eta;
  for (std::size_t j = 0; j < problems.size(); ++j) eta.push_back(logistic_logits(problems[j], weights[j]));
  const std::size_t n = problems.front().rows();
  std::vector<std::vector<double>> out(n);
  Eigen::VectorXd row_logits;
  for (std::size_t i = 0; i < n; ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    if (link == LogisticLink::one_vs_rest) {
      row_logits.resize(static_cast<Eigen::Index>(eta.size()));
      for (std::size_t j = 0; j < eta.size(); ++j) row_logits[static_cast<Eigen::Index>(j)] = eta[j](row, 0);
    } else {
      row_logits = eta[0].row(row).transpose();
    }
    out[i] = link_probabilities(link, row_logits);
  }
  return out;
}

// Solver tolerances (SolverOptions::tolerance: no single variable could lower the summed log loss by more
// than about tolerance^2 / 2). The model's own weights stop at 1e-2 (5e-5 of summed log loss); the lambda
// path, which only ranks lambdas by held-out loss, at 3e-2. Measured on the 44 corpus sets against 1e-3
// for both: the same accuracy and log loss (0.3979 against 0.4001), about half the fit time
// (docs/rule_logistic.md).
constexpr double kModelTolerance = 1e-2;
constexpr double kPathTolerance = 3e-2;

std::vector<LogisticWeights> solve_all(const std::vector<LogisticProblem>& problems,
                                       const std::vector<LogisticWeights>* start, double tolerance) {
  std::vector<LogisticWeights> out;
  SolverOptions options;
  options.tolerance = tolerance;
  for (std::size_t j = 0; j < problems.size(); ++j)
    out.push_back(solve_logistic(problems[j], options, start ? &(*start)[j] : nullptr));
  return out;
}

// The rules to which `weights` (one per problem, of those rules) give a weight on some logit.
std::vector<Rule> rules_with_weight(const std::vector<Rule>& rules, const std::vector<LogisticWeights>& weights) {
  std::vector<Rule> out;
  for (std::size_t k = 0; k < rules.size(); ++k)
    if (std::any_of(weights.begin(), weights.end(),
                    [&](const LogisticWeights& w) { return w.rules[static_cast<Eigen::Index>(k)] != 0.0; }))
      out.push_back(rules[k]);
  return out;
}

// The problems of one cross-validation fold: those its weights are learned on and those it is scored on, with
// the held-out rows' classes and weights.
struct FoldProblems {
  std::vector<LogisticProblem> train, test;
  std::vector<int> test_y;
  std::vector<double> test_w;
};

// The summed (weighted) log loss of a fold's held-out rows under `weights`, one per problem.
double held_out_loss(const FoldProblems& fold, const std::vector<LogisticWeights>& weights, LogisticLink link) {
  const auto proba = problem_probabilities(fold.test, weights, link);
  double loss = 0;
  for (std::size_t i = 0; i < fold.test_y.size(); ++i)
    loss += -fold.test_w[i] * std::log(proba[i][static_cast<std::size_t>(fold.test_y[i])]);
  return loss;
}

// Cross-validated log loss along the lambda grid, largest first; each fold's path is warm-started from its
// previous lambda. The path stops once the loss has risen at two lambdas in a row (past the minimum of a
// curve that is U-shaped in practice); the result holds the lambdas tried. Folds run in parallel, each
// writing its own slot, so the result does not depend on `threads`. `total`: the summed weight of the rows
// the folds hold out.
LambdaSearch lambda_path(std::vector<FoldProblems>& folds, LogisticLink link, double total, int threads) {
  LambdaSearch out;
  std::vector<std::vector<LogisticWeights>> previous(folds.size());
  std::vector<double> loss(folds.size());
  for (double lambda : lambda_grid()) {
    parallel_for(folds.size(), threads, [&](std::size_t f) {
      for (auto& q : folds[f].train) q.lambda = lambda;
      previous[f] = solve_all(folds[f].train, previous[f].empty() ? nullptr : &previous[f], kPathTolerance);
      loss[f] = held_out_loss(folds[f], previous[f], link);
    });
    out.grid.push_back(lambda);
    out.log_loss.push_back(std::accumulate(loss.begin(), loss.end(), 0.0) / total);
    const std::size_t n = out.log_loss.size();
    if (n >= 3 && out.log_loss[n - 1] > out.log_loss[n - 2] && out.log_loss[n - 2] > out.log_loss[n - 3]) break;
  }
  return out;
}

// The folds of a lambda search over rows labelled `y`, with a message that names the option when there are
// fewer rows than folds.
std::vector<std::vector<std::size_t>> lambda_folds(const std::vector<int>& y, const LearnerParams& p) {
  const int k = p.options<LinearOptions>().lambda_folds;
  if (y.size() < static_cast<std::size_t>(k))
    throw std::invalid_argument("--lambda-folds " + std::to_string(k) + ": the lambda search has only " +
                                std::to_string(y.size()) + " rows to cross-validate (give fewer folds, or --lambda)");
  return stratified_folds(y, k, static_cast<std::uint64_t>(p.seed));
}

// The lambda path of `rules` (none: the attributes-only model) on the rows of `d`, every fold weighing the
// same rules.
LambdaSearch cross_validate_lambda(const Design& d, const std::vector<Rule>& rules, int classes, LogisticLink link,
                                   const RuleLogisticOptions& o, const LearnerParams& p, int threads) {
  const auto folds = lambda_folds(d.y, p);
  const auto all = make_problems(d, rules, classes, link, o, lambda_grid().front());
  std::vector<FoldProblems> problems(folds.size());
  for (std::size_t f = 0; f < folds.size(); ++f) {
    const auto train_rows = rows_not_in(d.y.size(), folds[f]);
    for (const auto& q : all) {
      problems[f].train.push_back(q.subset(train_rows));
      problems[f].test.push_back(q.subset(folds[f]));
    }
    for (std::size_t r : folds[f]) {
      problems[f].test_y.push_back(d.y[r]);
      problems[f].test_w.push_back(d.w[r]);
    }
  }
  return lambda_path(problems, link, std::accumulate(d.w.begin(), d.w.end(), 0.0), threads);
}

// The training share p of each 0/1 feature gives its spread sqrt(p (1 - p)).
double spread(double share) { return std::sqrt(std::max(0.0, share * (1 - share))); }

// What one fit of rule-logistic works with: the data, the options as resolved, the options its candidates'
// learner fits with, the rows the weights are learned on and the threads, so that its steps take one argument
// for all of it.
struct RuleLogisticFit {
  const Dataset& data;
  const LearnerParams& p;
  const RuleLogisticOptions& o;
  LearnerParams candidates;
  std::optional<LearnerParams> additive;  // covering+additive: the options of its one-condition gradient rules
  std::vector<std::size_t> weight_rows;
  int classes = 0;
  int threads = 1;
};

// The options of the candidates' learner (rule_candidates_learner): rule-logistic's rule settings (its
// defaults are that learner's), the logistic options at their defaults. Stable rules limited to the learner's
// size (`stable_limit`) are limited after the weights (limit_stable_rules), not in the rule set they are fitted on.
LearnerParams candidate_params(const LearnerParams& p, bool stable_limit) {
  LearnerParams out = with_rule_settings(without_linear_options(p), resolve_rule_settings(p));
  out.learner = rule_candidates_learner(p);
  if (stable_limit) out.stable.size = StableSize::frequent;
  return out;
}

// covering+additive: the options of its second learner, gradient rules of one condition.
LearnerParams additive_params(const LearnerParams& p, bool stable_limit) {
  LearnerParams g = p;
  g.options<LinearOptions>().candidates = RuleCandidates::gradient;
  g.rule_search.max_rule_length = 1;
  return candidate_params(g, stable_limit);
}

// The candidate rules on `data`: the candidates' learner's, and with covering+additive the additive rules after
// covering's, less those covering exactly the rows of a rule of their class already there (the logistic model
// could only split one weight between the two).
RuleModel fit_candidates(const Dataset& data, const RuleLogisticFit& f) {
  RuleModel rules = fit_rules(data, f.candidates, f.threads);
  if (!f.additive) return rules;
  RuleModel additive = fit_rules(data, *f.additive, f.threads);
  // kept_rows[k]: the rows of rules.rules[k], the two growing together.
  std::vector<std::vector<std::uint32_t>> kept_rows = covered_rows(data, rules.rules);
  std::vector<std::vector<std::uint32_t>> additive_rows = covered_rows(data, additive.rules);
  for (std::size_t a = 0; a < additive.rules.size(); ++a) {
    Rule& r = additive.rules[a];
    bool same = false;
    for (std::size_t k = 0; k < kept_rows.size() && !same; ++k)
      same = rules.rules[k].klass == r.klass && kept_rows[k] == additive_rows[a];
    if (same) continue;
    r.additive = true;
    kept_rows.push_back(std::move(additive_rows[a]));
    rules.rules.push_back(std::move(r));
  }
  rules.additive_evc = std::move(additive.evc);
  return rules;
}

// The rules to weigh into model.rules: the candidates' learner's on `rule_rows`; with --features attributes
// none, only the schema and the training counts.
void fit_candidate_rules(LogisticRuleModel& model, const RuleLogisticFit& f,
                         const std::vector<std::size_t>& rule_rows) {
  if (f.o.with_rules()) {
    model.rules =
        f.o.linear.rule_data == RuleData::all ? fit_candidates(f.data, f) : fit_candidates(f.data.subset(rule_rows), f);
    return;
  }
  RuleModel& none = model.rules;
  LearnerParams used = f.candidates;
  used.heuristics.m_scale = used.resolved_m_scale();
  none.learner = params_to_json(used);
  none.schema = f.data.schema;
  none.training_counts = model.training_counts;
  none.default_counts = model.training_counts;
  none.training_rows = f.data.rows();
  none.training_source = f.data.source;
  use_rule_settings(none, used, resolve_rule_settings(f.candidates));
}

// --lambda-search refit: the lambda path with the rules found again on each fold's training rows, so that
// every held-out row is scored by rules that never saw it. (With `model` the rules were found on the rows the
// folds hold out, and the held-out loss favours the weak penalty that fits them: docs/defaults.md.) Each
// fold's rules are fitted with every thread, one fold after another; the path is lambda_path's. The folds
// correct their rules by the EVC calibration of all the rows (FoldCalibrationScope, as candor evaluate's folds
// share one): permuted labels say nothing of the rows a fold holds out, and the fit then costs about a fifth
// less (docs/defaults.md).
// With --rule-penalty relaxed each fold also fits the gamma penalty's own weights on its rules: their held-out
// loss is the search's gamma_log_loss, and the lambda path weighs, under an L2 penalty alone, only the rules
// they leave a weight, as the model will.
LambdaSearch cross_validate_refit(const RuleLogisticFit& f, LogisticLink link) {
  std::vector<int> labels;
  for (std::size_t r : f.weight_rows) labels.push_back(f.data.y[r]);
  const auto folds = lambda_folds(labels, f.p);
  const bool relaxed = f.o.linear.rule_penalty == RulePenalty::relaxed;
  const RuleLogisticOptions path_options = relaxed ? with_rule_penalty(f.o, RulePenalty::none) : f.o;
  std::vector<FoldProblems> problems(folds.size());
  double total = 0, gamma_loss = 0;
  for (std::size_t fold = 0; fold < folds.size(); ++fold) {
    std::vector<std::size_t> train_rows, test_rows;
    for (std::size_t i : rows_not_in(labels.size(), folds[fold])) train_rows.push_back(f.weight_rows[i]);
    for (std::size_t i : folds[fold]) test_rows.push_back(f.weight_rows[i]);
    std::vector<Rule> rules;
    if (f.o.with_rules()) {
      const Dataset fold_data = f.data.subset(train_rows);
      FoldCalibrationScope::Clock clock;
      const FoldCalibrationScope scope(fold_data, f.data, true, f.threads, clock);
      rules = fit_candidates(fold_data, f).rules;
    }
    const AttributeEncoding encoding =
        f.o.with_attributes() ? AttributeEncoding::fit(f.data, train_rows) : AttributeEncoding{};
    if (relaxed) {
      const RuleLogisticOptions gamma = with_rule_penalty(f.o, RulePenalty::gamma);
      const Design train = make_design(f.data, train_rows, encoding, rules);
      const Design test = make_design(f.data, test_rows, encoding, rules);
      const FoldProblems fitted{
          {}, make_problems(test, rules, f.classes, link, gamma, kGammaStageLambda), test.y, test.w};
      const auto weights =
          solve_all(make_problems(train, rules, f.classes, link, gamma, kGammaStageLambda), nullptr, kModelTolerance);
      gamma_loss += held_out_loss(fitted, weights, link);
      rules = rules_with_weight(rules, weights);
    }
    const Design train = make_design(f.data, train_rows, encoding, rules);
    const Design test = make_design(f.data, test_rows, encoding, rules);
    problems[fold].train = make_problems(train, rules, f.classes, link, path_options, lambda_grid().front());
    problems[fold].test = make_problems(test, rules, f.classes, link, path_options, lambda_grid().front());
    problems[fold].test_y = test.y;
    problems[fold].test_w = test.w;
    total += std::accumulate(test.w.begin(), test.w.end(), 0.0);
  }
  LambdaSearch out = lambda_path(problems, link, total, f.threads);
  if (relaxed) out.gamma_log_loss = gamma_loss / total;
  return out;
}

// lambda where no search chooses it: given, or --lambda-search none's.
std::optional<double> unsearched_lambda(const LearnerParams& p, const RuleLogisticOptions& o) {
  if (o.lambda_search == LambdaSearchOn::none) return resolved_fixed_lambda(p);
  if (p.options<LinearOptions>().lambda > 0) return p.options<LinearOptions>().lambda;
  return std::nullopt;
}

// lambda: given, or the value of least cross-validated log loss (ties: the larger lambda), the search
// recorded in the model.

double chosen_lambda(LogisticRuleModel& model, const RuleLogisticFit& f, const Design& design,
                     const std::vector<Rule>& rules) {
  if (const auto fixed = unsearched_lambda(f.p, f.o)) return *fixed;
  LambdaSearch& search = model.lambda_search;
  if (f.o.lambda_search == LambdaSearchOn::attributes) {
    const AttributeEncoding attributes = AttributeEncoding::fit(f.data, f.weight_rows);
    const Design plain = make_design(f.data, f.weight_rows, attributes, {});
    search = cross_validate_lambda(plain, {}, f.classes, model.link, f.o, f.p, f.threads);
  } else if (f.o.lambda_search == LambdaSearchOn::refit) {
    search = cross_validate_refit(f, model.link);
  } else {
    search = cross_validate_lambda(design, rules, f.classes, model.link, f.o, f.p, f.threads);
  }
  search.on = f.o.lambda_search;
  search.folds = f.p.options<LinearOptions>().lambda_folds;
  std::size_t best = 0;
  for (std::size_t g = 1; g < search.grid.size(); ++g)
    if (search.log_loss[g] < search.log_loss[best]) best = g;
  return search.grid[best];
}

// The solved problems' weights as the model holds them: one row of weights per logit, each rule's weight
// signed for the class it raises, and its gamma.
void store_weights(LogisticRuleModel& model, const std::vector<LogisticProblem>& problems,
                   const std::vector<std::vector<double>>& gammas, const std::vector<LogisticWeights>& weights,
                   const std::vector<Rule>& rules, int classes) {
  const auto logit_count = static_cast<Eigen::Index>(model.link == LogisticLink::binary ? 1 : classes);
  const auto R = static_cast<Eigen::Index>(rules.size());
  model.intercepts.resize(logit_count);
  model.attribute_weights.resize(logit_count, static_cast<Eigen::Index>(model.encoding.size()));
  model.rule_weights = Eigen::MatrixXd::Zero(logit_count, R);
  model.rule_gamma.assign(rules.size(), 0.0);
  if (model.link == LogisticLink::one_vs_rest) {
    for (int c = 0; c < classes; ++c) {
      const auto& q = problems[static_cast<std::size_t>(c)];
      const auto& wc = weights[static_cast<std::size_t>(c)];
      const auto& gamma = gammas[static_cast<std::size_t>(c)];
      model.intercepts[c] = wc.intercepts[0];
      // A matrix of no columns has no storage: Eigen's row() of it offsets a null pointer (UBSan).
      if (model.attribute_weights.cols() > 0) model.attribute_weights.row(c) = wc.attributes.row(0);
      for (Eigen::Index k = 0; k < R; ++k) {
        model.rule_weights(c, k) = q.rule_sign[static_cast<std::size_t>(k)] * wc.rules[k];
        if (rules[static_cast<std::size_t>(k)].klass == c)
          model.rule_gamma[static_cast<std::size_t>(k)] = gamma[static_cast<std::size_t>(k)];
      }
    }
    return;
  }
  const auto& q = problems.front();
  const auto& w = weights.front();
  model.intercepts = w.intercepts;
  model.attribute_weights = w.attributes;
  model.rule_gamma = gammas.front();
  for (Eigen::Index k = 0; k < R; ++k)
    model.rule_weights(q.rule_logit[static_cast<std::size_t>(k)], k) =
        q.rule_sign[static_cast<std::size_t>(k)] * w.rules[k];
}

// A rule the penalties left at weight 0 on every logit takes no part in any prediction. It is dropped, as
// RuleFit drops its rules of coefficient 0, so that the model's rules are the ones it predicts with and its
// rule count is what a reader has to read. Dropping is exact: the weights that remain are the optimum of the
// problem without those columns (its optimality conditions are the full problem's), and every prediction
// is the same.
// The rules are then numbered by importance (RuleFit's: the largest absolute weight times the standard
// deviation of the 0/1 feature, on the rows the weights were learned on), the order `candor rules` lists
// them in, so that rule 1 is the first shown in every view (text, CSV, report, explanations).
// What the spreads are computed from: the summed weight of the rows, of those each rule covers, and of those
// where each encoded column is not 0.
struct SpreadSums {
  double total = 0;
  std::vector<double> rules, columns;
};

SpreadSums spread_sums(const Design& design) {
  SpreadSums out;
  out.total = std::accumulate(design.w.begin(), design.w.end(), 0.0);
  for (const auto& rows : design.covered) {
    double covered = 0;
    for (auto i : rows) covered += design.w[i];
    out.rules.push_back(covered);
  }
  for (Eigen::Index c = 0; c < design.X.cols(); ++c) {
    double ones = 0;
    for (std::size_t i = 0; i < design.w.size(); ++i)
      if (design.X(static_cast<Eigen::Index>(i), c) != 0) ones += design.w[i];
    out.columns.push_back(ones);
  }
  return out;
}

void drop_and_rank_rules(LogisticRuleModel& model, const SpreadSums& sums) {
  const std::vector<Rule>& rules = model.rules.rules;
  const auto R = static_cast<Eigen::Index>(rules.size());
  const double total = sums.total;
  std::vector<double> rule_spread(static_cast<std::size_t>(R));  // of every rule found, for rule_importance
  std::vector<std::size_t> kept;
  for (Eigen::Index k = 0; k < R; ++k) {
    const auto rule = static_cast<std::size_t>(k);
    const double covered = sums.rules[rule];
    rule_spread[rule] = spread(total > 0 ? covered / total : 0);
    if ((model.rule_weights.col(k).array() != 0.0).any()) kept.push_back(rule);
  }
  model.rule_spread = rule_spread;
  std::stable_sort(kept.begin(), kept.end(),
                   [&](std::size_t a, std::size_t b) { return model.rule_importance(a) > model.rule_importance(b); });
  model.rules_without_weight += rules.size() - kept.size();
  if (kept.size() < rules.size() || !std::is_sorted(kept.begin(), kept.end())) {
    Eigen::MatrixXd weighted(model.rule_weights.rows(), static_cast<Eigen::Index>(kept.size()));
    std::vector<Rule> kept_rules;
    std::vector<double> kept_gamma;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      weighted.col(static_cast<Eigen::Index>(i)) = model.rule_weights.col(static_cast<Eigen::Index>(kept[i]));
      kept_rules.push_back(rules[kept[i]]);
      kept_gamma.push_back(model.rule_gamma[kept[i]]);
    }
    model.rule_weights = std::move(weighted);
    model.rule_gamma = std::move(kept_gamma);
    model.rules.rules = std::move(kept_rules);
  }
  // Spreads for the importance ranking, on the rows the weights were learned on.
  model.rule_spread.clear();
  model.attribute_spread.clear();
  for (std::size_t k : kept) model.rule_spread.push_back(rule_spread[k]);
  for (std::size_t c = 0; c < model.encoding.size(); ++c) {
    if (model.encoding.columns[c].kind == EncodedColumn::Kind::numeric) {
      model.attribute_spread.push_back(1.0);
      continue;
    }
    const double ones = sums.columns[c];
    model.attribute_spread.push_back(spread(total > 0 ? ones / total : 0));
  }
}

// The weights of model.rules at model.lambda on `design`'s rows, dropping the rules left at weight 0.
// `recorded_gamma`, when given, is each rule's gamma as the model records it, in place of the problems' own.
void weigh_rules(LogisticRuleModel& model, const Design& design, const RuleLogisticOptions& o, int classes,
                 const std::vector<double>* recorded_gamma = nullptr) {
  const std::vector<Rule>& rules = model.rules.rules;
  const auto problems = make_problems(design, rules, classes, model.link, o, model.lambda);
  std::vector<std::vector<double>> gammas;
  for (const auto& q : problems) gammas.push_back(q.gammas());
  store_weights(model, problems, gammas, solve_all(problems, nullptr, kModelTolerance), rules, classes);
  if (recorded_gamma) model.rule_gamma = *recorded_gamma;
  drop_and_rank_rules(model, spread_sums(design));
}

// The sums of problem q's rows from the rows' weights by class (`positive`: the class of q's label 1, -1 where
// its labels are the classes): each sum read once merged, so that it is exact.
LogisticRowSums problem_sums(const LogisticProblem& q, int positive, const PatternWeights& weights) {
  const std::size_t classes = weights.classes.size();
  auto label_of = [&](std::size_t c) {
    return positive < 0 ? c : static_cast<std::size_t>(c == static_cast<std::size_t>(positive) ? 1 : 0);
  };
  LogisticRowSums out;
  std::vector<ExactSum> label(static_cast<std::size_t>(q.logits == 1 ? 2 : q.logits));
  ExactSum total;
  for (std::size_t c = 0; c < classes; ++c) {
    label.at(label_of(c)).merge(weights.classes[c]);
    total.merge(weights.classes[c]);
  }
  out.label_weight = values(label);
  out.total = total.value();
  for (std::size_t k = 0; k < q.rules(); ++k) {
    ExactSum all, of_label;
    for (std::size_t c = 0; c < classes; ++c) {
      all.merge(weights.rules[k][c]);
      const std::size_t l = label_of(c);
      // LogisticProblem::rule_positive.
      if (q.logits == 1 ? (l == 1) == (q.rule_sign[k] > 0) : static_cast<int>(l) == q.rule_logit[k])
        of_label.merge(weights.rules[k][c]);
    }
    out.rule_weight.push_back(all.value());
    out.rule_positive_weight.push_back(of_label.value());
  }
  return out;
}

// weigh_rules on rows wherever they are held: each problem solved from the sums over every row (FitRows), so
// that this process holds a number per rule and class, whatever the rows.
void weigh_rules_on(LogisticRuleModel& model, FitRows& rows, const RuleLogisticOptions& o, int classes) {
  const std::vector<Rule>& rules = model.rules.rules;
  const PatternWeights weights = rows.weigh_with(rules);
  Design shape;
  shape.covered.resize(rules.size());
  const auto problems = make_problems(shape, rules, classes, model.link, o, model.lambda);
  std::vector<std::vector<double>> gammas;
  std::vector<LogisticWeights> solved;
  SpreadSums spreads;  // of every problem alike: all rows, and those each rule covers
  SolverOptions options;
  options.tolerance = kModelTolerance;
  for (std::size_t j = 0; j < problems.size(); ++j) {
    const LogisticProblem& q = problems[j];
    RuleLossQuery query;
    query.logits = q.logits;
    query.positive = model.link == LogisticLink::one_vs_rest ? static_cast<int>(j) : -1;
    query.rule_logit = q.rule_logit;
    query.rule_sign = q.rule_sign;
    const LogisticRowSums sums = problem_sums(q, query.positive, weights);
    gammas.push_back(rule_gammas(q, sums));
    spreads.total = sums.total;
    spreads.rules = sums.rule_weight;
    const auto loss = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& gradient_a,
                          Eigen::VectorXd& gradient_rules, Eigen::MatrixXd* curvature) {
      query.intercepts.assign(a.data(), a.data() + a.size());
      query.rules.assign(b.data(), b.data() + b.size());
      query.curvature = curvature != nullptr;
      const RuleLossSums s = rows.rule_loss(query);
      const std::vector<double> ga = values(s.intercepts), gr = values(s.rules);
      gradient_a = Eigen::Map<const Eigen::VectorXd>(ga.data(), static_cast<Eigen::Index>(ga.size()));
      gradient_rules = Eigen::Map<const Eigen::VectorXd>(gr.data(), static_cast<Eigen::Index>(gr.size()));
      if (curvature) *curvature = curvature_matrix(s.curvature, ga.size() + gr.size());
      return s.loss.value();
    };
    solved.push_back(solve_rule_logistic(q, sums, loss, options));
  }
  store_weights(model, problems, gammas, solved, rules, classes);
  drop_and_rank_rules(model, spreads);
}

// --rule-penalty relaxed: the gamma penalty's weights at kGammaStageLambda choose the rules (those left at
// weight 0 are dropped), then an L2 penalty alone at the lambda chosen (model.lambda) weighs the rules kept,
// unless the cross-validation found the gamma penalty's own weights better (LambdaSearch::keeps_gamma).
// The gamma penalty caps each rule's mean predicted probability at its EVC-corrected q_k, which holds rules
// found on a few hundred rows back (lymph); where many rules must add up (digits, vowel) the cap costs
// accuracy, and the held-out loss decides between them (docs/defaults.md).
void weigh_relaxed(LogisticRuleModel& model, const RuleLogisticFit& f, const Design& design) {
  const double l2_lambda = model.lambda;
  model.lambda = kGammaStageLambda;
  weigh_rules(model, design, with_rule_penalty(f.o, RulePenalty::gamma), f.classes);
  if (model.lambda_search.keeps_gamma()) return;
  model.lambda = l2_lambda;
  // Each rule keeps the gamma that chose it: the L2 stage has none.
  const std::vector<double> chosen_gamma = model.rule_gamma;
  const Design kept = aggregate_rows(make_design(f.data, f.weight_rows, model.encoding, model.rules.rules));
  weigh_rules(model, kept, with_rule_penalty(f.o, RulePenalty::none), f.classes, &chosen_gamma);
}

// The weights of model.rules, dropping the rules left at weight 0; lambda chosen on the first fit, kept on a
// second (stable rules limited to the learner's size).
void fit_weights(LogisticRuleModel& model, const RuleLogisticFit& f, bool choose_lambda) {
  const std::vector<Rule>& rules = model.rules.rules;
  if (f.o.with_attributes() && choose_lambda) model.encoding = AttributeEncoding::fit(f.data, f.weight_rows);
  Design design = make_design(f.data, f.weight_rows, model.encoding, rules);
  // The model lambda search folds the design's rows; every other fit takes them as patterns.
  if (design.X.cols() == 0 && f.o.lambda_search != LambdaSearchOn::model) design = aggregate_rows(design);
  if (choose_lambda) model.lambda = chosen_lambda(model, f, design, rules);
  if (f.o.linear.rule_penalty == RulePenalty::relaxed) return weigh_relaxed(model, f, design);
  weigh_rules(model, design, f.o, f.classes);
}

// At most as many rules as the learner keeps without stable rules on the same data (`limit`): the most
// frequent across the resamples, among equals the most important, with their weights fitted again.
void limit_stable_rules(LogisticRuleModel& model, const RuleLogisticFit& f, std::size_t limit) {
  if (model.rules.rules.size() <= limit) return;
  std::vector<std::size_t> order(model.rules.rules.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto& rules = model.rules.rules;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (rules[a].stable_frequency != rules[b].stable_frequency)
      return rules[a].stable_frequency > rules[b].stable_frequency;
    return model.rule_importance(a) > model.rule_importance(b);
  });
  order.resize(limit);
  std::sort(order.begin(), order.end());  // the model's order (the refit numbers them by importance again)
  std::vector<Rule> chosen;
  for (std::size_t k : order) chosen.push_back(rules[k]);
  model.rules.rules = std::move(chosen);
  fit_weights(model, f, false);
}

}  // namespace

RuleLogisticOptions read_rule_logistic_options(const LearnerParams& p, std::size_t classes) {
  RuleLogisticOptions o;
  o.linear = p.options<LinearOptions>();
  o.lambda_search = resolved_lambda_search(p);
  const MulticlassForm form = p.resolved_multiclass();
  o.link = classes == 2                          ? LogisticLink::binary
           : form == MulticlassForm::one_vs_rest ? LogisticLink::one_vs_rest
                                                 : LogisticLink::softmax;
  return o;
}

namespace {

// The options as the fit uses them and records them.
LearnerParams resolved_params(const LearnerParams& given) {
  LearnerParams p = given;
  p.options<LinearOptions>().candidates = resolved_candidates(p);  // the model records which rules it weighed
  p.heuristics.m_scale = p.resolved_m_scale();
  p.correct = p.resolved_correct();  // the model records what was used
  p.options<LinearOptions>().lambda_search = resolved_lambda_search(p);
  p.multiclass = p.resolved_multiclass();
  // Covering+additive's one-condition rules are the most frequent: under the learner's count they would crowd out
  // covering's rules (docs/stability.md).
  if (p.stable.resamples > 0 && !p.stable.size)
    p.stable.size = *p.options<LinearOptions>().candidates == RuleCandidates::covering_additive ? StableSize::frequent
                                                                                                : StableSize::learner;
  return p;
}

// A model of `classes` classes before its rules: its link, options and settings.
std::unique_ptr<LogisticRuleModel> start_model(const LearnerParams& p, int classes, RuleLogisticOptions& o) {
  if (classes < 2) throw std::invalid_argument("rule-logistic needs a class with at least two values");
  o = read_rule_logistic_options(p, static_cast<std::size_t>(classes));
  auto model = std::make_unique<LogisticRuleModel>();
  model->link = o.link;
  model->learner = params_to_json(p);
  model->settings = {p.options<LinearOptions>().features, p.options<LinearOptions>().penalty,
                     p.options<LinearOptions>().rule_penalty};
  return model;
}

}  // namespace

std::string rule_logistic_refuses_rows(const LearnerParams& given) {
  const LearnerParams p = resolved_params(given);
  const LinearOptions& o = p.options<LinearOptions>();
  const std::string one_process = " needs every row in one process";
  if (p.stable.resamples > 0) return "rule-logistic with --stable-resamples" + one_process + " (its resamples)";
  if (o.rule_penalty == RulePenalty::relaxed) return "rule-logistic with --rule-penalty relaxed" + one_process;
  if (*o.candidates != RuleCandidates::gradient)
    return "rule-logistic with --candidates " + std::string(name_of(kRuleCandidateNames, *o.candidates)) + one_process +
           " (covering's rows left)";
  if (o.features != LogisticFeatures::rules)
    return "rule-logistic with --features " + std::string(name_of(kLogisticFeatureNames, o.features)) + one_process +
           " (its attribute columns)";
  if (o.rule_data != RuleData::all) return "rule-logistic with --rule-data half" + one_process + " (its halves)";
  if (!unsearched_lambda(p, read_rule_logistic_options(p, 2)))
    return "rule-logistic's --lambda-search" + one_process + " (its folds): give --lambda, or --lambda-search none";
  return refuses_rows(candidate_params(p, false));
}

std::unique_ptr<Model> fit_rule_logistic(FitRows& rows, const LearnerParams& given, int threads) {
  if (rows.rows() == 0) throw std::invalid_argument("rule-logistic needs training rows");
  if (const std::string why = rule_logistic_refuses_rows(given); !why.empty()) throw std::invalid_argument(why);
  const LearnerParams p = resolved_params(given);
  const int classes = static_cast<int>(rows.schema().class_attribute.values.size());
  RuleLogisticOptions o;
  auto model = start_model(p, classes, o);
  model->schema = rows.schema();
  model->training_counts = rows.class_counts();
  model->training_rows = rows.rows();
  model->training_source = rows.source();
  model->rules = fit_rules(rows, candidate_params(p, false), threads);
  model->lambda = *unsearched_lambda(p, o);
  weigh_rules_on(*model, rows, o, classes);
  return model;
}

std::unique_ptr<Model> fit_rule_logistic(const Dataset& data, const LearnerParams& given, int threads) {
  if (data.rows() == 0) throw std::invalid_argument("rule-logistic needs training rows");
  // The default and every fit that could run across workers runs on the rows as one part.
  if (rule_logistic_refuses_rows(given).empty()) {
    LocalRows rows(data, threads);
    return fit_rule_logistic(rows, given, threads);
  }
  const LearnerParams p = resolved_params(given);
  const int classes = static_cast<int>(data.num_classes());
  RuleLogisticOptions o;
  std::unique_ptr<LogisticRuleModel> model = start_model(p, classes, o);
  record_training(*model, data);

  // Rows for the rules and rows for the weights.
  const bool stable_limit = o.with_rules() && p.stable.resamples > 0 && p.stable.size == StableSize::learner;
  RuleLogisticFit f{data, p, o, candidate_params(p, stable_limit), {}, {}, classes, threads};
  if (*p.options<LinearOptions>().candidates == RuleCandidates::covering_additive)
    f.additive = additive_params(p, stable_limit);
  std::vector<std::size_t> rule_rows;
  if (o.linear.rule_data == RuleData::half) {
    std::tie(rule_rows, f.weight_rows) = stratified_holdout(data.y, 0.5, static_cast<std::uint64_t>(p.seed));
  } else {
    rule_rows.resize(data.rows());
    std::iota(rule_rows.begin(), rule_rows.end(), std::size_t{0});
    f.weight_rows = rule_rows;
  }
  fit_candidate_rules(*model, f, rule_rows);
  fit_weights(*model, f, true);
  if (stable_limit) {
    LearnerParams plain = given;
    plain.stable.resamples = 0;
    limit_stable_rules(*model, f, fit_rule_logistic(data, plain, threads)->rule_count());
  }
  return model;
}

RuleCandidates resolved_candidates(const LearnerParams& p) {
  if (const auto& given = p.options<LinearOptions>().candidates) return *given;
  // Frequent rules over resamples: covering's first conditions recur where gradient rules, each found on the
  // residuals of those before it, seldom do; one-condition gradient rules recur most, and the two together are
  // more accurate than either at covering's stability (docs/stability.md).
  return p.stable.resamples > 0 ? RuleCandidates::covering_additive : RuleCandidates::gradient;
}

LambdaSearchOn resolved_lambda_search(const LearnerParams& p) {
  const LinearOptions& linear = p.options<LinearOptions>();
  if (linear.lambda_search) return *linear.lambda_search;
  if (linear.rule_penalty == RulePenalty::relaxed) return LambdaSearchOn::refit;
  return linear.features == LogisticFeatures::rules ? LambdaSearchOn::none : LambdaSearchOn::attributes;
}

double resolved_fixed_lambda(const LearnerParams& p) {
  return p.options<LinearOptions>().lambda > 0 ? p.options<LinearOptions>().lambda : 0.01;
}

namespace {
// The gradient rules among the candidates, as describe_rule_logistic names them; empty without.
std::string gradient_description(const LearnerParams& p) {
  const RuleCandidates candidates = resolved_candidates(p);
  if (candidates == RuleCandidates::covering) return "";
  const std::string rounds = std::to_string(p.options<GradientRuleOptions>().rounds) + " rounds, shrinkage " +
                             nlohmann::json(p.options<GradientRuleOptions>().shrinkage).dump();
  return candidates == RuleCandidates::gradient
             ? ", gradient candidates (" + rounds + ")"
             : ", covering and additive candidates (gradient rules of one condition, " + rounds + ")";
}
}  // namespace

std::string describe_rule_logistic(const LearnerParams& p) {
  const LinearOptions& o = p.options<LinearOptions>();
  const LambdaSearchOn lambda_search = resolved_lambda_search(p);
  std::string s = describe_rule_learner(p);
  s.pop_back();  // its ")": the linear model's settings follow the rules'
  s +=
      "; " + std::string(name_of(kLogisticFeatureNames, o.features)) +
      (o.penalty == LogisticPenalty::l1 ? ", lasso" : "") + ", rule penalty " +
      name_of(kRulePenaltyNames, o.rule_penalty) + ", rule sign " + name_of(kRuleSignNames, o.rule_sign) +
      gradient_description(p) + ", rules from " +
      (o.rule_data == RuleData::all ? std::string("all data") : std::string("half the data")) + ", lambda " +
      (lambda_search == LambdaSearchOn::none ? nlohmann::json(resolved_fixed_lambda(p)).dump()
       : o.lambda > 0                        ? nlohmann::json(o.lambda).dump()
                      : "by " + std::to_string(o.lambda_folds) + "-fold CV of " + lambda_search_subject(lambda_search));
  if (p.resolved_multiclass() != MulticlassForm::softmax)
    s += ", " + std::string(name_of(kMulticlassNames, p.resolved_multiclass()));
  return s + ")";
}

void check_rule_logistic_options(const LearnerParams& p) {
  const LinearOptions& linear = p.options<LinearOptions>();
  if (linear.rule_penalty == RulePenalty::relaxed) {
    if (linear.features != LogisticFeatures::rules)
      throw std::invalid_argument("--rule-penalty relaxed weighs rules alone: give --features rules");
    const LambdaSearchOn search = resolved_lambda_search(p);
    if (linear.lambda == 0 && search != LambdaSearchOn::refit && search != LambdaSearchOn::none)
      throw std::invalid_argument(
          "--rule-penalty relaxed chooses its L2 lambda by --lambda-search refit (its default) or takes --lambda; "
          "--lambda-search " +
          std::string(name_of(kLambdaSearchNames, search)) +
          " would score rules other than those the gamma penalty keeps");
    if (p.stable.resamples > 0)
      throw std::invalid_argument("--rule-penalty relaxed and --stable-resamples: give one of them");
    if (linear.penalty == LogisticPenalty::l1)
      throw std::invalid_argument("--rule-penalty relaxed weighs its rules under an L2 penalty: give --penalty l2");
  }
  if (resolved_lambda_search(p) == LambdaSearchOn::refit && linear.rule_data == RuleData::half)
    throw std::invalid_argument(
        "--lambda-search refit finds the rules again on each fold's rows; with --rule-data half the rules and the "
        "weights come from different halves (give --lambda-search model, or --rule-data all)");
  if (p.options<GradientRuleOptions>() == GradientRuleOptions{}) return;
  if (resolved_candidates(p) == RuleCandidates::covering)
    throw std::invalid_argument(
        "--gradient-rounds, --gradient-shrinkage, --gradient-sample and --gradient-prune shape the gradient rules of "
        "--candidates gradient or covering+additive; rule-logistic's rules come from covering alone here (--candidates "
        "covering): give --candidates gradient or covering+additive");
}

void write_rule_logistic_options(const LearnerParams& p, nlohmann::json& j) {
  j["lambda_search"] = name_of(kLambdaSearchNames, resolved_lambda_search(p));
}

void rule_logistic_paper_settings(LearnerParams& p) {
  // Paper 000's LRRP: EVC rules of one covering pass and the attributes, LR's lambda.
  p.options<LinearOptions>().candidates = RuleCandidates::covering;
  p.heuristics.quality = "evc";
  p.options<LinearOptions>().features = LogisticFeatures::rules_and_attributes;
  p.options<LinearOptions>().lambda_search = LambdaSearchOn::attributes;
}

}  // namespace candor
