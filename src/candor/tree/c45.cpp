#include "candor/tree/c45.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <memory>
#include <numeric>

#include "candor/tree/impurity.hpp"

namespace candor {

double c45_added_errors(double n, double errors, double confidence) {
  if (errors < 1) {
    // No error: the exact binomial bound; between 0 and 1 errors, linear interpolation as C4.5 does.
    const double base = n * (1 - std::pow(confidence, 1 / n));
    if (errors == 0) return base;
    return base + errors * (c45_added_errors(n, 1, confidence) - base);
  }
  if (errors + 0.5 >= n) return std::max(n - errors, 0.0);  // the continuity correction's high end
  const double z = boost::math::quantile(boost::math::normal(), 1 - confidence);
  const double f = (errors + 0.5) / n;
  const double r = (f + z * z / (2 * n) + z * std::sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n);
  return r * n - errors;
}

namespace {

// Weka's tolerances, so that ties and near-zero gains resolve as J48's do.
constexpr double kEps = 1e-6;
bool eq(double a, double b) { return std::abs(a - b) < kEps; }
bool gr(double a, double b) { return a - b > kEps; }
bool gr_or_eq(double a, double b) { return b - a <= kEps; }
bool sm_or_eq(double a, double b) { return a - b <= kEps; }

const double kLn2 = std::log(2.0);

struct Inst {
  std::size_t row;
  double w;
};
using Insts = std::vector<Inst>;

// A class distribution over branches ("bags").
struct Bags {
  std::vector<std::vector<double>> counts;  // bag x class
  std::vector<double> per_bag, per_class;
  double total = 0;
  Bags(std::size_t bags, std::size_t classes)
      : counts(bags, std::vector<double>(classes, 0.0)), per_bag(bags, 0.0), per_class(classes, 0.0) {}
  void add(std::size_t bag, int klass, double w) {
    counts[bag][klass] += w;
    per_bag[bag] += w;
    per_class[klass] += w;
    total += w;
  }
  void move(std::size_t from, std::size_t to, int klass, double w) {
    counts[from][klass] -= w;
    per_bag[from] -= w;
    counts[to][klass] += w;
    per_bag[to] += w;
  }
};

// Entropies in bits times weight (Weka's EntropyBasedSplitCrit).
double old_entropy(const Bags& b) {
  double s = 0;
  for (double c : b.per_class) s += xlogx(c);
  return (xlogx(b.total) - s) / kLn2;
}
double new_entropy(const Bags& b) {
  double s = 0;
  for (std::size_t i = 0; i < b.counts.size(); ++i) {
    for (double c : b.counts[i]) s += xlogx(c);
    s -= xlogx(b.per_bag[i]);
  }
  return -s / kLn2;
}
// Information gain per known example, scaled by the known share of `all` (the node's whole weight).
double info_gain(const Bags& b, double all, double old_ent) {
  const double numerator = (b.total / all) * (old_ent - new_entropy(b));
  if (eq(numerator, 0)) return 0;
  return numerator / b.total;
}
// Gain ratio: the unknown values count as one more branch of the split information.
double gain_ratio(const Bags& b, double all, double gain) {
  double split_ent = 0;
  if (gr(b.total, 0)) {
    for (double w : b.per_bag) split_ent -= xlogx(w);
    split_ent -= xlogx(all - b.total);
    split_ent += xlogx(all);
  }
  split_ent /= kLn2;
  if (eq(split_ent, 0)) return 0;
  return gain / (split_ent / all);
}

struct Candidate {
  bool usable = false;
  double gain = 0, ratio = 0;
  double threshold = 0;
  std::vector<double> branch_weights;
};

struct Node {
  SplitKind split = SplitKind::leaf;
  int attribute = -1;
  double threshold = 0;
  std::vector<double> branch_weights;
  std::vector<double> counts;
  std::vector<std::unique_ptr<Node>> kids;
  Insts train;
};

class Grower {
 public:
  Grower(const Dataset& d, const C45Options& o, const Insts& all) : d_(d), o_(o), classes_(d.num_classes()) {
    all_rows_ = static_cast<double>(all.size());
    // Sorted known training values of each numeric attribute (J48 moves thresholds down onto them).
    sorted_values_.resize(d.num_attributes());
    multi_valued_ = d.num_attributes() > 0;
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      if (d.attribute(a).is_nominal()) {
        if (static_cast<double>(d.attribute(a).values.size()) < 0.3 * all_rows_) multi_valued_ = false;
        continue;
      }
      multi_valued_ = false;
      auto& v = sorted_values_[a];
      for (const auto& i : all)
        if (!std::isnan(d.columns[a].values[i.row])) v.push_back(d.columns[a].values[i.row]);
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
  }

