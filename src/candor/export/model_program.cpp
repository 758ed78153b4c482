#include "candor/export/model_program.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "candor/model/boost_model.hpp"
#include "candor/model/combine.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/model/pril_model.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/model/tree_model.hpp"

namespace candor {

namespace {

using namespace expr;

// The floor logistic models and ensembles keep every probability above (linear/penalised_logistic.cpp's
// logit_probabilities).
constexpr double kEdge = 1e-12;

ExprPtr let(Program& p, ExprPtr e) {
  if (e->op == ExprOp::number || e->op == ExprOp::variable) return e;
  p.steps.push_back(std::move(e));
  return variable(p.steps.size() - 1);
}

std::vector<ExprPtr> let_all(Program& p, std::vector<ExprPtr> v) {
  for (auto& e : v) e = let(p, std::move(e));
  return v;
}

// The largest of `v` (variables or numbers), as std::max_element finds it.
ExprPtr max_of(Program& p, const std::vector<ExprPtr>& v) {
  ExprPtr m = v.at(0);
  for (std::size_t i = 1; i < v.size(); ++i) m = let(p, choose(greater(v[i], m), v[i], m));
  return m;
}

// combine.cpp's normalised(): v over its sum, `fallback` when the sum is not positive.
std::vector<ExprPtr> normalised(Program& p, const std::vector<ExprPtr>& v, const std::vector<double>& fallback) {
  const ExprPtr sum = let(p, add(v));
  std::vector<ExprPtr> out;
  for (std::size_t c = 0; c < v.size(); ++c)
    out.push_back(choose(greater(sum, number(0)), divide(v[c], sum), number(fallback[c])));
  return out;
}

// combine.cpp's mix_with_prior().
std::vector<ExprPtr> mixed(std::vector<ExprPtr> v, const std::vector<double>& prior, double n_train, double w) {
  if (!(w > 0)) return v;
  for (std::size_t c = 0; c < v.size(); ++c)
    v[c] = divide(add({multiply({number(n_train), v[c]}), number(w * prior[c])}), number(n_train + w));
  return v;
}

// logit_probabilities() of K >= 2 logits: the softmax, each share kept at least kEdge, renormalised.
std::vector<ExprPtr> softmax_kept(Program& p, std::vector<ExprPtr> logits) {
  logits = let_all(p, std::move(logits));
  const ExprPtr top = max_of(p, logits);
  std::vector<ExprPtr> e;
  for (const auto& l : logits) e.push_back(let(p, exp(subtract(l, top))));
  const ExprPtr sum = let(p, add(e));
  std::vector<ExprPtr> kept;
  for (const auto& x : e) {
    const ExprPtr share = let(p, divide(x, sum));
    kept.push_back(let(p, choose(greater(number(kEdge), share), number(kEdge), share)));
  }
  const ExprPtr total = let(p, add(kept));
  std::vector<ExprPtr> out;
  for (const auto& x : kept) out.push_back(divide(x, total));
  return out;
}

// clamp(sigmoid(x), kEdge, 1 - kEdge), with sigmoid computed as penalised_logistic.cpp does (no overflow).
ExprPtr sigmoid_kept(Program& p, ExprPtr x) {
  x = let(p, std::move(x));
  const ExprPtr e = let(p, choose(greater(number(0), x), number(0), exp(subtract(number(0), x))));  // used where x >= 0
  const ExprPtr f = let(p, choose(greater(number(0), x), exp(x), number(0)));                       // used where x < 0
  const ExprPtr s =
      let(p, choose(greater(number(0), x), divide(f, add({number(1), f})), divide(number(1), add({number(1), e}))));
  return let(
      p, choose(greater(number(kEdge), s), number(kEdge), choose(greater(s, number(1 - kEdge)), number(1 - kEdge), s)));
}

ExprPtr fires(const Rule& r) {
  std::vector<ExprPtr> tests;
  for (const auto& c : r.conditions) tests.push_back(test(c));
  return all(std::move(tests));
}

// ---- trees ----

// The fraction of a row that reaches each leaf, as Tree::route shares it: per leaf (depth-first, children in
// order) the product of the factors on its path. A factor is 1 or 0 for the branch a known value takes; for
// a missing value (or a nominal value with no branch), 1 for the missing-value child or else the child's
// share of the known training weight.
struct LeafWeight {
  int leaf = 0;
  ExprPtr weight;
};

void leaf_weights(const Tree& t, int node, std::vector<ExprPtr>& path, std::vector<LeafWeight>& out) {
  const TreeNode& n = t.nodes[static_cast<std::size_t>(node)];
  if (n.is_leaf()) {
    out.push_back({node, multiply(path)});
    return;
  }
  const int known_children = static_cast<int>(n.children.size()) - (n.missing_child >= 0 ? 1 : 0);
  const ExprPtr missing =
      n.split == SplitKind::nominal ? negate(in_values(n.attribute, known_children)) : negate(known(n.attribute));
  const double known_weight = std::accumulate(n.branch_weights.begin(), n.branch_weights.end(), 0.0);
  for (std::size_t c = 0; c < n.children.size(); ++c) {
    const int ci = static_cast<int>(c);
    ExprPtr factor;
    if (ci == n.missing_child) {
      factor = indicator(missing);
    } else {
      ExprPtr branch;
      switch (n.split) {
        case SplitKind::numeric:
          branch = ci == 0 ? less_equal(attribute_value(n.attribute), number(n.threshold))
                           : greater(attribute_value(n.attribute), number(n.threshold));
          break;
        case SplitKind::nominal: branch = is_value(n.attribute, ci); break;
        case SplitKind::nominal_binary:
          branch = ci == 0 ? is_value(n.attribute, n.value) : negate(is_value(n.attribute, n.value));
          break;
        case SplitKind::leaf: break;
      }
      const double share = n.missing_child >= 0 ? 0.0
                           : known_weight > 0   ? n.branch_weights[c] / known_weight
                                                : 1.0 / static_cast<double>(n.children.size());
      factor = choose(missing, number(share), indicator(branch));
    }
    path.push_back(factor);
    leaf_weights(t, n.children[c], path, out);
    path.pop_back();
  }
}

std::vector<LeafWeight> leaf_weights(const Tree& t) {
  std::vector<LeafWeight> out;
  std::vector<ExprPtr> path;
  leaf_weights(t, 0, path, out);
  return out;
}

// Tree::predict_proba: the leaves' distributions weighted by the row's fractions.
std::vector<ExprPtr> tree_probabilities(const Tree& t, LeafEstimate estimate, double prior_weight,
                                        const std::vector<double>& prior) {
  const auto parents = t.parents();
  std::vector<std::vector<ExprPtr>> terms(prior.size());
  for (const auto& [leaf, weight] : leaf_weights(t)) {
    const auto q = Tree::leaf_distribution(t.effective_counts(leaf, parents), estimate, prior_weight, prior);
    for (std::size_t c = 0; c < prior.size(); ++c) terms[c].push_back(multiply({weight, number(q[c])}));
  }
  std::vector<ExprPtr> out;
  for (auto& v : terms) out.push_back(add(std::move(v)));
  return out;
}

// Tree::predict_value.
ExprPtr tree_value(const Tree& t) {
  std::vector<ExprPtr> terms;
  for (const auto& [leaf, weight] : leaf_weights(t))
    terms.push_back(multiply({weight, number(t.nodes[static_cast<std::size_t>(leaf)].value_mean)}));
  return add(std::move(terms));
}

// The index of the first largest of `v` (variables or numbers), as std::max_element finds it.
ExprPtr argmax(Program& p, const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> conditions, values;
  for (std::size_t c = 0; c + 1 < v.size(); ++c) {
    std::vector<ExprPtr> beats;
    for (std::size_t j = 0; j < v.size(); ++j)
      if (j < c)
        beats.push_back(greater(v[c], v[j]));
      else if (j > c)
        beats.push_back(negate(greater(v[j], v[c])));
    conditions.push_back(all(std::move(beats)));
    values.push_back(number(static_cast<double>(c)));
  }
  return let(p, cases(std::move(conditions), std::move(values), number(static_cast<double>(v.size() - 1))));
}

// ---- model kinds ----

// What every part of a rule set's program shares: the training prior, the training weight, the prior's weight
// in every prediction and the default rule's (mixed) distribution.
struct RuleSetBasis {
  std::vector<double> prior;
  double n_train = 0;
  double w = 0;
  std::size_t k = 0;
  std::vector<double> default_p;
  explicit RuleSetBasis(const RuleModel& m)
      : prior(m.prior()),
        n_train(std::accumulate(m.training_counts.begin(), m.training_counts.end(), 0.0)),
        w(m.settings.prior_weight),
        k(prior.size()),
        default_p(mix_with_prior(m.default_distribution(), prior, n_train, w)) {}
};

// One rule decides: a lookup of the deciding rule's (mixed) distribution. `order` is the order in which the
// first firing rule decides; `on_training_counts` whether its distribution shares the rest by its training
// counts (else its class counts).
void one_rule_decides(Program& p, const RuleModel& m, const RuleSetBasis& b, const std::vector<std::size_t>& order,
                      bool on_training_counts) {
  std::vector<ExprPtr> conditions, values;
  std::vector<std::vector<double>> table(b.k, std::vector<double>{});
  for (std::size_t c = 0; c < b.k; ++c) table[c].push_back(b.default_p[c]);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Rule& r = m.rules[order[i]];
    const auto d = mix_with_prior(
        rule_distribution(r, on_training_counts ? r.training_counts : r.class_counts, b.prior, m.share_m()), b.prior,
        b.n_train, b.w);
    for (std::size_t c = 0; c < b.k; ++c) table[c].push_back(d[c]);
    conditions.push_back(fires(r));
    values.push_back(number(static_cast<double>(i + 1)));
  }
  const ExprPtr decider = let(p, cases(std::move(conditions), std::move(values), number(0)));
  for (std::size_t c = 0; c < b.k; ++c) p.probabilities.push_back(lookup(decider, table[c]));
}

// Rules in order of `key`, highest first, ties in model order: the first firing one is the one deciding_rules
// and the best-rule combination pick.
template <class Key>
std::vector<std::size_t> ranked(const RuleModel& m, Key key) {
  std::vector<std::size_t> order(m.rules.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(m.rules[a]) > key(m.rules[b]); });
  return order;
}

