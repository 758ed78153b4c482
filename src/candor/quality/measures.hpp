#pragma once
// Internal: the concrete plain measures, one per file, gathered by quality_table() (learn/qualities.cpp);
// the EVC measures are in evc/measures.hpp.
#include "candor/quality/quality.hpp"

namespace candor::measures {

// Precision, Laplace and the m-estimate rise with s and fall with n, in exact arithmetic and (each a sum
// over a sum, rounded monotonically) in floating point: the corner of a box of rules bounds them all.
struct Precision final : ScoredBySAndN<Precision> {
  double value(const RuleStats& r, double s, double n) const;
  bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const override {
    return !(n_least > 0) || !(value(r, s_most, n_least) < bar);
  }
};
struct Laplace final : ScoredBySAndN<Laplace> {
  double value(const RuleStats& r, double s, double n) const;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  // A specialisation at best keeps its s positives and drops every negative: (s + 1) / (s + k), i.e. the
  // Laplace error L(n - e, 0) of paper 002.
  double refinement_bound(const RuleStats& r) const override;
  bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const override {
    return !(value(r, s_most, n_least) < bar);
  }
};
struct MEstimate final : ScoredBySAndN<MEstimate> {
  explicit MEstimate(double m) : m(m) {}
  double value(const RuleStats& r, double s, double n) const;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const override {
    return !(value(r, s_most, n_least) < bar);
  }
  double m;
};
struct ModifiedPrecision final : ScoredBySAndN<ModifiedPrecision> {
  double value(const RuleStats& r, double s, double n) const;
};
struct ModifiedLaplace final : ScoredBySAndN<ModifiedLaplace> {
  double value(const RuleStats& r, double s, double n) const;
};
struct ModifiedMEstimate final : ScoredBySAndN<ModifiedMEstimate> {
  explicit ModifiedMEstimate(double m) : m(m) {}
  double value(const RuleStats& r, double s, double n) const;
  double m;
};
// Lavrac et al. (1999): coverage times the gain in precision over the prior. Defined here so that the
// sweeps of gradient rules, which score every cut of an attribute with it, inline it into their batches.
struct WRAcc final : ScoredBySAndN<WRAcc> {
  double value(const RuleStats& r, double s, double n) const {
    const double total = r.n_total;
    if (n <= 0 || total <= 0) return 0.0;
    return (n / total) * (s / n - r.p_total() / total);
  }
};
struct Entropy final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
};
struct LikelihoodRatio final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
  double quick_bound(const RuleStats& r) const override;  // likelihood_ratio_bound
  double refinement_bound(const RuleStats& r) const override;
  bool reads_only_s_and_n() const override { return true; }
  // likelihood_ratio_pearson_bound
  bool bound_batch(const RuleStats& r, std::span<const double> s, std::span<const double> n,
                   std::span<double> out) const override;
  // likelihood_ratio_certainly_below
  bool may_reach(const RuleStats& r, double bar) const override;
  bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const override;
};

}  // namespace candor::measures

// Instantiated beside each measure's value(), so that the batch loop inlines it.
extern template class candor::ScoredBySAndN<candor::measures::Precision>;
extern template class candor::ScoredBySAndN<candor::measures::Laplace>;
extern template class candor::ScoredBySAndN<candor::measures::MEstimate>;
extern template class candor::ScoredBySAndN<candor::measures::ModifiedPrecision>;
extern template class candor::ScoredBySAndN<candor::measures::ModifiedLaplace>;
extern template class candor::ScoredBySAndN<candor::measures::ModifiedMEstimate>;
extern template class candor::ScoredBySAndN<candor::measures::WRAcc>;