  std::unique_ptr<Node> build(Insts insts) {
    auto node = std::make_unique<Node>();
    node->counts = class_counts(insts);
    choose_split(*node, insts);
    if (node->split != SplitKind::leaf) {
      auto subsets = split_insts(*node, insts, node->branch_weights);
      for (auto& s : subsets) node->kids.push_back(build(std::move(s)));
    }
    node->train = std::move(insts);
    return node;
  }

  void collapse(Node& n) {
    if (n.split == SplitKind::leaf) return;
    if (training_errors(n) >= errors_of(n.counts) - 1e-3) {
      make_leaf(n);
      return;
    }
    for (auto& k : n.kids) collapse(*k);
  }

  void prune(Node& n) {
    if (n.split == SplitKind::leaf) return;
    for (auto& k : n.kids) prune(*k);
    const std::size_t largest =
        std::max_element(n.branch_weights.begin(), n.branch_weights.end()) - n.branch_weights.begin();
    // Weka's maxBag counts the unknown shares too; they follow the known proportions, so the order is the same.
    const double errors_largest = o_.subtree_raising ? estimated_errors_for_branch(*n.kids[largest], n.train)
                                                     : std::numeric_limits<double>::max();
    const double errors_leaf = estimated_errors(n.counts);
    const double errors_tree = estimated_errors_of_tree(n);
    if (sm_or_eq(errors_leaf, errors_tree + 0.1) && sm_or_eq(errors_leaf, errors_largest + 0.1)) {
      make_leaf(n);
      return;
    }
    if (sm_or_eq(errors_largest, errors_tree + 0.1)) {
      std::unique_ptr<Node> raised = std::move(n.kids[largest]);
      n.split = raised->split;
      n.attribute = raised->attribute;
      n.threshold = raised->threshold;
      n.kids = std::move(raised->kids);
      Insts train = std::move(n.train);
      new_distribution(n, std::move(train));
      prune(n);
    }
  }

 private:
  std::vector<double> class_counts(const Insts& insts) const {
    std::vector<double> c(classes_, 0.0);
    for (const auto& i : insts) c[d_.y[i.row]] += i.w;
    return c;
  }
  static double errors_of(const std::vector<double>& counts) {
    const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
    return n - *std::max_element(counts.begin(), counts.end());
  }
  double estimated_errors(const std::vector<double>& counts) const {
    const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
    if (eq(n, 0)) return 0;
    const double e = errors_of(counts);
    return e + c45_added_errors(n, e, o_.confidence);
  }
  double training_errors(const Node& n) const {
    if (n.split == SplitKind::leaf) return errors_of(n.counts);
    double s = 0;
    for (const auto& k : n.kids) s += training_errors(*k);
    return s;
  }
  double estimated_errors_of_tree(const Node& n) const {
    if (n.split == SplitKind::leaf) return estimated_errors(n.counts);
    double s = 0;
    for (const auto& k : n.kids) s += estimated_errors_of_tree(*k);
    return s;
  }
  static void make_leaf(Node& n) {
    n.split = SplitKind::leaf;
    n.kids.clear();
    n.branch_weights.clear();
  }