// Per class: the sum over the firing rules of term(rule, class), terms of 0 left out.
template <class Term>
std::vector<ExprPtr> summed(Program& p, const std::vector<ExprPtr>& rule_fires, std::size_t k, Term term) {
  std::vector<ExprPtr> out;
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<ExprPtr> terms;
    for (std::size_t i = 0; i < rule_fires.size(); ++i) {
      const double x = term(i, c);
      if (x != 0) terms.push_back(choose(rule_fires[i], number(x), number(0)));
    }
    out.push_back(let(p, add(std::move(terms))));
  }
  return out;
}

// combine.cpp's lift_product: log prior plus each firing rule's log lift, then exp and normalise.
std::vector<ExprPtr> lift_product_terms(Program& p, const RuleModel& m, const RuleSetBasis& b,
                                        const std::vector<ExprPtr>& rule_fires) {
  const std::vector<double>& prior = b.prior;
  const std::size_t k = b.k;
  const double eps = 1.0 / (b.n_train + 2.0);
  std::vector<std::vector<double>> log_lift(m.rules.size(), std::vector<double>(k, 0.0));
  for (std::size_t i = 0; i < m.rules.size(); ++i) {
    const Rule& r = m.rules[i];
    const double py = prior[static_cast<std::size_t>(r.klass)];
    if (!(py > 0 && py < 1)) continue;
    Rule clamped = r;
    clamped.probability = std::clamp(r.probability, eps, 1.0 - eps);
    const auto d = rule_distribution(clamped, r.training_counts, prior, m.share_m());
    for (std::size_t c = 0; c < k; ++c)
      if (prior[c] > 0) log_lift[i][c] = std::log((d[c] > 0 ? d[c] : eps * prior[c]) / prior[c]);
  }
  // Each class's log score relative to a reference class: the same probabilities after exp and
  // normalising, with one sum over the rules fewer (for two classes a single one; the sums dominate the
  // cost of a large rule set in SQL).
  std::size_t ref = 0;
  while (ref < k && !(prior[ref] > 0)) ++ref;
  const auto sums = summed(p, rule_fires, k, [&](std::size_t i, std::size_t c) {
    return c == ref ? 0.0 : log_lift[i][c] - log_lift[i][ref];
  });
  std::vector<ExprPtr> log_p, present;
  for (std::size_t c = 0; c < k; ++c)
    if (prior[c] > 0) {
      log_p.push_back(c == ref ? number(0) : let(p, add({number(std::log(prior[c]) - std::log(prior[ref])), sums[c]})));
      present.push_back(log_p.back());
    } else {
      log_p.push_back(nullptr);
    }
  const ExprPtr top = max_of(p, present);
  std::vector<ExprPtr> e;
  for (std::size_t c = 0; c < k; ++c) e.push_back(log_p[c] ? let(p, exp(subtract(log_p[c], top))) : number(0));
  return normalised(p, e, prior);
}

