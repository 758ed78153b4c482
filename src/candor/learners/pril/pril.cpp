#include "candor/learners/pril/pril.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "candor/learn/base_learner.hpp"
#include "candor/learners/pril/pril_options.hpp"
#include "candor/linear/logit_inference.hpp"
#include "candor/model/pril_model.hpp"
#include "candor/pril/reliability.hpp"
#include "candor/util/memo_cache.hpp"

namespace candor {

const std::vector<ParamInfo>& pril_params() {
  static const std::vector<ParamInfo> table{
      {"reliability", option_field<&PrilOptions::reliability>(),
       "pril: the minimum reliability R_k a rule must hold: one value for every class, or one per class in the "
       "class's order, comma-separated (\"0.9,0.6\"); a case no rule reliable enough covers is undecided "
       "(default 0.5, a rule right more often than wrong; on the corpus, 5-fold CV, adjusted accuracy 0.696 at "
       "0.5, 0.635 at 0.6, 0.537 at 0.7, 0.386 at 0.8)",
       "pril"},
      {"reliability_prior", option_field<&PrilOptions::reliability_prior>(),
       "pril: raise each class's minimum reliability to at least its training share, so that no rule claims less "
       "than guessing the class would give (asymmetric requirements for unequal classes)",
       "pril"},
      {"shape", named_option_field<kReliabilityShapeNames, &PrilOptions::shape>(),
       "pril: how the required reliabilities step down from 1 to R_k: linear, convex (large steps first) or "
       "concave (small steps first)",
       "pril"},
      {"steps", option_field<&PrilOptions::steps>(), "pril: steps of the reliability function (the last is R_k)",
       "pril", in_range(1, 10000)},
      {"max_attributes", option_field<&PrilOptions::max_attributes>(),
       "pril: most attributes in a rule (M); combinations are searched only when no smaller rule qualifies", "pril",
       in_range(1, 3)},
      {"min_cases", option_field<&PrilOptions::min_cases>(),
       "pril: a rule needs more than this (weighted) many cases (n)", "pril", at_least(0)},
      {"n_option", option_field<&PrilOptions::n_option>(),
       "pril: 1: after the last step, one more pass at the minimum reliabilities without --min-cases for the cases "
       "still undecided (the paper's option to disregard n for undecideds); 0: none",
       "pril", in_range(0, 1)},
      {"branching", option_field<&PrilOptions::branching>(),
       "pril: attributes of the complete tree grown first: 0, 1 or 2 (the most significant by --branching-test), "
       "or -1: those significant at 0.05, at most 2 (docs/pril.md measures the choice)",
       "pril", in_range(-1, 2)},
      {"branching_attributes", option_field<&PrilOptions::branching_attributes>(),
       "pril: the branching attributes by name, comma-separated (overrides --branching)", "pril"},
      {"branching_test", named_option_field<kBranchingTestNames, &PrilOptions::branching_test>(),
       "pril: how --branching ranks attributes: logit (paper 004: Wald tests of each attribute's main effects in "
       "one logit model of all attributes' categories) or association (each attribute's likelihood-ratio "
       "chi-squared test of independence from the class, one at a time)",
       "pril"},
      {"risk", option_field<&PrilOptions::risk>(),
       "pril: alpha: each rule's accuracy is at least its reliability with confidence 1 - risk (exact binomial test)",
       "pril", in_range(0, 1, true, true)},
      {"bins", option_field<&PrilOptions::bins>(),
       "pril: categories each numeric attribute is cut into, at equal-weight quantiles of the training data (4: "
       "the paper's quartiles)",
       "pril", in_range(2, 1000000)},
  };
  return table;
}

std::vector<double> attribute_class_p_values(const Dataset& d, const Categories& c,
                                             const std::vector<std::size_t>& rows, const std::vector<double>& weights) {
  const std::size_t classes = d.num_classes();
  std::vector<double> p(d.num_attributes(), 1.0);
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    std::vector<std::vector<double>> table(c.count[a], std::vector<double>(classes, 0.0));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const int v = c.of(d, a, rows[k]);
      if (v >= 0) table[v][d.y[rows[k]]] += weights[k];
    }
    std::vector<double> row_total(table.size(), 0.0), col_total(classes, 0.0);
    double n = 0;
    for (std::size_t v = 0; v < table.size(); ++v)
      for (std::size_t y = 0; y < classes; ++y) {
        row_total[v] += table[v][y];
        col_total[y] += table[v][y];
        n += table[v][y];
      }
    const auto nonzero = [](const std::vector<double>& t) {
      return std::count_if(t.begin(), t.end(), [](double x) { return x > 0; });
    };
    const auto rows_seen = nonzero(row_total), classes_seen = nonzero(col_total);
    if (rows_seen < 2 || classes_seen < 2) continue;
    double g = 0;
    for (std::size_t v = 0; v < table.size(); ++v)
      for (std::size_t y = 0; y < classes; ++y)
        if (table[v][y] > 0) g += 2 * table[v][y] * std::log(table[v][y] * n / (row_total[v] * col_total[y]));
    const double df = static_cast<double>((rows_seen - 1) * (classes_seen - 1));
    p[a] = boost::math::cdf(boost::math::complement(boost::math::chi_squared(df), std::max(0.0, g)));
  }
  return p;
}

