#include "candor/linear/logit_inference.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <stdexcept>

namespace candor {

namespace {

// Where (logit j, column c) sits in theta; column 0 is the intercept, column c >= 1 attribute column c - 1.
Eigen::Index position(const LogisticProblem& p, Eigen::Index j, Eigen::Index c) {
  return c == 0 ? j : p.logits + j * p.X.cols() + (c - 1);
}

// The Moore-Penrose inverse of a symmetric positive semi-definite matrix by its eigen-decomposition,
// eigenvalues below a relative tolerance counted as 0; `rank` receives how many were kept.
Eigen::MatrixXd pseudo_inverse(const Eigen::MatrixXd& m, int* rank = nullptr) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m);
  const Eigen::VectorXd& values = eigen.eigenvalues();
  const double largest = values.size() ? values.cwiseAbs().maxCoeff() : 0.0;
  const double floor = largest * 1e-10 * static_cast<double>(std::max<Eigen::Index>(1, m.rows()));
  Eigen::VectorXd inverse = Eigen::VectorXd::Zero(values.size());
  int kept = 0;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    if (values[i] > floor) {
      inverse[i] = 1 / values[i];
      ++kept;
    }
  if (rank) *rank = kept;
  return eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
}

}  // namespace

Eigen::MatrixXd logistic_hessian(const LogisticProblem& p, const LogisticWeights& w) {
  if (p.rules() > 0 || p.lasso) throw std::invalid_argument("logistic_hessian: a problem of attribute columns only");
  const Eigen::Index n = static_cast<Eigen::Index>(p.rows()), d = p.X.cols(), k = p.logits;
  Eigen::MatrixXd design(n, d + 1);
  design.col(0).setOnes();
  design.rightCols(d) = p.X;
  const Eigen::MatrixXd eta = logistic_logits(p, w);
  Eigen::MatrixXd prob(n, k);     // one logit: the probability of class 1
  Eigen::VectorXd row_logits(k);  // eta is column-major: a row is not contiguous
  for (Eigen::Index i = 0; i < n; ++i) {
    row_logits = eta.row(i).transpose();
    const auto probs = logit_probabilities(row_logits.data(), static_cast<int>(k));
    for (Eigen::Index j = 0; j < k; ++j) prob(i, j) = k == 1 ? probs[1] : probs[static_cast<std::size_t>(j)];
  }
  const Eigen::Index size = k + k * d;
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(size, size);
  Eigen::VectorXd s(n);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index l = j; l < k; ++l) {
      for (Eigen::Index i = 0; i < n; ++i) {
        const double pj = prob(i, j);
        s[i] = p.w[static_cast<std::size_t>(i)] * (k == 1 ? pj * (1 - pj) : (j == l ? pj : 0.0) - pj * prob(i, l));
      }
      const Eigen::MatrixXd block = design.transpose() * (s.asDiagonal() * design);
      for (Eigen::Index a = 0; a <= d; ++a)
        for (Eigen::Index b = 0; b <= d; ++b) {
          h(position(p, j, a), position(p, l, b)) = block(a, b);
          h(position(p, l, b), position(p, j, a)) = block(a, b);
        }
    }
  for (Eigen::Index i = k; i < size; ++i) h(i, i) += p.lambda;
  return h;
}

Eigen::MatrixXd logistic_covariance(const LogisticProblem& p, const Eigen::MatrixXd& hessian) {
  const Eigen::Index k = p.logits, d = p.X.cols(), size = hessian.rows();
  // The null space a softmax always has, as orthonormal columns: the shift of every intercept, and at lambda
  // 0 the shift of one column's weights in every logit. Adding it makes the Hessian invertible by a
  // Cholesky factorisation; subtracting it again from the inverse leaves the Moore-Penrose inverse.
  Eigen::MatrixXd null_space(size, 0);
  if (k > 1) {
    const Eigen::Index shifts = p.lambda > 0 ? 1 : d + 1;
    null_space = Eigen::MatrixXd::Zero(size, shifts);
    for (Eigen::Index c = 0; c < shifts; ++c)
      for (Eigen::Index j = 0; j < k; ++j) null_space(position(p, j, c), c) = 1 / std::sqrt(static_cast<double>(k));
  }
  const Eigen::MatrixXd completed = hessian + null_space * null_space.transpose();
  const Eigen::LLT<Eigen::MatrixXd> cholesky(completed);
  if (cholesky.info() == Eigen::Success) {
    const Eigen::MatrixXd inverse = cholesky.solve(Eigen::MatrixXd::Identity(size, size));
    // A nearly singular Hessian (aliased columns) passes the factorisation with a useless inverse.
    if (inverse.allFinite() && inverse.diagonal().minCoeff() >= 0 &&
        inverse.diagonal().maxCoeff() * completed.diagonal().maxCoeff() < 1e12)
      return inverse - null_space * null_space.transpose();
  }
  // Aliased columns (one column a combination of others) add null directions of their own.
  return pseudo_inverse(hessian);
}

WaldTest wald_test(const LogisticProblem& p, const LogisticWeights& w, const Eigen::MatrixXd& covariance,
                   const std::vector<Eigen::Index>& columns) {
  const Eigen::Index k = p.logits, contrasts = k == 1 ? 1 : k - 1;
  const Eigen::Index tested = contrasts * static_cast<Eigen::Index>(columns.size());
  Eigen::MatrixXd c = Eigen::MatrixXd::Zero(tested, covariance.rows());
  Eigen::VectorXd beta(tested);
  Eigen::Index row = 0;
  for (Eigen::Index col : columns) {
    if (col < 0 || col >= p.X.cols()) throw std::invalid_argument("wald_test: column out of range");
    for (Eigen::Index j = 0; j < contrasts; ++j, ++row) {
      if (k == 1) {
        c(row, position(p, 0, col + 1)) = 1;
        beta[row] = w.attributes(0, col);
      } else {
        c(row, position(p, j + 1, col + 1)) = 1;
        c(row, position(p, 0, col + 1)) = -1;
        beta[row] = w.attributes(j + 1, col) - w.attributes(0, col);
      }
    }
  }
  WaldTest out;
  if (tested == 0) return out;
  const Eigen::MatrixXd v = c * covariance * c.transpose();
  const Eigen::MatrixXd v_inverse = pseudo_inverse(v, &out.df);
  if (out.df == 0) return out;
  out.statistic = std::max(0.0, beta.dot(v_inverse * beta));
  out.p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(out.df), out.statistic));
  return out;
}

}  // namespace candor