Program rule_model_program(const RuleModel& m) {
  Program p;
  const RuleSetBasis b(m);
  const std::vector<double>& prior = b.prior;
  const std::size_t k = b.k;
  if (m.kind == ModelKind::decision_list) {
    std::vector<std::size_t> order(m.rules.size());
    std::iota(order.begin(), order.end(), 0);
    one_rule_decides(p, m, b, order, false);
    return p;
  }
  if (m.kind == ModelKind::best_rule) {
    one_rule_decides(p, m, b, ranked(m, [](const Rule& r) { return r.quality; }), false);
    return p;
  }
  const CombinationKind combine = (m.combination ? *m.combination : find_combination(m.settings.combine)).kind;
  if (combine == CombinationKind::best_rule) {
    one_rule_decides(p, m, b, ranked(m, [](const Rule& r) { return r.probability; }), true);
    return p;
  }
  // The other combinations sum per-rule terms over the firing rules; with none firing, the default rule.
  std::vector<ExprPtr> rule_fires;
  for (const auto& r : m.rules) rule_fires.push_back(fires(r));
  const ExprPtr none_fires = let(p, indicator(negate(any(rule_fires))));
  std::vector<ExprPtr> combined;
  if (combine == CombinationKind::counts || combine == CombinationKind::m_counts) {
    const auto sums =
        summed(p, rule_fires, k, [&](std::size_t i, std::size_t c) { return m.rules[i].training_counts[c]; });
    if (combine == CombinationKind::counts) {
      combined = normalised(p, sums, prior);
    } else {  // smoothed(sum, prior, m)
      const ExprPtr total = let(p, add(sums));
      const ExprPtr denominator = let(p, add({total, number(m.settings.m)}));
      for (std::size_t c = 0; c < k; ++c)
        combined.push_back(choose(greater(denominator, number(0)),
                                  divide(add({sums[c], number(m.settings.m * prior[c])}), denominator),
                                  number(prior[c])));
    }
  } else if (combine == CombinationKind::probability_sum) {
    std::vector<std::vector<double>> d;
    for (const auto& r : m.rules) d.push_back(rule_distribution(r, r.training_counts, prior, m.share_m()));
    combined = normalised(p, summed(p, rule_fires, k, [&](std::size_t i, std::size_t c) { return d[i][c]; }), prior);
  } else if (combine == CombinationKind::lift_product) {
    combined = lift_product_terms(p, m, b, rule_fires);
  } else {
    throw std::invalid_argument("no export for the combination '" + m.settings.combine + "'");
  }
  const auto mixed_p = mixed(combined, prior, b.n_train, b.w);
  for (std::size_t c = 0; c < k; ++c)
    p.probabilities.push_back(choose(greater(none_fires, number(0)), number(b.default_p[c]), mixed_p[c]));
  return p;
}