namespace {

std::vector<double> fit_main_effect_p_values(const Dataset& d, const Categories& c,
                                             const std::vector<std::size_t>& rows, const std::vector<double>& weights) {
  const std::size_t attributes = d.num_attributes();
  std::vector<double> p(attributes, 1.0);
  // Classes seen in training, numbered densely: a class without rows would drive its logit to -infinity.
  std::vector<double> class_weight(d.num_classes(), 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) class_weight[static_cast<std::size_t>(d.y[rows[k]])] += weights[k];
  std::vector<int> class_code(d.num_classes(), -1);
  int classes = 0;
  for (std::size_t y = 0; y < class_weight.size(); ++y)
    if (class_weight[y] > 0) class_code[y] = classes++;
  if (classes < 2) return p;

  // The model's attributes: all, or on wide data the kMaxModelAttributes most associated with the class one
  // at a time (the joint model's Hessian grows with the square of its columns times the classes').
  const auto alone = attribute_class_p_values(d, c, rows, weights);
  std::vector<std::size_t> in_model;
  for (std::size_t a = 0; a < attributes; ++a)
    if (alone[a] < 1) in_model.push_back(a);
  if (in_model.size() > kMaxModelAttributes) {
    std::stable_sort(in_model.begin(), in_model.end(),
                     [&](std::size_t a, std::size_t b) { return alone[a] < alone[b]; });
    in_model.resize(kMaxModelAttributes);
    std::sort(in_model.begin(), in_model.end());
  }
  // The design: per attribute, a column per non-reference category seen (category -1, missing, included).
  struct Column {
    std::size_t attribute;
    int category;
  };
  std::vector<Column> columns;
  std::vector<std::vector<Eigen::Index>> attribute_columns(attributes);
  for (std::size_t a : in_model) {
    std::vector<double> seen(static_cast<std::size_t>(c.count[a]) + 1, 0.0);  // slot 0: missing
    for (std::size_t k = 0; k < rows.size(); ++k) seen[static_cast<std::size_t>(c.of(d, a, rows[k]) + 1)] += weights[k];
    std::size_t reference = seen.size() > 1 ? 1 : 0;  // the heaviest category; missing only when nothing else is
    for (std::size_t v = 1; v < seen.size(); ++v)
      if (seen[v] > seen[reference]) reference = v;
    if (!(seen[reference] > 0)) reference = 0;
    for (std::size_t v = 0; v < seen.size(); ++v)
      if (v != reference && seen[v] > 0) {
        attribute_columns[a].push_back(static_cast<Eigen::Index>(columns.size()));
        columns.push_back({a, static_cast<int>(v) - 1});
      }
  }
  if (columns.empty()) return p;
  LogisticProblem problem;
  problem.logits = classes == 2 ? 1 : classes;
  problem.lambda = 1;
  problem.X = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (std::size_t j = 0; j < columns.size(); ++j)
      if (c.of(d, columns[j].attribute, rows[k]) == columns[j].category)
        problem.X(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) = 1;
    problem.y.push_back(class_code[static_cast<std::size_t>(d.y[rows[k]])]);
    problem.w.push_back(weights[k]);
  }
  const LogisticWeights fitted = solve_logistic(problem, SolverOptions{1e-6, 10000});
  const Eigen::MatrixXd covariance = logistic_covariance(problem, logistic_hessian(problem, fitted));
  for (std::size_t a = 0; a < attributes; ++a)
    if (!attribute_columns[a].empty()) p[a] = wald_test(problem, fitted, covariance, attribute_columns[a]).p_value;
  return p;
}

}  // namespace

