#include "candor/learners/one_r/one_r.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learners/one_r/one_r_options.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/measures.hpp"

namespace candor {

const std::vector<ParamInfo>& one_r_params() {
  static const std::vector<ParamInfo> table{
      {"min_bucket_size", option_field<&OneROptions::min_bucket_size>(),
       "one-r: fewest (weighted) examples of its majority class a numeric attribute's interval holds before it "
       "may end (Holte 1993's SMALL, Weka OneR's -B)",
       "one_r", at_least(1)},
  };
  return table;
}

namespace {

// One nominal value's or numeric interval's rule: its conditions and the class weights of its rows.
struct Branch {
  std::vector<Condition> conditions;
  std::vector<double> counts;
};

// An attribute's rules, the class weights of the rows they leave to the default rule, and the training
// weight they classify correctly (the default rule's majority included).
struct AttributeRules {
  std::vector<Branch> branches;
  std::vector<double> rest;
  double correct = 0;
};

// The first class of largest weight.
int majority(const std::vector<double>& counts) {
  return static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
}

void add(std::vector<double>& to, const std::vector<double>& counts) {
  for (std::size_t c = 0; c < to.size(); ++c) to[c] += counts[c];
}

double correct_of(const std::vector<double>& counts) {
  return counts.empty() ? 0.0 : counts[static_cast<std::size_t>(majority(counts))];
}

AttributeRules score(AttributeRules rules) {
  rules.correct = correct_of(rules.rest);
  for (const auto& b : rules.branches) rules.correct += correct_of(b.counts);
  return rules;
}

AttributeRules nominal_rules(const Dataset& d, int a, const std::vector<std::size_t>& rows, std::size_t k) {
  const std::size_t values = d.attribute(a).values.size();
  std::vector<std::vector<double>> by_value(values, std::vector<double>(k, 0.0));
  AttributeRules rules;
  rules.rest.assign(k, 0.0);
  for (std::size_t r : rows) {
    const int code = d.columns[a].codes[r];
    auto& counts = code == kMissing ? rules.rest : by_value[static_cast<std::size_t>(code)];
    counts[static_cast<std::size_t>(d.y[r])] += d.weights[r];
  }
  for (std::size_t v = 0; v < values; ++v)
    if (std::accumulate(by_value[v].begin(), by_value[v].end(), 0.0) > 0)
      rules.branches.push_back({{Condition{a, Op::eq, static_cast<int>(v), 0.0}}, by_value[v]});
  return score(std::move(rules));
}

// A threshold t with lo <= t < hi: the shortest decimal in the middle half of the gap, as the rule learners'
// thresholds are (search/beam_search.hpp, shorten_thresholds), else the midpoint.
double threshold_between(double lo, double hi) {
  const double quarter = (hi - lo) / 4;
  if (const auto t = shortest_decimal_in(lo + quarter, hi - quarter); t && *t >= lo && *t < hi) return *t;
  const double t = lo + (hi - lo) / 2;
  return t < hi ? t : lo;
}

AttributeRules numeric_rules(const Dataset& d, int a, const std::vector<std::size_t>& rows, std::size_t k,
                             double min_bucket_size) {
  const auto& x = d.columns[a].values;
  AttributeRules rules;
  rules.rest.assign(k, 0.0);
  std::vector<std::size_t> order;
  for (std::size_t r : rows) {
    if (std::isnan(x[r]))
      rules.rest[static_cast<std::size_t>(d.y[r])] += d.weights[r];
    else
      order.push_back(r);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return x[i] < x[j]; });
  // Groups of equal values, which no cut separates.
  struct Group {
    double value;
    std::vector<double> counts;
  };
  std::vector<Group> groups;
  for (std::size_t r : order) {
    if (groups.empty() || groups.back().value != x[r]) groups.push_back({x[r], std::vector<double>(k, 0.0)});
    groups.back().counts[static_cast<std::size_t>(d.y[r])] += d.weights[r];
  }
  // Intervals: groups until the majority class holds min_bucket_size, then while the next group's majority
  // is the same class (Holte 1993, section 2.2); adjacent intervals of one class merged.
  struct Interval {
    std::vector<double> counts;
    double first, last;  // the values of its first and last group
  };
  std::vector<Interval> intervals;
  for (std::size_t i = 0; i < groups.size();) {
    Interval in{std::vector<double>(k, 0.0), groups[i].value, groups[i].value};
    do {
      add(in.counts, groups[i].counts);
      in.last = groups[i++].value;
    } while (i < groups.size() && correct_of(in.counts) < min_bucket_size);
    const int klass = majority(in.counts);
    while (i < groups.size() && majority(groups[i].counts) == klass) {
      add(in.counts, groups[i].counts);
      in.last = groups[i++].value;
    }
    if (!intervals.empty() && majority(intervals.back().counts) == klass) {
      add(intervals.back().counts, in.counts);
      intervals.back().last = in.last;
    } else {
      intervals.push_back(std::move(in));
    }
  }
  // One interval makes no rule: the attribute does not split the data, and the default rule decides.
  if (intervals.size() < 2) {
    for (const auto& in : intervals) add(rules.rest, in.counts);
    return score(std::move(rules));
  }
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    Branch b;
    if (j > 0) b.conditions.push_back({a, Op::gt, 0, threshold_between(intervals[j - 1].last, intervals[j].first)});
    if (j + 1 < intervals.size())
      b.conditions.push_back({a, Op::le, 0, threshold_between(intervals[j].last, intervals[j + 1].first)});
    b.counts = intervals[j].counts;
    rules.branches.push_back(std::move(b));
  }
  return score(std::move(rules));
}

}  // namespace

