#include "candor/tree/tree.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "candor/util/format.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"

namespace candor {

namespace {

// The child a known value goes down, or -1 when the value is missing.
int branch_of(const TreeNode& n, const Dataset& d, std::size_t row) {
  if (n.split == SplitKind::numeric) {
    const double x = d.columns[n.attribute].values[row];
    if (std::isnan(x)) return -1;
    return x <= n.threshold ? 0 : 1;
  }
  const int code = d.columns[n.attribute].codes[row];
  if (code == kMissing) return -1;
  if (n.split == SplitKind::nominal_binary) return code == n.value ? 0 : 1;
  // A value the model never saw (data read against its schema codes it past the known values) has no
  // branch of its own: it goes down as a missing value does.
  const int known = static_cast<int>(n.children.size()) - (n.missing_child >= 0 ? 1 : 0);
  return code < known ? code : -1;
}

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// Sends a row down from `node`, calling visit(leaf, fraction, counted) at every leaf it reaches, where
// `counted` is the leaf, or its nearest ancestor with training weight when the leaf has none (the counts
// C4.5 predicts an empty leaf from; tracked only when kCounted, the routing alone not paying for it).
template <bool kCounted, class Visit>
void route_from(const Tree& t, int node, double fraction, int counted, const Dataset& d, std::size_t row,
                Visit& visit) {
  const TreeNode& n = t.nodes[node];
  if constexpr (kCounted) {
    if (total(n.class_counts) > 0) counted = node;
  }
  if (n.is_leaf()) {
    visit(node, fraction, counted);
    return;
  }
  const int b = branch_of(n, d, row);
  if (b >= 0) return route_from<kCounted>(t, n.children[b], fraction, counted, d, row, visit);
  if (n.missing_child >= 0)
    return route_from<kCounted>(t, n.children[n.missing_child], fraction, counted, d, row, visit);
  const double known = std::accumulate(n.branch_weights.begin(), n.branch_weights.end(), 0.0);
  for (std::size_t c = 0; c < n.children.size(); ++c) {
    const double share = known > 0 ? n.branch_weights[c] / known : 1.0 / static_cast<double>(n.children.size());
    if (share > 0) route_from<kCounted>(t, n.children[c], fraction * share, counted, d, row, visit);
  }
}

}  // namespace

void Tree::route(const Dataset& d, std::size_t row, std::vector<std::pair<int, double>>& out) const {
  out.clear();
  auto visit = [&](int leaf, double fraction, int) { out.emplace_back(leaf, fraction); };
  route_from<false>(*this, 0, 1.0, 0, d, row, visit);
}

void Tree::cell_route(const Dataset& d, std::size_t row, std::vector<std::pair<int, double>>& out) const {
  route(d, row, out);
  for (auto& [node, fraction] : out) node = nodes[node].cell;
  if (out.size() > 1) {  // merge leaves of one cell
    std::sort(out.begin(), out.end());
    std::size_t k = 0;
    for (std::size_t i = 1; i < out.size(); ++i) {
      if (out[i].first == out[k].first)
        out[k].second += out[i].second;
      else
        out[++k] = out[i];
    }
    out.resize(k + 1);
  }
}

std::vector<double> Tree::leaf_distribution(const std::vector<double>& counts, LeafEstimate estimate,
                                            double prior_weight, const std::vector<double>& prior) {
  const double n = total(counts);
  std::vector<double> p(counts.size());
  if (estimate == LeafEstimate::laplace) {
    for (std::size_t c = 0; c < p.size(); ++c) p[c] = (counts[c] + 1) / (n + static_cast<double>(p.size()));
    return p;
  }
  if (n + prior_weight <= 0) return prior;
  for (std::size_t c = 0; c < p.size(); ++c) p[c] = (counts[c] + prior_weight * prior[c]) / (n + prior_weight);
  return p;
}

std::vector<int> Tree::parents() const {
  std::vector<int> parent(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (int c : nodes[i].children) parent[c] = static_cast<int>(i);
  return parent;
}

const std::vector<double>& Tree::effective_counts(int leaf, const std::vector<int>& parent) const {
  int node = leaf;
  while (parent[node] >= 0 && !(total(nodes[node].class_counts) > 0)) node = parent[node];
  return nodes[node].class_counts;
}

std::vector<double> Tree::predict_proba(const Dataset& d, std::size_t row, LeafEstimate estimate, double prior_weight,
                                        const std::vector<double>& prior) const {
  std::vector<double> p(prior.size(), 0.0);
  auto visit = [&](int, double fraction, int counted) {
    const auto q = leaf_distribution(nodes[counted].class_counts, estimate, prior_weight, prior);
    for (std::size_t c = 0; c < p.size(); ++c) p[c] += fraction * q[c];
  };
  route_from<true>(*this, 0, 1.0, 0, d, row, visit);
  return p;
}

double Tree::predict_value(const Dataset& d, std::size_t row) const {
  std::vector<std::pair<int, double>> leaves;
  route(d, row, leaves);
  double v = 0;
  for (const auto& [leaf, fraction] : leaves) v += fraction * nodes[leaf].value_mean;
  return v;
}

std::size_t Tree::leaf_count() const {
  return static_cast<std::size_t>(
      std::count_if(nodes.begin(), nodes.end(), [](const TreeNode& n) { return n.is_leaf(); }));
}

namespace {

// The test that leads from node `n` into its child `c`; second: the test is "attribute is missing".
std::pair<Condition, bool> branch_test(const TreeNode& n, int c) {
  Condition cond;
  cond.attribute = n.attribute;
  if (c == n.missing_child) return {cond, true};
  switch (n.split) {
    case SplitKind::numeric:
      cond.op = c == 0 ? Op::le : Op::gt;
      cond.threshold = n.threshold;
      break;
    case SplitKind::nominal_binary:
      cond.op = c == 0 ? Op::eq : Op::ne;
      cond.value = n.value;
      break;
    default: cond.op = Op::eq; cond.value = c;
  }
  return {cond, false};
}

std::string test_text(const std::pair<Condition, bool>& t, const Schema& schema) {
  if (t.second) return schema.attributes[t.first.attribute].name + " = ?";
  return describe(t.first, schema);
}

void collect_paths(const Tree& t, int node, std::vector<std::pair<Condition, bool>>& tests,
                   std::vector<Tree::LeafPath>& out) {
  const TreeNode& n = t.nodes[node];
  if (n.is_leaf()) {
    out.push_back({node, tests});
    return;
  }
  for (std::size_t c = 0; c < n.children.size(); ++c) {
    tests.push_back(branch_test(n, static_cast<int>(c)));
    collect_paths(t, n.children[c], tests, out);
    tests.pop_back();
  }
}

// Two decimals without trailing zeros: "12", "3.5", "0.25".
std::string short_number(double x) {
  std::string s = fixed_digits(x, 2);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string counts_text(const std::vector<double>& counts, const Schema& schema) {
  const double n = total(counts);
  const auto best = std::max_element(counts.begin(), counts.end()) - counts.begin();
  std::string s = schema.class_attribute.values[best] + " (" + short_number(n);
  const double wrong = n - counts[best];
  if (wrong > 0) s += "/" + short_number(wrong);
  return s + ")";
}

void text_from(const Tree& t, int node, int depth, const Schema& schema, bool regression, std::string& out) {
  const TreeNode& n = t.nodes[node];
  for (std::size_t c = 0; c < n.children.size(); ++c) {
    const TreeNode& child = t.nodes[n.children[c]];
    for (int i = 0; i < depth; ++i) out += "|   ";
    out += test_text(branch_test(n, static_cast<int>(c)), schema);
    if (child.is_leaf()) {
      // An empty leaf predicts (and is labelled with) its nearest non-empty ancestor's class.
      const auto& counts = regression ? child.class_counts : t.effective_counts(n.children[c], t.parents());
      out += ": " + (regression ? fixed_digits(child.value_mean, 4) : counts_text(counts, schema));
      if (!regression && &counts != &child.class_counts) out.replace(out.rfind('('), std::string::npos, "(0)");
      out += "\n";
    } else {
      out += "\n";
      text_from(t, n.children[c], depth + 1, schema, regression, out);
    }
  }
}

const char* split_name(SplitKind k) {
  switch (k) {
    case SplitKind::numeric: return "numeric";
    case SplitKind::nominal: return "nominal";
    case SplitKind::nominal_binary: return "nominal-binary";
    default: return "leaf";
  }
}

}  // namespace

std::vector<Tree::LeafPath> Tree::leaf_paths() const {
  std::vector<LeafPath> out;
  std::vector<std::pair<Condition, bool>> tests;
  if (!nodes.empty()) collect_paths(*this, 0, tests, out);
  return out;
}

void Tree::number_leaves_as_cells() {
  cells = 0;
  for (const auto& path : leaf_paths()) nodes[path.leaf].cell = cells++;
}

std::string format_leaf_path(const Tree::LeafPath& path, const Schema& schema) {
  // A path can test one numeric attribute again below (b > 2, then b > 5): only the tightest bound on each
  // side says anything, and a lower and an upper bound are one interval (2 < b <= 5), as in rule text
  // (describe_conditions writes both).
  std::vector<Condition> conditions;
  std::vector<std::string> missing;
  for (const auto& test : path.tests) {
    const Condition& c = test.first;
    if (test.second) {
      missing.push_back(test_text(test, schema));
      continue;
    }
    if (c.op == Op::le || c.op == Op::gt) {
      auto same = std::find_if(conditions.begin(), conditions.end(),
                               [&](const Condition& d) { return d.attribute == c.attribute && d.op == c.op; });
      if (same != conditions.end()) {
        same->threshold =
            c.op == Op::le ? std::min(same->threshold, c.threshold) : std::max(same->threshold, c.threshold);
        continue;
      }
    }
    conditions.push_back(c);
  }
  std::string s = conditions.empty() ? std::string() : describe_conditions(conditions, schema);
  for (const auto& m : missing) s += (s.empty() ? "" : " AND ") + m;
  return "IF " + (s.empty() ? std::string("TRUE") : s) + " THEN";
}

std::string Tree::text(const Schema& schema, bool regression) const {
  if (nodes.empty()) return "";
  if (nodes[0].is_leaf())
    return ": " + (regression ? fixed_digits(nodes[0].value_mean, 4) : counts_text(nodes[0].class_counts, schema)) +
           "\n";
  std::string out;
  text_from(*this, 0, 0, schema, regression, out);
  return out;
}

nlohmann::json Tree::to_json() const {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& n : nodes) {
    nlohmann::json j{{"split", split_name(n.split)}};
    if (!n.is_leaf()) {
      j["attribute"] = n.attribute;
      if (n.split == SplitKind::numeric) j["threshold"] = n.threshold;
      if (n.split == SplitKind::nominal_binary) j["value"] = n.value;
      j["children"] = n.children;
      j["missing_child"] = n.missing_child;
      j["branch_weights"] = n.branch_weights;
    } else {
      j["cell"] = n.cell;
    }
    j["class_counts"] = n.class_counts;
    j["mean"] = n.value_mean;
    arr.push_back(std::move(j));
  }
  // Moved, not copied into an initializer list: a tree of a million nodes is written once.
  nlohmann::json tree = nlohmann::json::object();
  tree["cells"] = cells;
  tree["nodes"] = std::move(arr);
  return tree;
}

Tree Tree::from_json(const nlohmann::json& j, const Schema& schema, bool regression) {
  check_known_entries(j, {{"cells"}, {"nodes"}});
  Tree t;
  t.cells = json_int(j.at("cells"), "a tree's cells", 0);
  const auto& arr = j.at("nodes");
  if (!arr.is_array() || arr.empty()) throw std::invalid_argument("a tree needs at least one node");
  const int size = static_cast<int>(arr.size());
  const std::size_t classes = schema.class_attribute.values.size();
  std::vector<int> seen_as_child(arr.size(), 0);
  for (const auto& jn : arr) {
    read_entry(jn, [&] {
      TreeNode n;
      const std::string split = json_get<std::string>(jn, "split");
      const bool leaf = split == "leaf";
      check_known_entries(jn, {{"split"},
                               {"class_counts"},
                               {"mean"},
                               {"cell", leaf},
                               {"attribute", !leaf},
                               {"threshold", split == "numeric"},
                               {"value", split == "nominal-binary"},
                               {"children", !leaf},
                               {"missing_child", !leaf},
                               {"branch_weights", !leaf}});
      n.class_counts = json_get<std::vector<double>>(jn, "class_counts");
      if (!regression && n.class_counts.size() != classes)
        throw std::invalid_argument("a tree node needs one class count per class");
      for (double c : n.class_counts)
        if (!(c >= 0) || !std::isfinite(c))
          throw std::invalid_argument("tree class counts must be finite and non-negative");
      n.value_mean = json_get<double>(jn, "mean");
      if (!std::isfinite(n.value_mean)) throw std::invalid_argument("a tree node's mean must be finite");
      if (leaf) {
        n.cell = json_int(jn.at("cell"), "a leaf's cell");
        if (n.cell < 0 || n.cell >= t.cells) throw std::invalid_argument("a leaf's cell is out of range");
        t.nodes.push_back(std::move(n));
        return;
      }
      n.split = split == "numeric"          ? SplitKind::numeric
                : split == "nominal"        ? SplitKind::nominal
                : split == "nominal-binary" ? SplitKind::nominal_binary
                                            : throw std::invalid_argument("unknown tree split '" + split + "'");
      n.attribute = json_int(jn.at("attribute"), "a tree split's attribute");
      if (n.attribute < 0 || n.attribute >= static_cast<int>(schema.attributes.size()))
        throw std::invalid_argument("a tree split names an attribute out of range");
      const Attribute& a = schema.attributes[n.attribute];
      if ((n.split == SplitKind::numeric) == a.is_nominal())
        throw std::invalid_argument("a tree split does not match the type of attribute '" + a.name + "'");
      if (n.split == SplitKind::numeric) {
        n.threshold = json_get<double>(jn, "threshold");
        if (!std::isfinite(n.threshold)) throw std::invalid_argument("a tree threshold must be finite");
      }
      if (n.split == SplitKind::nominal_binary) {
        n.value = json_int(jn.at("value"), "a tree split's value");
        if (n.value < 0 || n.value >= static_cast<int>(a.values.size()))
          throw std::invalid_argument("a tree split names a value out of range");
      }
      n.children = json_ints(jn.at("children"), "a tree node's children");
      n.missing_child = json_int(jn.at("missing_child"), "a tree node's missing child", -1);
      n.branch_weights = json_get<std::vector<double>>(jn, "branch_weights");
      const std::size_t known_children = n.split == SplitKind::nominal ? a.values.size() : 2;
      const std::size_t expected = known_children + (n.missing_child >= 0 ? 1 : 0);
      if (n.children.size() != expected || n.branch_weights.size() != n.children.size())
        throw std::invalid_argument("a tree split has the wrong number of children or branch weights");
      if (n.missing_child >= 0 && n.missing_child != static_cast<int>(known_children))
        throw std::invalid_argument("a tree's missing child must follow the known values' children");
      for (double w : n.branch_weights)
        if (!(w >= 0) || !std::isfinite(w))
          throw std::invalid_argument("tree branch weights must be finite and non-negative");
      for (int c : n.children) {
        if (c <= static_cast<int>(t.nodes.size()) || c >= size)
          throw std::invalid_argument("a tree child must come after its parent");
        if (seen_as_child[c]++) throw std::invalid_argument("a tree node has two parents");
      }
      t.nodes.push_back(std::move(n));
    });
  }
  for (int i = 1; i < size; ++i)
    if (!seen_as_child[i]) throw std::invalid_argument("a tree node is not reachable from the root");
  return t;
}

}  // namespace candor