Program logistic_program(const LogisticRuleModel& m) {
  Program p;
  const auto logits_count = static_cast<std::size_t>(m.intercepts.size());
  std::vector<ExprPtr> encoded;
  for (const auto& col : m.encoding.columns) {
    switch (col.kind) {
      case EncodedColumn::Kind::numeric:
        encoded.push_back(choose(known(col.attribute),
                                 divide(subtract(attribute_value(col.attribute), number(col.mean)), number(col.scale)),
                                 number(0)));
        break;
      case EncodedColumn::Kind::value: encoded.push_back(indicator(is_value(col.attribute, col.value))); break;
      case EncodedColumn::Kind::missing: encoded.push_back(indicator(negate(known(col.attribute)))); break;
    }
  }
  std::vector<ExprPtr> rule_fires;
  for (const auto& r : m.rules.rules) rule_fires.push_back(fires(r));
  std::vector<ExprPtr> eta;
  for (std::size_t j = 0; j < logits_count; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    std::vector<ExprPtr> terms{number(m.intercepts[jj])};
    for (std::size_t c = 0; c < encoded.size(); ++c) {
      const double wt = m.attribute_weights(jj, static_cast<Eigen::Index>(c));
      if (wt != 0) terms.push_back(multiply({encoded[c], number(wt)}));
    }
    for (std::size_t r = 0; r < rule_fires.size(); ++r) {
      const double wt = m.rule_weights(jj, static_cast<Eigen::Index>(r));
      if (wt != 0) terms.push_back(choose(rule_fires[r], number(wt), number(0)));
    }
    eta.push_back(add(std::move(terms)));
  }
  if (m.link == LogisticLink::softmax || (m.link == LogisticLink::binary && logits_count > 1)) {
    p.probabilities = softmax_kept(p, std::move(eta));
  } else if (m.link == LogisticLink::binary) {
    const ExprPtr q = sigmoid_kept(p, eta[0]);
    p.probabilities = {subtract(number(1), q), q};
  } else {
    std::vector<ExprPtr> s;
    for (auto& e : eta) s.push_back(sigmoid_kept(p, e));
    const ExprPtr sum = let(p, add(s));
    for (const auto& x : s) p.probabilities.push_back(divide(x, sum));
  }
  return p;
}