std::vector<double> main_effect_p_values(const Dataset& d, const Categories& c, const std::vector<std::size_t>& rows,
                                         const std::vector<double>& weights) {
  // The model is the same for every setting that shares the training rows and categories (the PrIL
  // experiment fits hundreds of settings on each of a few training sets), so it is solved once: the key is
  // everything the design depends on, each row's class, weight and category of every attribute.
  static MemoCache<std::vector<double>> models(16);
  Digest key;
  key.add_value(d.num_classes());
  key.add_value(d.num_attributes());
  key.add_vector(c.count);
  key.add_vector(weights);
  std::vector<int> row(d.num_attributes() + 1);
  for (std::size_t r : rows) {
    row[0] = d.y[r];
    for (std::size_t a = 0; a < d.num_attributes(); ++a) row[a + 1] = c.of(d, a, r);
    key.add_vector(row);
  }
  return models.get(key, [&] { return fit_main_effect_p_values(d, c, rows, weights); });
}

namespace {

std::vector<int> branching_attributes(const Dataset& d, const LearnerParams& p, const Categories& c,
                                      const std::vector<std::size_t>& rows, const std::vector<double>& weights) {
  std::vector<int> out;
  if (!p.options<PrilOptions>().branching_attributes.empty()) {
    std::stringstream names(p.options<PrilOptions>().branching_attributes);
    std::string name;
    while (std::getline(names, name, ',')) {
      const int a = d.schema.attribute_index(name);
      if (a < 0) throw std::invalid_argument("branching attribute '" + name + "' is not an attribute of the data");
      if (std::find(out.begin(), out.end(), a) != out.end())
        throw std::invalid_argument("branching attribute '" + name + "' is named twice");
      out.push_back(a);
    }
    return out;
  }
  if (p.options<PrilOptions>().branching == 0) return out;
  const auto pv = p.options<PrilOptions>().branching_test == BranchingTest::logit
                      ? main_effect_p_values(d, c, rows, weights)
                      : attribute_class_p_values(d, c, rows, weights);
  std::vector<int> order(pv.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return pv[a] < pv[b]; });
  const std::size_t most =
      p.options<PrilOptions>().branching < 0 ? 2 : static_cast<std::size_t>(p.options<PrilOptions>().branching);
  for (int a : order) {
    if (out.size() >= most) break;
    if (p.options<PrilOptions>().branching < 0 && !(pv[a] < 0.05)) break;
    if (pv[a] < 1) out.push_back(a);
  }
  return out;
}

}  // namespace

