#pragma once
// The quality measures built on an EVC calibration: evc (paper 000, section 4.1) and Orange 2's m-evc. They
// live beside the calibration they read, above quality/ (whose plain measures the calibration's search
// ranks by), so that quality/ includes nothing of evc/.
#include <memory>
#include <span>

#include "candor/evc/calibration.hpp"
#include "candor/quality/quality.hpp"

namespace candor::measures {

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
  // s / n rises with s and falls with n: the box's corner bounds it.
  bool box_may_reach(const RuleStats&, double s_most, double n_least, double bar) const override {
    return !(n_least > 0) || !(bound(s_most, n_least) < bar);
  }
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
  // (s + m P/N) / (n + m) rises with s and falls with n: the box's corner bounds it.
  bool box_may_reach(const RuleStats& r, double s_most, double n_least, double bar) const override {
    return !(n_least >= 0) || !(bound(r, s_most, n_least) < bar);
  }
  std::shared_ptr<const EvcCalibration> calibration;
  double m;
};

}  // namespace candor::measures
