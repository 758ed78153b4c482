#pragma once
// Internal: the concrete measures, one per file, gathered by registry.cpp.
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

}  // namespace candor::measures