std::string describe_one_r(const LearnerParams& p) {
  return "one-r (min bucket size " + format_number(p.options<OneROptions>().min_bucket_size) + ")";
}

std::unique_ptr<Model> fit_one_r(const Dataset& data, const LearnerParams& params, int /*threads*/) {
  const std::size_t k = data.num_classes();
  std::vector<std::size_t> rows;  // the labelled ones
  std::vector<double> totals(k, 0.0);
  for (std::size_t r = 0; r < data.rows(); ++r)
    if (data.y[r] != kMissing) {
      rows.push_back(r);
      totals[static_cast<std::size_t>(data.y[r])] += data.weights[r];
    }
  // Without attributes (or rows), every row goes to the default rule.
  AttributeRules best;
  best.rest = totals;
  best.correct = correct_of(totals);
  bool chosen = false;
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    const int attribute = static_cast<int>(a);
    AttributeRules rules = data.attribute(a).is_nominal()
                               ? nominal_rules(data, attribute, rows, k)
                               : numeric_rules(data, attribute, rows, k, params.options<OneROptions>().min_bucket_size);
    if (!chosen || rules.correct > best.correct) {
      best = std::move(rules);
      chosen = true;
    }
  }

  auto model = std::make_unique<RuleModel>();
  model->kind = ModelKind::decision_list;
  model->learner = params_to_json(params);
  model->schema = data.schema;
  model->training_rows = data.rows();
  model->training_source = data.source;
  model->training_counts = totals;
  // Each rule's probability: its class share smoothed towards the prior by the prior weight's pseudo-examples
  // per class, the m the decision list smooths its default rule with (RuleModel::share_m).
  const measures::MEstimate estimate(params.prior_weight * static_cast<double>(k));
  for (const auto& b : best.branches) {
    Rule r;
    r.conditions = b.conditions;
    r.klass = majority(b.counts);
    r.class_counts = b.counts;
    r.training_counts = b.counts;  // the branches partition the rows that have a value
    const RuleStats stats = make_rule_stats(r.class_counts, totals, r.klass, static_cast<int>(r.conditions.size()));
    r.probability = estimate.probability(stats);
    r.quality = r.probability;
    r.interval = probability_interval(estimate, stats, r.probability);
    model->rules.push_back(std::move(r));
  }
  model->default_counts = best.rest;
  // A decision list of one attribute's rules, ranked by no measure, its probabilities the smoothed shares.
  RuleModelSettings settings;
  settings.prior_weight = params.prior_weight;
  model->use(settings);
  return model;
}

}  // namespace candor
