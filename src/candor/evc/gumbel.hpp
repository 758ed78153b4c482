#pragma once
// Gumbel laws of extreme values (paper 000, eq. 11 and 15): the distribution of the best quality a search
// finds when every hypothesis is random. Tails are computed in log space, so that a rule whose statistic
// lies far beyond the law's location still gets a finite, exact log probability.
#include <span>
#include <string>

#include "candor/util/names.hpp"

namespace candor {

struct GumbelLaw {
  double mu = 0;    // location
  double beta = 2;  // scale (> 0)

  // log P(X > x) = log(1 - exp(-exp(-(x - mu) / beta))), without cancellation for large x.
  double log_upper_tail(double x) const;
  double upper_tail(double x) const;
  // The value exceeded with probability 1/2: mu - beta ln ln 2 (= mu + 0.3665 beta).
  double median() const;
  bool operator==(const GumbelLaw&) const = default;
};

// How a law is fitted to a sample of maxima.
//   fixed-beta: beta = 2, the Gumbel scale of maxima of chi2(1) variables, and mu = mean - 0.5772 * beta
//               (moments with the scale known; the authors' reference code);
//   moments:    beta = sd * sqrt(6) / pi, mu = mean - 0.5772 * beta;
//   ml:         maximum likelihood for both (Brent-type root finding on the score equation for beta).
// A sample without spread cannot identify beta; moments and ml then fall back to beta = 2.
enum class GumbelFit { fixed_beta, moments, maximum_likelihood };
inline constexpr Named<GumbelFit> kGumbelFitNames[] = {
    {"fixed-beta", GumbelFit::fixed_beta}, {"moments", GumbelFit::moments}, {"ml", GumbelFit::maximum_likelihood}};

inline GumbelFit parse_gumbel_fit(const std::string& name) { return parse_named(kGumbelFitNames, "Gumbel fit", name); }
inline const char* gumbel_fit_name(GumbelFit fit) { return name_of(kGumbelFitNames, fit); }

// Fits a law to `maxima` (at least one value). Throws std::invalid_argument on an empty sample.
GumbelLaw fit_gumbel(std::span<const double> maxima, GumbelFit method);

}  // namespace candor