Program tree_program(const TreeModel& m) {
  Program p;
  p.probabilities = tree_probabilities(m.tree, m.leaf_estimate, m.leaf_weight(), m.leaf_prior());
  return p;
}

Program boost_program(const BoostModel& m) {
  Program p;
  const auto prior = m.prior();
  const std::size_t k = prior.size();
  if (m.settings.boosting == BoostingMethod::adaboost_m1 && m.members.size() == 1) {
    p.probabilities = tree_probabilities(m.members[0], m.settings.leaf_estimate, m.settings.prior_weight, prior);
    return p;
  }
  const auto base = m.base_scores();
  std::vector<std::vector<ExprPtr>> terms(k);
  for (std::size_t c = 0; c < k; ++c) terms[c].push_back(number(base[c]));
  // A member's term as it counts under --calibrate discount (BoostModel::contributions).
  const auto rounds = m.member_rounds();
  auto discounted = [&m, &rounds](std::size_t i, ExprPtr term) {
    const double factor = std::pow(m.member_discount, static_cast<double>(rounds[i]));
    return factor != 1 ? multiply({number(factor), std::move(term)}) : term;
  };
  if (m.settings.boosting == BoostingMethod::kbs && !m.member_classes.empty()) {
    // One-vs-rest (BoostModel::contributions): each member adds its log ratio to its class, scaled by the
    // row's share that no earlier member of the class has decided.
    // nullptr: 1. A share becomes a step when a later member reads it (a step no one reads would be an
    // unused variable in the generated code).
    std::vector<ExprPtr> undecided(k);
    std::vector<bool> is_step(k, false);
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      const auto c = static_cast<std::size_t>(m.member_classes[i]);
      if (undecided[c] && !is_step[c]) {
        undecided[c] = let(p, undecided[c]);
        is_step[c] = true;
      }
      const auto weights = leaf_weights(m.members[i]);
      std::vector<ExprPtr> lift, decided;
      for (const auto& [leaf, weight] : weights) {
        const int cell = m.members[i].nodes[static_cast<std::size_t>(leaf)].cell;
        lift.push_back(multiply({weight, number(m.lifts[i][static_cast<std::size_t>(cell)][c])}));
        if (std::find(m.decided_cells[i].begin(), m.decided_cells[i].end(), cell) != m.decided_cells[i].end())
          decided.push_back(weight);
      }
      const ExprPtr term = log(add(std::move(lift)));
      terms[c].push_back(discounted(i, undecided[c] ? multiply({undecided[c], term}) : term));
      if (decided.empty()) continue;
      const ExprPtr left = subtract(number(1), add(std::move(decided)));
      undecided[c] = undecided[c] ? multiply({undecided[c], left}) : left;
      is_step[c] = false;
    }
  } else if (m.settings.boosting == BoostingMethod::kbs) {
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      const auto weights = leaf_weights(m.members[i]);
      for (std::size_t c = 0; c < k; ++c) {
        std::vector<ExprPtr> lift;
        for (const auto& [leaf, weight] : weights) {
          const int cell = m.members[i].nodes[static_cast<std::size_t>(leaf)].cell;
          lift.push_back(multiply({weight, number(m.lifts[i][static_cast<std::size_t>(cell)][c])}));
        }
        terms[c].push_back(discounted(i, log(add(std::move(lift)))));
      }
    }
  } else if (m.settings.boosting == BoostingMethod::adaboost_m1) {
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      const ExprPtr cls = argmax(p, let_all(p, tree_probabilities(m.members[i], LeafEstimate::counts, 0.0, prior)));
      for (std::size_t c = 0; c < k; ++c)
        terms[c].push_back(
            discounted(i, choose(equal(cls, number(static_cast<double>(c))), number(m.member_weights[i]), number(0))));
    }
  } else {
    const auto per = static_cast<std::size_t>(m.per_iteration);
    const double j = static_cast<double>(k);
    for (std::size_t i = 0; i < m.members.size(); i += per) {
      if (per == 1) {
        const ExprPtr f = let(p, divide(tree_value(m.members[i]), number(2)));
        terms[1].push_back(discounted(i, f));
        terms[0].push_back(discounted(i, subtract(number(0), f)));
        continue;
      }
      std::vector<ExprPtr> f;
      for (std::size_t c = 0; c < k; ++c) f.push_back(let(p, tree_value(m.members[i + c])));
      const ExprPtr mean = let(p, divide(add(f), number(j)));
      for (std::size_t c = 0; c < k; ++c)
        terms[c].push_back(discounted(i, multiply({number((j - 1) / j), subtract(f[c], mean)})));
    }
  }
  std::vector<ExprPtr> scores;
  for (auto& t : terms)
    scores.push_back(m.temperature != 1 ? multiply({number(m.temperature), add(std::move(t))}) : add(std::move(t)));
  p.probabilities = softmax_kept(p, std::move(scores));
  return p;
}