  // The branch a known value takes, or -1 for a missing value.
  int branch(const Node& n, std::size_t row) const {
    if (n.split == SplitKind::numeric) {
      const double x = d_.columns[n.attribute].values[row];
      if (std::isnan(x)) return -1;
      return x <= n.threshold ? 0 : 1;
    }
    return d_.columns[n.attribute].codes[row];
  }
  std::size_t branches(const Node& n) const {
    return n.split == SplitKind::numeric ? 2 : d_.attribute(n.attribute).values.size();
  }
  std::vector<double> known_weights(const Node& n, const Insts& insts) const {
    std::vector<double> w(branches(n), 0.0);
    for (const auto& i : insts) {
      const int b = branch(n, i.row);
      if (b >= 0) w[b] += i.w;
    }
    return w;
  }
  // The examples of each branch; an unknown value goes down every branch with its share of the known weight.
  std::vector<Insts> split_insts(const Node& n, const Insts& insts, const std::vector<double>& known) const {
    std::vector<Insts> out(known.size());
    const double known_total = std::accumulate(known.begin(), known.end(), 0.0);
    for (const auto& i : insts) {
      const int b = branch(n, i.row);
      if (b >= 0) {
        out[b].push_back(i);
        continue;
      }
      for (std::size_t k = 0; k < known.size(); ++k) {
        const double share = known_total > 0 ? known[k] / known_total : 0;
        if (gr(share, 0)) out[k].push_back({i.row, i.w * share});
      }
    }
    return out;
  }
  double estimated_errors_for_branch(Node& n, const Insts& insts) const {
    if (n.split == SplitKind::leaf) return estimated_errors(class_counts(insts));
    const auto subsets = split_insts(n, insts, known_weights(n, insts));
    double s = 0;
    for (std::size_t k = 0; k < n.kids.size(); ++k) s += estimated_errors_for_branch(*n.kids[k], subsets[k]);
    return s;
  }
  void new_distribution(Node& n, Insts insts) {
    n.counts = class_counts(insts);
    if (n.split != SplitKind::leaf) {
      n.branch_weights = known_weights(n, insts);
      auto subsets = split_insts(n, insts, n.branch_weights);
      for (std::size_t k = 0; k < n.kids.size(); ++k) new_distribution(*n.kids[k], std::move(subsets[k]));
    }
    n.train = std::move(insts);
  }

  Candidate nominal_candidate(std::size_t a, const Insts& insts, double all) const {
    Candidate c;
    Bags bags(d_.attribute(a).values.size(), classes_);
    for (const auto& i : insts) {
      const int code = d_.columns[a].codes[i.row];
      if (code != kMissing) bags.add(code, d_.y[i.row], i.w);
    }
    int enough = 0;
    for (double w : bags.per_bag) enough += gr_or_eq(w, o_.min_leaf);
    if (enough < 2) return c;
    c.usable = true;
    c.gain = info_gain(bags, all, old_entropy(bags));
    c.ratio = gain_ratio(bags, all, c.gain);
    c.branch_weights = bags.per_bag;
    return c;
  }

  Candidate numeric_candidate(std::size_t a, const Insts& insts, double all) const {
    Candidate c;
    std::vector<std::pair<double, std::size_t>> known;  // value, position in insts
    known.reserve(insts.size());
    for (std::size_t k = 0; k < insts.size(); ++k) {
      const double x = d_.columns[a].values[insts[k].row];
      if (!std::isnan(x)) known.emplace_back(x, k);
    }
    if (static_cast<double>(known.size()) < 2 * o_.min_leaf) return c;
    std::sort(known.begin(), known.end());
    Bags bags(2, classes_);
    for (const auto& [x, k] : known) bags.add(1, d_.y[insts[k].row], insts[k].w);
    double min_split = 0.1 * bags.total / static_cast<double>(classes_);
    if (sm_or_eq(min_split, o_.min_leaf))
      min_split = o_.min_leaf;
    else if (gr(min_split, 25))
      min_split = 25;
    const double old_ent = old_entropy(bags);
    double best = 0;
    std::size_t split_index = 0, candidates = 0, last = 0;
    for (std::size_t next = 1; next < known.size(); ++next) {
      if (!(known[next - 1].first + 1e-5 < known[next].first)) continue;
      for (; last < next; ++last) bags.move(1, 0, d_.y[insts[known[last].second].row], insts[known[last].second].w);
      if (gr_or_eq(bags.per_bag[0], min_split) && gr_or_eq(bags.per_bag[1], min_split)) {
        const double gain = info_gain(bags, all, old_ent);
        if (gr(gain, best)) {
          best = gain;
          split_index = next - 1;
        }
        ++candidates;
      }
    }
    if (candidates == 0) return c;
    best -= std::log2(static_cast<double>(candidates)) / all;  // the MDL correction
    if (sm_or_eq(best, 0)) return c;
    c.usable = true;
    c.gain = best;
    c.threshold = (known[split_index].first + known[split_index + 1].first) / 2;
    if (c.threshold == known[split_index + 1].first) c.threshold = known[split_index].first;
    Bags chosen(2, classes_);
    for (std::size_t k = 0; k < known.size(); ++k)
      chosen.add(k <= split_index ? 0 : 1, d_.y[insts[known[k].second].row], insts[known[k].second].w);
    c.ratio = gain_ratio(chosen, all, c.gain);
    c.branch_weights = chosen.per_bag;
    return c;
  }

