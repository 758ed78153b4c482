#pragma once
// Internal: the concrete measures, one per file, gathered by registry.cpp.
#include "candor/evc/calibration.hpp"
#include "candor/quality/quality.hpp"

namespace candor::measures {

struct Precision final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
};
struct Laplace final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
  double probability(const RuleStats& r) const override { return evaluate(r); }
};
struct MEstimate final : QualityMeasure {
  explicit MEstimate(double m) : m(m) {}
  double evaluate(const RuleStats& r) const override;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  double m;
};
struct WRAcc final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
};
struct Entropy final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
};
struct LikelihoodRatio final : QualityMeasure {
  double evaluate(const RuleStats& r) const override;
};

// The extreme value corrected relative frequency (paper 000, section 4.1): s'/n with s' from the law of
// the rule's class and length. Both its quality and its probability.
struct Evc final : QualityMeasure {
  explicit Evc(std::shared_ptr<const EvcCalibration> calibration) : calibration(std::move(calibration)) {}
  double evaluate(const RuleStats& r) const override;
  double probability(const RuleStats& r) const override { return evaluate(r); }
  std::shared_ptr<const EvcCalibration> calibration;
};

}  // namespace candor::measures