// The test that a row's value of attribute `a` is in PrIL category `category` (-1: missing), as
// Categories::of assigns it.
ExprPtr category_test(const PrilModel& m, int a, int category) {
  if (category < 0) return negate(known(a));
  if (m.schema.attributes[static_cast<std::size_t>(a)].is_nominal()) return is_value(a, category);
  const auto& cuts = m.categories.cuts[static_cast<std::size_t>(a)];
  std::vector<ExprPtr> tests{known(a)};
  const auto c = static_cast<std::size_t>(category);
  if (c > 0) tests.push_back(greater(attribute_value(a), number(cuts[c - 1])));
  if (c < cuts.size()) tests.push_back(less_equal(attribute_value(a), number(cuts[c])));
  return all(std::move(tests));
}

Program pril_program(const PrilModel& m) {
  Program p;
  const auto prior = m.prior();
  const std::size_t k = prior.size();
  // One entry per rule in text() order (PrilModel::find: the first rule of the row's branch whose
  // categories match decides), then the undecided rows of each branch, then rows of no branch.
  std::vector<ExprPtr> conditions, values;
  std::vector<std::vector<double>> table(k);
  auto laplace = [&](const std::vector<double>& counts) {
    const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
    for (std::size_t c = 0; c < k; ++c) table[c].push_back((counts[c] + 1) / (n + static_cast<double>(k)));
  };
  std::vector<ExprPtr> branch_tests;
  for (const auto& b : m.branches) {
    std::vector<ExprPtr> key;
    for (std::size_t i = 0; i < m.branching.size(); ++i) key.push_back(category_test(m, m.branching[i], b.values[i]));
    branch_tests.push_back(all(std::move(key)));
    for (const auto& s : b.sets)
      for (const auto& r : s.rules) {
        std::vector<ExprPtr> tests{branch_tests.back()};
        for (std::size_t i = 0; i < s.attributes.size(); ++i)  // a rule on a missing category never fires (find)
          tests.push_back(r.values[i] < 0 ? any({}) : category_test(m, s.attributes[i], r.values[i]));
        conditions.push_back(all(std::move(tests)));
        values.push_back(number(static_cast<double>(table[0].size())));
        const double own = (r.correct + 1) / (r.covered + static_cast<double>(k));
        const double rest = 1 - prior[static_cast<std::size_t>(r.klass)];
        for (std::size_t c = 0; c < k; ++c)
          table[c].push_back(static_cast<int>(c) == r.klass ? own
                             : rest > 0                     ? (1 - own) * prior[c] / rest
                                                            : (1 - own) / static_cast<double>(k - 1));
      }
  }
  const double rules = static_cast<double>(table[0].size());
  for (std::size_t b = 0; b < m.branches.size(); ++b) {
    conditions.push_back(branch_tests[b]);
    values.push_back(number(static_cast<double>(table[0].size())));
    laplace(m.branches[b].class_counts);
  }
  const ExprPtr otherwise = number(static_cast<double>(table[0].size()));
  laplace(m.training_counts);
  const ExprPtr decider = let(p, cases(std::move(conditions), std::move(values), otherwise));
  for (std::size_t c = 0; c < k; ++c) p.probabilities.push_back(lookup(decider, table[c]));
  p.decided = greater(number(rules - 0.5), decider);
  return p;
}

}  // namespace

Program model_program(const Model& m) {
  if (const auto* r = dynamic_cast<const RuleModel*>(&m)) return rule_model_program(*r);
  if (const auto* l = dynamic_cast<const LogisticRuleModel*>(&m)) return logistic_program(*l);
  if (const auto* t = dynamic_cast<const TreeModel*>(&m)) return tree_program(*t);
  if (const auto* b = dynamic_cast<const BoostModel*>(&m)) return boost_program(*b);
  if (const auto* q = dynamic_cast<const PrilModel*>(&m)) return pril_program(*q);
  throw std::invalid_argument("no export for models of kind '" + m.kind_name() + "'");
}

}  // namespace candor
