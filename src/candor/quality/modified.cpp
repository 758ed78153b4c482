// The refinement heuristics of paper 003 (Optimizing the AUC with rule learning): each scores the examples
// a refinement leaves out, rewarding refinements that exclude many negatives and few positives. With p, n
// the covered positives and negatives and P, N those of the search's examples:
//   modified precision    (N - n) / ((P + N) - (p + n))
//   modified Laplace      (N - n + 1) / ((P + N) - (p + n - 2))
//   modified m-estimate   (N - n + m P / (P + N)) / ((P + N) - (p + n - m))
#include "candor/quality/measures.hpp"

namespace candor::measures {

namespace {
struct Counts {
  double p, n, P, N;
};
Counts counts(const RuleStats& r, double s, double n) {
  const double P = r.p_total();
  return {s, n - s, P, r.n_total - P};
}
}  // namespace

double ModifiedPrecision::value(const RuleStats& r, double s, double n) const {
  const Counts c = counts(r, s, n);
  const double den = (c.P + c.N) - (c.p + c.n);
  return den > 0 ? (c.N - c.n) / den : 0.0;  // nothing left out: no evidence either way
}

double ModifiedLaplace::value(const RuleStats& r, double s, double n) const {
  const Counts c = counts(r, s, n);
  return (c.N - c.n + 1) / ((c.P + c.N) - (c.p + c.n - 2));
}

double ModifiedMEstimate::value(const RuleStats& r, double s, double n) const {
  const Counts c = counts(r, s, n);
  const double den = (c.P + c.N) - (c.p + c.n - m);
  return den > 0 ? (c.N - c.n + m * c.P / (c.P + c.N)) / den : 0.0;
}

}  // namespace candor::measures

template class candor::ScoredBySAndN<candor::measures::ModifiedPrecision>;
template class candor::ScoredBySAndN<candor::measures::ModifiedLaplace>;
template class candor::ScoredBySAndN<candor::measures::ModifiedMEstimate>;