std::unique_ptr<Model> fit_pril(const Dataset& data, const LearnerParams& params, int /*threads*/) {
  auto model = std::make_unique<PrilModel>();
  model->learner = params_to_json(params);
  model->risk = params.options<PrilOptions>().risk;
  record_training(*model, data);
  const std::size_t classes = data.num_classes();
  auto minimum = parse_reliabilities(params.options<PrilOptions>().reliability, classes);
  if (params.options<PrilOptions>().reliability_prior) {
    const auto totals = data.class_totals();
    const double n = std::accumulate(totals.begin(), totals.end(), 0.0);
    // At least the class's share, kept below 1 so that the class can still get rules.
    for (std::size_t k = 0; k < classes; ++k)
      if (n > 0) minimum[k] = std::min(std::max(minimum[k], totals[k] / n), 0.999);
  }
  PrilSettings settings;
  for (int t = 0; t < params.options<PrilOptions>().steps; ++t) settings.levels.emplace_back(classes);
  for (std::size_t k = 0; k < classes; ++k) {
    const auto levels =
        reliability_levels(minimum[k], params.options<PrilOptions>().shape, params.options<PrilOptions>().steps);
    for (int t = 0; t < params.options<PrilOptions>().steps; ++t) settings.levels[t][k] = levels[t];
  }
  settings.max_attributes = params.options<PrilOptions>().max_attributes;
  settings.min_cases = params.options<PrilOptions>().min_cases;
  settings.n_option = params.options<PrilOptions>().n_option == 1;
  settings.alpha = params.options<PrilOptions>().risk;

  const auto rows = labelled_rows(data);
  const std::vector<double> weights = weights_of(data, rows);
  model->categories = categorise(data, rows, weights, params.options<PrilOptions>().bins);
  model->branching = branching_attributes(data, params, model->categories, rows, weights);

  // Category codes of every row and attribute, and the attributes rules may use.
  const std::size_t attrs = data.num_attributes();
  std::vector<std::vector<int>> codes(attrs, std::vector<int>(data.rows(), -1));
  for (std::size_t a = 0; a < attrs; ++a)
    for (std::size_t r : rows) codes[a][r] = model->categories.of(data, a, r);
  std::vector<int> usable;
  for (std::size_t a = 0; a < attrs; ++a)
    if (std::find(model->branching.begin(), model->branching.end(), static_cast<int>(a)) == model->branching.end())
      usable.push_back(static_cast<int>(a));
  std::vector<double> row_weight(data.rows(), 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) row_weight[rows[k]] = weights[k];

  // The branches: every combination of branching categories (missing its own) that training cases reach.
  std::map<std::vector<int>, std::vector<std::size_t>> branch_rows;
  for (std::size_t r : rows) {
    std::vector<int> key;
    for (int a : model->branching) key.push_back(codes[a][r]);
    branch_rows[key].push_back(r);
  }
  for (const auto& [key, members] : branch_rows) {
    PrilBranch b;
    b.values = key;
    b.class_counts.assign(classes, 0.0);
    for (std::size_t r : members) b.class_counts[data.y[r]] += row_weight[r];
    b.sets = eliminate_subsets(codes, model->categories.count, data.y, row_weight, members, usable, classes, settings);
    model->branches.push_back(std::move(b));
  }

  // Training: the reliability of the deciding rule, an undecided case counting 0.
  double total = 0, reliable = 0, undecided = 0;
  for (std::size_t r : rows) {
    const auto dec = model->find(data, r);
    total += row_weight[r];
    if (dec.rule)
      reliable += row_weight[r] * dec.rule->reliability;
    else
      undecided += row_weight[r];
  }
  model->adjusted_average_reliability = total > 0 ? reliable / total : 0;
  model->training_undecided = total > 0 ? undecided / total : 0;
  return model;
}

void check_pril_options(const LearnerParams& p) { parse_reliabilities(p.options<PrilOptions>().reliability, 0); }

std::string describe_pril(const LearnerParams& p) {
  const PrilOptions& o = p.options<PrilOptions>();
  std::string s = "pril (reliability " + o.reliability + (o.reliability_prior ? " or the class share" : "") + ", " +
                  std::string(name_of(kReliabilityShapeNames, o.shape)) + " in " + std::to_string(o.steps) +
                  " steps, risk " + nlohmann::json(o.risk).dump() + ", M " + std::to_string(o.max_attributes) + ", n " +
                  nlohmann::json(o.min_cases).dump() + (o.n_option ? ", n-option" : "") + ", branching ";
  s += !o.branching_attributes.empty() ? o.branching_attributes
       : o.branching < 0               ? "automatic by " + std::string(name_of(kBranchingTestNames, o.branching_test))
       : o.branching > 0 ? std::to_string(o.branching) + " by " + name_of(kBranchingTestNames, o.branching_test)
                         : std::string("0");
  return s + ", " + std::to_string(o.bins) + " bins)";
}

void write_pril_options(const LearnerParams& p, nlohmann::json& j) {
  // The test is read only where branching is chosen by it: files of models without branching stay as they
  // were before the option existed.
  if (p.options<PrilOptions>().branching == 0 || !p.options<PrilOptions>().branching_attributes.empty())
    j.erase("branching_test");
}

}  // namespace candor
