#pragma once
// Internal: the concrete measures, one per file, gathered by registry.cpp.
#include "candor/evc/calibration.hpp"
#include "candor/quality/quality.hpp"

namespace candor::measures {

struct Precision final : ScoredBySAndN<Precision> {
  double value(const RuleStats& r, double s, double n) const;
};
struct Laplace final : ScoredBySAndN<Laplace> {
  double value(const RuleStats& r, double s, double n) const;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  // A specialisation at best keeps its s positives and drops every negative: (s + 1) / (s + k), i.e. the
  // Laplace error L(n - e, 0) of paper 002.
  double refinement_bound(const RuleStats& r) const override;
};
struct MEstimate final : ScoredBySAndN<MEstimate> {
  explicit MEstimate(double m) : m(m) {}
  double value(const RuleStats& r, double s, double n) const;
  double probability(const RuleStats& r) const override { return evaluate(r); }
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
struct WRAcc final : ScoredBySAndN<WRAcc> {
  double value(const RuleStats& r, double s, double n) const;
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
};

// The extreme value corrected relative frequency (paper 000, section 4.1): s'/n with s' from the law of
// the rule's class and length. Both its quality and its probability.
struct Evc final : QualityMeasure {
  explicit Evc(std::shared_ptr<const EvcCalibration> calibration) : calibration(std::move(calibration)) {}
  double evaluate(const RuleStats& r) const override;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  bool reads_only_s_and_n() const override { return true; }
  // The corrected count s' never exceeds s: the relative frequency bounds s'/n (with room for rounding).
  static double bound(double s, double n) { return n > 0 ? s / n * (1.0 + 1e-12) : 0.0; }
  double quick_bound(const RuleStats& r) const override { return bound(r.s(), r.n); }
  bool bound_batch(const RuleStats&, std::span<const double> s, std::span<const double> n,
                   std::span<double> out) const override {
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = bound(s[i], n[i]);
    return true;
  }
  // Besides: a rule whose LRS lies below its law's median is corrected to the prior (paper 000: 2 P_a >= 1).
  bool may_reach(const RuleStats& r, double bar) const override;
  std::shared_ptr<const EvcCalibration> calibration;
};

// Orange 2's mEVC (the authors' ABCN2): the m-estimate of the corrected count, (s' + m P/N) / (n + m).
// The EVC correction answers for the search; m keeps a large sample from preferring ever smaller pure
// fragments of a noisy concept.
struct MEvc final : QualityMeasure {
  MEvc(std::shared_ptr<const EvcCalibration> calibration, double m) : calibration(std::move(calibration)), m(m) {}
  double evaluate(const RuleStats& r) const override;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  bool reads_only_s_and_n() const override { return true; }
  // s' never exceeds s (room for rounding: evaluate() goes through s'/n and back).
  double bound(const RuleStats& r, double s, double n) const {
    return n + m > 0 ? (s + m * r.p_total() / r.n_total) / (n + m) * (1.0 + 1e-12) : 0.0;
  }
  double quick_bound(const RuleStats& r) const override { return bound(r, r.s(), r.n); }
  bool bound_batch(const RuleStats& r, std::span<const double> s, std::span<const double> n,
                   std::span<double> out) const override {
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = bound(r, s[i], n[i]);
    return true;
  }
  // As Evc's: a rule corrected to the prior scores the prior.
  bool may_reach(const RuleStats& r, double bar) const override;
  std::shared_ptr<const EvcCalibration> calibration;
  double m;
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