  void choose_split(Node& n, const Insts& insts) const {
    const double all = std::accumulate(n.counts.begin(), n.counts.end(), 0.0);
    if (all < 2 * o_.min_leaf - kEps || eq(all, *std::max_element(n.counts.begin(), n.counts.end()))) return;
    std::vector<Candidate> cands(d_.num_attributes());
    double average = 0;
    int counted = 0;
    for (std::size_t a = 0; a < d_.num_attributes(); ++a) {
      const Attribute& attr = d_.attribute(a);
      cands[a] = attr.is_nominal() ? nominal_candidate(a, insts, all) : numeric_candidate(a, insts, all);
      if (!cands[a].usable) continue;
      // Nominal attributes with very many values (>= 30% of the training rows) do not set the bar.
      if (!attr.is_nominal() || multi_valued_ || static_cast<double>(attr.values.size()) < 0.3 * all_rows_) {
        average += cands[a].gain;
        ++counted;
      }
    }
    if (counted == 0) return;
    average /= counted;
    double best_ratio = 0;
    int best = -1;
    for (std::size_t a = 0; a < d_.num_attributes(); ++a)
      if (cands[a].usable && cands[a].gain >= average - 1e-3 && gr(cands[a].ratio, best_ratio)) {
        best = static_cast<int>(a);
        best_ratio = cands[a].ratio;
      }
    if (best < 0 || eq(best_ratio, 0)) return;
    const Attribute& attr = d_.attribute(best);
    n.attribute = best;
    n.branch_weights = cands[best].branch_weights;
    if (attr.is_nominal()) {
      n.split = SplitKind::nominal;
      return;
    }
    n.split = SplitKind::numeric;
    // The largest training value not above the midpoint, as C4.5 prints and applies it.
    const auto& v = sorted_values_[best];
    auto it = std::upper_bound(v.begin(), v.end(), cands[best].threshold);
    n.threshold = it == v.begin() ? cands[best].threshold : *(it - 1);
  }

  const Dataset& d_;
  C45Options o_;
  std::size_t classes_;
  double all_rows_ = 0;
  bool multi_valued_ = false;
  std::vector<std::vector<double>> sorted_values_;
};

void flatten(const Node& n, Tree& t) {
  const int index = static_cast<int>(t.nodes.size());
  t.nodes.emplace_back();
  {
    TreeNode& out = t.nodes[index];
    out.split = n.split;
    out.attribute = n.attribute;
    out.threshold = n.threshold;
    out.branch_weights = n.branch_weights;
    out.class_counts = n.counts;
  }
  for (const auto& k : n.kids) {
    const int child = static_cast<int>(t.nodes.size());
    t.nodes[index].children.push_back(child);
    flatten(*k, t);
  }
}

}  // namespace

Tree grow_c45(const Dataset& d, const std::vector<std::size_t>& rows, const std::vector<double>& weights,
              const C45Options& options) {
  Insts insts;
  insts.reserve(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (weights[k] > 0) insts.push_back({rows[k], weights[k]});
  Grower grower(d, options, insts);
  auto root = grower.build(std::move(insts));
  grower.collapse(*root);
  if (options.prune) grower.prune(*root);
  Tree t;
  flatten(*root, t);
  t.number_leaves_as_cells();
  return t;
}

}  // namespace candor
