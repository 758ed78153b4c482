#pragma once
// Class probabilities from logits, as every logistic model and ensemble in candor turns its scores into
// probabilities (defined in penalised_logistic.cpp). Apart from penalised_logistic.hpp so that callers need
// not parse Eigen.
#include <vector>

namespace candor {

// Class probabilities from one row's logits: softmax, or for one logit (binary) {1 - p, p}; every entry
// is kept at least 1e-12 away from 0 and 1 so that no probability is certain.
std::vector<double> logit_probabilities(const double* logits, int count);
// The same into `out` (its storage reused), for loops that take the probabilities of many rows.
void logit_probabilities(const double* logits, int count, std::vector<double>& out);

}  // namespace candor
