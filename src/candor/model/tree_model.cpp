#include "candor/model/tree_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "candor/util/format.hpp"
#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"

namespace candor {

std::vector<double> laplace_prior(const std::vector<double>& counts) {
  const double k = static_cast<double>(counts.size());
  const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
  std::vector<double> p(counts.size());
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (counts[c] + 1) / (n + k);
  return p;
}

std::vector<double> TreeModel::leaf_prior() const { return leaf_shrinkage ? laplace_prior(training_counts) : prior(); }

std::vector<double> TreeModel::predict_proba(const Dataset& d, std::size_t row) const {
  return tree.predict_proba(d, row, leaf_estimate, leaf_weight(), leaf_prior());
}

namespace {
// Leaf node index -> its 1-based number in the rule list.
std::map<int, int> leaf_numbers(const Tree& t) {
  std::map<int, int> numbers;
  int k = 0;
  for (const auto& path : t.leaf_paths()) numbers[path.leaf] = ++k;
  return numbers;
}
}  // namespace

std::vector<std::string> TreeModel::explain(const Dataset& d, std::size_t row) const {
  std::vector<std::pair<int, double>> leaves;
  tree.route(d, row, leaves);
  std::sort(leaves.begin(), leaves.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const auto numbers = leaf_numbers(tree);
  std::vector<std::string> out;
  for (const auto& [leaf, fraction] : leaves)
    out.push_back("leaf " + std::to_string(numbers.at(leaf)) + (fraction < 1 ? " " + fixed_digits(fraction, 2) : ""));
  return out;
}

std::string tree_rules_text(const Tree& tree, const Schema& schema, LeafEstimate estimate, double prior_weight,
                            const std::vector<double>& prior) {
  std::string out;
  const auto parents = tree.parents();
  int k = 0;
  for (const auto& path : tree.leaf_paths()) {
    const auto& counts = tree.effective_counts(path.leaf, parents);
    const auto p = Tree::leaf_distribution(counts, estimate, prior_weight, prior);
    const auto best = std::max_element(p.begin(), p.end()) - p.begin();
    // The style of a rule model's rules (`candor rules`): "IF ... THEN class = value", then its figures.
    const auto& own = tree.nodes[path.leaf].class_counts;
    const double n = std::accumulate(own.begin(), own.end(), 0.0);
    const auto& klass = schema.class_attribute;
    out += std::to_string(++k) + ". " + format_leaf_path(path, schema) + " " + klass.name + " = " + klass.values[best] +
           "\n   covers " + count_text(n) + " [";
    for (std::size_t c = 0; c < own.size(); ++c) out += (c ? ", " : "") + count_text(own[c]);
    out += "]  P(" + klass.values[best] + ") = " + fixed_digits(p[best], 4) + "\n";
  }
  return out;
}

void TreeModel::use(TreeModelSettings s) {
  leaf_estimate = parse_leaf_estimate(s.leaf_estimate);
  fits_leaf_shrinkage = s.leaf_estimate == "bootstrap";
  settings = std::move(s);
}

nlohmann::json tree_model_settings_json(const TreeModelSettings& s) {
  return {{"leaf_estimate", s.leaf_estimate}, {"prior_weight", s.prior_weight}};
}

TreeModelSettings tree_model_settings_from_json(const nlohmann::json& j) {
  return read_entry(j, [&] {
    check_known_entries(j, {{"leaf_estimate"}, {"prior_weight"}});
    TreeModelSettings s;
    settings_name(j, "leaf_estimate", kLeafEstimateNames);  // throws for a name it does not know
    s.leaf_estimate = json_get<std::string>(j, "leaf_estimate");
    s.prior_weight = settings_number(j, "prior_weight", 0, std::numeric_limits<double>::infinity());
    return s;
  });
}

std::string TreeModel::text(const std::string& learner) const {
  std::string out = learner + "\n" + kLeafNotation + "\n\n" + tree.text(schema);
  out += "\nNumber of leaves: " + std::to_string(tree.leaf_count()) +
         "\nSize of the tree: " + std::to_string(tree.size()) +
         "\n\nLeaves as rules, numbered as `candor predict --explain` names them: covers is the weight of the "
         "training examples reaching the leaf, by class; P is the leaf's probability of its class (leaf estimate " +
         settings.leaf_estimate + "):\n";
  if (leaf_shrinkage)
    out += "Each leaf's counts are mixed with m = " + fixed_digits(leaf_shrinkage->m, 2) +
           " pseudo-examples of the prior (one example added to every class), fitted on the rows " +
           std::to_string(leaf_shrinkage->resamples) + " bootstrap resamples' trees left out (" +
           std::to_string(leaf_shrinkage->leaves) + " leaves).\n";
  if (leaf_shrinkage &&
      leaf_shrinkage->at_largest(std::accumulate(training_counts.begin(), training_counts.end(), 0.0)))
    out +=
        "That m is the largest the fit allows (10 times the training weight): on the rows the resamples left "
        "out, no leaf predicted better than the class prior, so every leaf predicts close to the prior and the "
        "splits above are not borne out by this data.\n";
  out += tree_rules_text(tree, schema, leaf_estimate, leaf_weight(), leaf_prior());
  return out;
}

nlohmann::json TreeModel::to_json() const {
  nlohmann::json j = model_header_json(*this);
  j["tree"] = tree.to_json();
  j["settings"] = tree_model_settings_json(settings);
  if (leaf_shrinkage)
    j["leaf_shrinkage"] = {
        {"resamples", leaf_shrinkage->resamples}, {"m", leaf_shrinkage->m}, {"leaves", leaf_shrinkage->leaves}};
  return j;
}

double TreeModel::mean_rule_length() const {
  const auto paths = tree.leaf_paths();
  double s = 0;
  for (const auto& p : paths) s += static_cast<double>(p.tests.size());
  return paths.empty() ? 0 : s / static_cast<double>(paths.size());
}

std::vector<RulePoint> TreeModel::rule_points(const Dataset& test) const {
  const auto parents = tree.parents();
  std::vector<std::vector<double>> reached(tree.nodes.size(),
                                           std::vector<double>(schema.class_attribute.values.size(), 0.0));
  std::vector<std::pair<int, double>> leaves;
  for (std::size_t r = 0; r < test.rows(); ++r) {
    if (test.y[r] == kMissing) continue;
    tree.route(test, r, leaves);
    for (const auto& [leaf, fraction] : leaves) reached[leaf][test.y[r]] += fraction * test.weights[r];
  }
  std::vector<RulePoint> out;
  int number = 0;  // the leaf's number in text()'s rule list
  for (const auto& path : tree.leaf_paths()) {
    ++number;
    const auto& own = tree.nodes[path.leaf].class_counts;
    const double n = std::accumulate(reached[path.leaf].begin(), reached[path.leaf].end(), 0.0);
    if (!(std::accumulate(own.begin(), own.end(), 0.0) > 0) || !(n > 0)) continue;
    const auto p = Tree::leaf_distribution(own, leaf_estimate, leaf_weight(), leaf_prior());
    const auto best = std::max_element(p.begin(), p.end()) - p.begin();
    RulePoint point{p[best], reached[path.leaf][best] / n, n};
    point.rule = number;
    out.push_back(point);
  }
  return out;
}

TreeModel TreeModel::from_json(const nlohmann::json& j) {
  TreeModel m;
  read_model_header(j, m, {{"tree"}, {"leaf_shrinkage"}, {"settings"}});
  if (j.contains("settings")) {
    m.use(tree_model_settings_from_json(j.at("settings")));
  } else {  // a file written before models recorded their settings: the learner's options, as it wrote them
    constexpr double kInf = std::numeric_limits<double>::infinity();
    m.use(
        {learner_text(m.learner, "leaf_estimate", "laplace"), learner_number(m.learner, "prior_weight", 1.0, 0, kInf)});
  }
  m.tree = Tree::from_json(j.at("tree"), m.schema, false);
  if (j.contains("leaf_shrinkage")) {
    const auto& s = j.at("leaf_shrinkage");
    check_known_entries(s, {{"resamples"}, {"m"}, {"leaves"}});
    LeafShrinkage l;
    l.resamples = json_int(s.at("resamples"), "leaf_shrinkage resamples", 1);
    l.m = json_get<double>(s, "m");
    l.leaves = static_cast<std::size_t>(
        json_integer(s.at("leaves"), "leaf_shrinkage leaves", 0, std::numeric_limits<long long>::max()));
    if (!(l.m >= 0) || !std::isfinite(l.m)) throw JsonEntryError(s.at("m"), "must be finite and non-negative");
    m.leaf_shrinkage = l;
  }
  if (m.fits_leaf_shrinkage && !m.leaf_shrinkage)
    throw std::invalid_argument("a --leaf-estimate bootstrap tree needs its \"leaf_shrinkage\"");
  return m;
}

nlohmann::json TreeModel::rule_table() const {
  nlohmann::json rows = nlohmann::json::array();
  const auto parents = tree.parents();
  for (const auto& path : tree.leaf_paths()) {
    const auto& own = tree.nodes[path.leaf].class_counts;
    const auto p =
        Tree::leaf_distribution(tree.effective_counts(path.leaf, parents), leaf_estimate, leaf_weight(), leaf_prior());
    const auto best = std::max_element(p.begin(), p.end()) - p.begin();
    std::string text = format_leaf_path(path, schema);
    text = text.substr(3, text.size() - 8);  // without "IF " and " THEN"
    rows.push_back({{"rule", text},
                    {"class", schema.class_attribute.values[best]},
                    {"covered", std::accumulate(own.begin(), own.end(), 0.0)},
                    {"class_counts", own},
                    {"probability", p[best]}});
  }
  return rows;
}

std::vector<std::vector<std::size_t>> TreeModel::fired_rules(const Dataset& d) const {
  const auto numbers = leaf_numbers(tree);
  std::vector<std::vector<std::size_t>> out(d.rows());
  std::vector<std::pair<int, double>> leaves;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    leaves.clear();
    tree.route(d, r, leaves);
    for (const auto& leaf : leaves) out[r].push_back(static_cast<std::size_t>(numbers.at(leaf.first) - 1));
    std::sort(out[r].begin(), out[r].end());
  }
  return out;
}

RuleShape leaf_path_shape(const Tree::LeafPath& path, int klass) {
  RuleShape shape;
  shape.klass = klass;
  for (const auto& [condition, missing] : path.tests)
    if (missing)
      shape.missing.push_back(condition.attribute);
    else
      shape.conditions.push_back(condition);
  return shape;
}

std::vector<RuleShape> TreeModel::rule_shapes() const {
  // The class of each row of rule_table(): the leaf's most probable class.
  const nlohmann::json table = rule_table();
  std::vector<RuleShape> out;
  std::size_t k = 0;
  for (const auto& path : tree.leaf_paths())
    out.push_back(leaf_path_shape(path, schema.class_attribute.value_index(table[k++]["class"].get<std::string>())));
  return out;
}

}  // namespace candor
