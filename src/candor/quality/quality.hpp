#pragma once
// Rule quality measures. A measure sees only the rule's (weighted) class counts, the class totals of the
// examples the search runs on, the class the rule predicts and its length, so a new heuristic never
// touches search or covering code.
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace candor {

struct RuleStats {
  std::span<const double> covered;  // class counts of the covered examples
  std::span<const double> totals;   // class counts of all examples the search runs on
  int target = 0;                   // class the rule predicts
  int length = 0;                   // number of conditions
  double n = 0;                     // sum of covered (the caller usually knows it already)
  double n_total = 0;               // sum of totals

  double s() const { return covered[target]; }  // covered examples of the target class
  double p_total() const { return totals[target]; }
  std::size_t classes() const { return covered.size(); }
};

// RuleStats with n and n_total summed from the counts.
RuleStats make_rule_stats(std::span<const double> covered, std::span<const double> totals, int target, int length);

struct EvcCalibration;

struct QualityParams {
  double m = 22.466;                          // m of the m-estimate family
  std::shared_ptr<const EvcCalibration> evc;  // the Gumbel laws `evc` corrects with
};

class QualityMeasure {
 public:
  virtual ~QualityMeasure() = default;
  // Higher is better. Defined for every rule with n > 0.
  virtual double evaluate(const RuleStats& r) const = 0;
  // The measure's own estimate of P(target | rule fires) where it is a probability estimate (precision,
  // Laplace, m-estimate); the relative frequency s/n otherwise.
  virtual double probability(const RuleStats& r) const;
  // An upper bound of evaluate() over every specialisation of the rule (rules covering a subset of its
  // examples), for safe pruning; +infinity (no pruning) unless a measure knows better.
  virtual double refinement_bound(const RuleStats& r) const;
  // A cheap upper bound of evaluate() for this very rule, for measures whose evaluation is expensive (evc
  // solves for a corrected count): the search skips a candidate whose bound already loses. +infinity (no
  // skipping) unless a measure knows better.
  virtual double quick_bound(const RuleStats& r) const;
  // False only when evaluate(r) < bar for certain: the search skips such a candidate without evaluating
  // it. Defaults to comparing quick_bound; a measure with bounds of increasing cost tries the cheap one
  // first.
  virtual bool may_reach(const RuleStats& r, double bar) const { return !(quick_bound(r) < bar); }
  // Scores rules that differ from `r` only in their counts, when the measure reads the counts only through
  // s = covered[target] and n: out[i] = evaluate(r with s = s[i], n = n[i]), bit for bit. r.covered is not
  // read except for its size (the number of classes). Returns false, writing nothing, for measures that
  // need every class's count (the caller then evaluates rule by rule). The point is speed: one call scores
  // every threshold of an attribute.
  virtual bool evaluate_batch(const RuleStats& r, std::span<const double> s, std::span<const double> n,
                              std::span<double> out) const;
  // Whether every method reads r.covered only through r.s() (and its size): the search may then hand it
  // rules whose other classes' counts are left at zero, n carrying their sum.
  virtual bool reads_only_s_and_n() const { return false; }
  // Upper bounds of evaluate() for rules that differ from r only in s and n, as evaluate_batch, for
  // measures whose evaluation costs far more than a bound: the search evaluates only the candidates whose
  // bound reaches its bar. Returns false, writing nothing, when the measure has no such bound.
  virtual bool bound_batch(const RuleStats& r, std::span<const double> s, std::span<const double> n,
                           std::span<double> out) const;
  // False only when every rule that differs from r only in s and n, with s <= s_most, n >= n_least and
  // s <= n, scores below bar for certain. A sweep over thresholds covers such a box with each run of
  // consecutive cuts (s and n rise together along it), so one call can pass over the whole run. True (no
  // skipping) unless a measure knows better; measures rising in s and falling in n bound the box by its
  // corner.
  virtual bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const;
};

// Base of the measures that read the counts only through s and n: the measure defines
// `double value(const RuleStats& r, double s, double n) const` and gets evaluate and evaluate_batch from it,
// so the batch cannot drift from the single evaluation.
template <class Measure>
class ScoredBySAndN : public QualityMeasure {
 public:
  double evaluate(const RuleStats& r) const final { return self().value(r, r.s(), r.n); }
  bool reads_only_s_and_n() const final { return true; }
  bool evaluate_batch(const RuleStats& r, std::span<const double> s, std::span<const double> n,
                      std::span<double> out) const final {
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = self().value(r, s[i], n[i]);
    return true;
  }

 private:
  const Measure& self() const { return static_cast<const Measure&>(*this); }
};

// The likelihood-ratio statistic of paper 000 eq. (14): the G statistic of the 2x2 table
// covered/uncovered x positive/negative, against data with p_total positives among n_total examples.
// 0 when the rule's positive share is not above the prior (s <= e_s).
double likelihood_ratio_statistic(double s, double n, double p_total, double n_total);
// An upper bound of likelihood_ratio_statistic without a logarithm, exceeding it by at most about 1e-12 of
// n_total ln n_total: for whole counts it reads x ln x from a table (+infinity for fractional counts).
double likelihood_ratio_bound(double s, double n, double p_total, double n_total);
// An upper bound of likelihood_ratio_statistic from twice Pearson's X^2, without a logarithm (ln x <= x - 1
// in each cell), with a margin for the rounding of both.
double likelihood_ratio_pearson_bound(double s, double n, double p_total, double n_total);
// True only when likelihood_ratio_statistic(s, n, p_total, n_total) < bar for certain: the Pearson bound is
// tried first, then likelihood_ratio_bound.
bool likelihood_ratio_certainly_below(double s, double n, double p_total, double n_total, double bar);

}  // namespace candor
