#include "candor/linear/penalised_logistic.hpp"

#include <LBFGSB.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace candor {

double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

double sigmoid(double x) {
  if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// theta = (intercepts, attribute weights row by row [lasso: A+ then A-], b+, b-).
struct Layout {
  Eigen::Index logits, columns, rules;
  bool lasso;
  Eigen::Index attributes_at() const { return logits; }
  Eigen::Index attributes_minus_at() const { return logits + logits * columns; }  // lasso only
  Eigen::Index plus_at() const { return logits + (lasso ? 2 : 1) * logits * columns; }
  Eigen::Index minus_at() const { return plus_at() + rules; }
  Eigen::Index size() const { return minus_at() + rules; }
};

Layout layout(const LogisticProblem& p) {
  return {p.logits, p.X.cols(), static_cast<Eigen::Index>(p.rules()), p.lasso};
}

void check(const LogisticProblem& p) {
  const auto n = static_cast<Eigen::Index>(p.rows());
  if (p.logits < 1) throw std::invalid_argument("logistic problem: at least one logit");
  if (p.X.rows() != n || p.w.size() != p.rows()) throw std::invalid_argument("logistic problem: rows disagree");
  if (p.rule_logit.size() != p.rules() || p.rule_sign.size() != p.rules() || p.rule_q.size() != p.rules())
    throw std::invalid_argument("logistic problem: rule entries disagree");
  const int classes = p.logits == 1 ? 2 : p.logits;
  for (int y : p.y)
    if (y < 0 || y >= classes) throw std::invalid_argument("logistic problem: label out of range");
  for (std::size_t k = 0; k < p.rules(); ++k) {
    if (p.rule_logit[k] < 0 || p.rule_logit[k] >= p.logits) throw std::invalid_argument("logistic problem: rule logit");
    for (auto i : p.rule_rows[k])
      if (i >= p.rows()) throw std::invalid_argument("logistic problem: rule row out of range");
  }
  if (!(p.lambda >= 0)) throw std::invalid_argument("logistic problem: lambda must be non-negative");
}

}  // namespace

bool LogisticProblem::rule_positive(std::size_t k, std::size_t i) const {
  if (logits == 1) return (y[i] == 1) == (rule_sign[k] > 0);
  return y[i] == rule_logit[k];
}

std::vector<double> LogisticProblem::gammas() const { return rule_gammas(*this, row_sums(*this)); }

LogisticRowSums row_sums(const LogisticProblem& p) {
  LogisticRowSums out;
  out.label_weight.assign(static_cast<std::size_t>(p.logits == 1 ? 2 : p.logits), 0.0);
  for (std::size_t i = 0; i < p.rows(); ++i) {
    out.label_weight[static_cast<std::size_t>(p.y[i])] += p.w[i];
    out.total += p.w[i];
  }
  for (std::size_t k = 0; k < p.rules(); ++k) {
    double s = 0, n = 0;
    for (auto i : p.rule_rows[k]) {
      n += p.w[i];
      if (p.rule_positive(k, i)) s += p.w[i];
    }
    out.rule_weight.push_back(n);
    out.rule_positive_weight.push_back(s);
  }
  return out;
}

std::vector<double> rule_gammas(const LogisticProblem& p, const LogisticRowSums& sums) {
  std::vector<double> g(p.rules(), 0.0);
  if (!p.rule_penalty) return g;
  for (std::size_t k = 0; k < p.rules(); ++k)
    g[k] = std::max(0.0, sums.rule_positive_weight[k] - p.rule_q[k] * sums.rule_weight[k]);
  return g;
}

LogisticProblem LogisticProblem::subset(const std::vector<std::size_t>& rows) const {
  LogisticProblem out = *this;
  out.X.resize(static_cast<Eigen::Index>(rows.size()), X.cols());
  out.y.resize(rows.size());
  out.w.resize(rows.size());
  std::vector<std::int64_t> new_index(this->rows(), -1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    // A matrix of no columns (rules only) has no storage: Eigen's row() of it offsets a null pointer (UBSan).
    if (X.cols() > 0) out.X.row(static_cast<Eigen::Index>(r)) = X.row(static_cast<Eigen::Index>(rows[r]));
    out.y[r] = y[rows[r]];
    out.w[r] = w[rows[r]];
    new_index[rows[r]] = static_cast<std::int64_t>(r);
  }
  for (std::size_t k = 0; k < rules(); ++k) {
    out.rule_rows[k].clear();
    for (auto i : rule_rows[k])
      if (new_index[i] >= 0) out.rule_rows[k].push_back(static_cast<std::uint32_t>(new_index[i]));
    std::sort(out.rule_rows[k].begin(), out.rule_rows[k].end());
  }
  return out;
}

namespace {

// The objective from the rows' summed loss: the penalties added, and with `gradient` (which holds the loss's
// gradient for the intercepts and the attributes [lasso: A+] on entry) the penalties' gradient added and the
// rules' entries set from `rule_residuals`, each rule's residuals summed over its rows.
double penalised(const LogisticProblem& p, const Layout& L, const std::vector<double>& gamma,
                 const Eigen::VectorXd& theta, const RowMajor& A, const Eigen::VectorXd& b, double loss,
                 const std::vector<double>* rule_residuals, Eigen::VectorXd* gradient) {
  // L2: lambda/2 ||w||^2; lasso: lambda ||w||_1 = lambda (sum of the split parts), all non-negative.
  double f = loss + (L.lasso ? p.lambda * theta.segment(L.attributes_at(), L.size() - L.logits).sum()
                             : 0.5 * p.lambda * (A.squaredNorm() + b.squaredNorm()));
  for (Eigen::Index k = 0; k < L.rules; ++k)
    f += gamma[static_cast<std::size_t>(k)] * (theta[L.plus_at() + k] + theta[L.minus_at() + k]);
  if (!gradient) return f;
  Eigen::Map<RowMajor> gA(gradient->data() + L.attributes_at(), L.logits, L.columns);
  if (L.lasso) {
    Eigen::Map<RowMajor> gA_minus(gradient->data() + L.attributes_minus_at(), L.logits, L.columns);
    gA_minus = -gA.array() + p.lambda;
    gA.array() += p.lambda;
  } else {
    gA += p.lambda * A;
  }
  for (Eigen::Index k = 0; k < L.rules; ++k) {
    const double sum = (*rule_residuals)[static_cast<std::size_t>(k)];
    const double gb = p.rule_sign[static_cast<std::size_t>(k)] * sum + (L.lasso ? 0.0 : p.lambda * b[k]);
    const double g = gamma[static_cast<std::size_t>(k)] + (L.lasso ? p.lambda : 0.0);
    (*gradient)[L.plus_at() + k] = gb + g;
    (*gradient)[L.minus_at() + k] = -gb + g;
  }
  return f;
}

}  // namespace

double logistic_objective(const LogisticProblem& p, const Eigen::VectorXd& theta, Eigen::VectorXd* gradient) {
  return logistic_objective_with(p, p.gammas(), theta, gradient);
}

double logistic_objective_with(const LogisticProblem& p, const std::vector<double>& gamma, const Eigen::VectorXd& theta,
                               Eigen::VectorXd* gradient) {
  const Layout L = layout(p);
  const auto n = static_cast<Eigen::Index>(p.rows());
  RowMajor A = Eigen::Map<const RowMajor>(theta.data() + L.attributes_at(), L.logits, L.columns);
  if (L.lasso) A -= Eigen::Map<const RowMajor>(theta.data() + L.attributes_minus_at(), L.logits, L.columns);
  const auto a = theta.segment(0, L.logits);
  const Eigen::VectorXd b = theta.segment(L.plus_at(), L.rules) - theta.segment(L.minus_at(), L.rules);

  Eigen::MatrixXd eta(n, L.logits);
  eta.noalias() = p.X * A.transpose();
  eta.rowwise() += a.transpose();
  for (Eigen::Index k = 0; k < L.rules; ++k) {
    const double add = p.rule_sign[static_cast<std::size_t>(k)] * b[k];
    const Eigen::Index j = p.rule_logit[static_cast<std::size_t>(k)];
    for (auto i : p.rule_rows[static_cast<std::size_t>(k)]) eta(static_cast<Eigen::Index>(i), j) += add;
  }

  // eta becomes the residual w_i (p_ij - y_ij) in place.
  double loss = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double wi = p.w[static_cast<std::size_t>(i)];
    const int yi = p.y[static_cast<std::size_t>(i)];
    if (L.logits == 1) {
      const double e = eta(i, 0);
      loss += wi * (softplus(e) - (yi == 1 ? e : 0.0));
      eta(i, 0) = wi * (sigmoid(e) - (yi == 1 ? 1.0 : 0.0));
    } else {
      // Each exp once: the row's shifted exponentials are kept in place and then scaled by 1 / sum.
      const double m = eta.row(i).maxCoeff();
      const double label_logit = eta(i, yi);
      double sum = 0;
      for (Eigen::Index j = 0; j < L.logits; ++j) {
        const double e = std::exp(eta(i, j) - m);
        eta(i, j) = e;
        sum += e;
      }
      loss += wi * (m + std::log(sum) - label_logit);
      const double share = wi / sum;
      for (Eigen::Index j = 0; j < L.logits; ++j) eta(i, j) = share * eta(i, j) - (j == yi ? wi : 0.0);
    }
  }
  if (!gradient) return penalised(p, L, gamma, theta, A, b, loss, nullptr, nullptr);
  gradient->resize(L.size());
  gradient->segment(0, L.logits) = eta.colwise().sum().transpose();
  Eigen::Map<RowMajor> gA(gradient->data() + L.attributes_at(), L.logits, L.columns);
  gA.noalias() = eta.transpose() * p.X;
  std::vector<double> rule_residuals(p.rules());
  for (Eigen::Index k = 0; k < L.rules; ++k) {
    const Eigen::Index j = p.rule_logit[static_cast<std::size_t>(k)];
    double sum = 0;
    for (auto i : p.rule_rows[static_cast<std::size_t>(k)]) sum += eta(static_cast<Eigen::Index>(i), j);
    rule_residuals[static_cast<std::size_t>(k)] = sum;
  }
  return penalised(p, L, gamma, theta, A, b, loss, &rule_residuals, gradient);
}

namespace {

// The solver works on centred attribute columns: x_c - m_c with m_c the column's weighted mean, each
// intercept a + sum_c A_c m_c. That is the same model (the same logits and, the intercepts being
// unpenalised, the same penalty), but 0/1 columns of nominal values no longer move with the intercepts, a
// direction of low curvature that a diagonal preconditioner cannot fix. Returns the problem to solve:
// `given`, or `centred` filled with its centred copy; `means` holds the means subtracted (zero if none).
const LogisticProblem& centre_columns(const LogisticProblem& given, LogisticProblem& centred,
                                      Eigen::RowVectorXd& means) {
  means = Eigen::RowVectorXd::Zero(given.X.cols());
  // Without attribute columns there is nothing to centre (and no row of X to take: its data is null).
  if (given.X.cols() == 0) return given;
  double total = 0;
  for (std::size_t i = 0; i < given.rows(); ++i) {
    means += given.w[i] * given.X.row(static_cast<Eigen::Index>(i));
    total += given.w[i];
  }
  if (total > 0) means /= total;
  if (means.size() > 0 && means.cwiseAbs().maxCoeff() > 0) {
    centred = given;
    centred.X.rowwise() -= means;
    return centred;
  }
  means.setZero();
  return given;
}

// The solver's first point: `start` moved to the centred columns, else the intercepts at the log prior (odds),
// the model with no features at its optimum. `total` gets the rows' summed weight.
Eigen::VectorXd starting_point(const LogisticProblem& p, const LogisticRowSums& sums, const Layout& L,
                               const LogisticWeights* start, const Eigen::RowVectorXd& means, double& total) {
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(L.size());
  total = 0;
  if (start) {
    theta.segment(0, L.logits) = start->intercepts + start->attributes * means.transpose();
    if (L.lasso) {
      Eigen::Map<RowMajor>(theta.data() + L.attributes_at(), L.logits, L.columns) = start->attributes.cwiseMax(0.0);
      Eigen::Map<RowMajor>(theta.data() + L.attributes_minus_at(), L.logits, L.columns) =
          (-start->attributes).cwiseMax(0.0);
    } else {
      Eigen::Map<RowMajor>(theta.data() + L.attributes_at(), L.logits, L.columns) = start->attributes;
    }
    theta.segment(L.plus_at(), L.rules) = start->rules.cwiseMax(0.0);
    if (!p.sign_constrained) theta.segment(L.minus_at(), L.rules) = (-start->rules).cwiseMax(0.0);
    total = sums.total;
    return theta;
  }
  const std::vector<double>& counts = sums.label_weight;
  for (double c : counts) total += c;
  const int classes = p.logits == 1 ? 2 : p.logits;
  auto log_share = [&](int c) {
    return std::log((counts[static_cast<std::size_t>(c)] + 0.5) / (total + 0.5 * classes));
  };
  if (p.logits == 1)
    theta[0] = log_share(1) - log_share(0);
  else
    for (int j = 0; j < p.logits; ++j) theta[j] = log_share(j);
  return theta;
}

// L-BFGS-B runs on u = theta / scale, each variable scaled by the inverse square root of a bound on its
// curvature (a diagonal preconditioner): rare one-hot columns and rules otherwise make the problem badly
// conditioned at small lambda. The objective is unchanged; only the coordinates are.
Eigen::VectorXd variable_scales(const LogisticProblem& p, const LogisticRowSums& sums, const Layout& L, double total) {
  const double quarter = 0.25;  // the largest p (1 - p)
  Eigen::VectorXd scale(L.size());
  const double l2 = p.lasso ? 0.0 : p.lambda;           // the penalty's own curvature
  const double floor = 1e-6 * quarter * total + 1e-12;  // columns no row uses (a fold may have none)
  scale.segment(0, L.logits).setConstant(1 / std::sqrt(quarter * std::max(total, 1e-12)));
  for (Eigen::Index c = 0; c < L.columns; ++c) {
    double sum = 0;
    for (std::size_t i = 0; i < p.rows(); ++i)
      sum += p.w[i] * p.X(static_cast<Eigen::Index>(i), c) * p.X(static_cast<Eigen::Index>(i), c);
    const double s = 1 / std::sqrt(std::max(quarter * sum + l2, floor));
    for (Eigen::Index j = 0; j < L.logits; ++j) {
      scale[L.attributes_at() + j * L.columns + c] = s;
      if (L.lasso) scale[L.attributes_minus_at() + j * L.columns + c] = s;
    }
  }
  for (Eigen::Index k = 0; k < L.rules; ++k) {
    const double sum = sums.rule_weight[static_cast<std::size_t>(k)];
    const double s = 1 / std::sqrt(std::max(quarter * sum + l2, floor));
    scale[L.plus_at() + k] = s;
    scale[L.minus_at() + k] = s;
  }
  return scale;
}

}  // namespace

namespace {

// The objective (penalties included) and its gradient at theta.
using Objective = std::function<double(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient)>;

// L-BFGS-B on problem p (its columns centred by `means`), whose rows the solver reads through `sums` and
// `objective`.
LogisticWeights minimise(const LogisticProblem& p, const LogisticRowSums& sums, const Objective& objective_at,
                         const Eigen::RowVectorXd& means, const SolverOptions& options, const LogisticWeights* start) {
  const Layout L = layout(p);
  double total = 0;
  Eigen::VectorXd theta = starting_point(p, sums, L, start, means, total);
  const Eigen::VectorXd scale = variable_scales(p, sums, L, total);

  const double inf = std::numeric_limits<double>::infinity();
  Eigen::VectorXd lb = Eigen::VectorXd::Constant(L.size(), -inf), ub = Eigen::VectorXd::Constant(L.size(), inf);
  lb.segment(L.plus_at(), 2 * L.rules).setZero();
  if (L.lasso) lb.segment(L.attributes_at(), 2 * L.logits * L.columns).setZero();
  if (p.sign_constrained) ub.segment(L.minus_at(), L.rules).setZero();

  LBFGSpp::LBFGSBParam<double> param;
  param.m = 20;
  // In the scaled coordinates a gradient entry g can lower the objective by about g^2 / 2.
  param.epsilon = options.tolerance;
  param.epsilon_rel = 0;
  param.past = 1;
  param.delta = 1e-12;
  param.max_iterations = options.max_iterations;
  param.max_linesearch = 50;
  LBFGSpp::LBFGSBSolver<double> solver(param);

  // The line search may give up close to the optimum (rounding); the best point evaluated is kept.
  Eigen::VectorXd best = theta;
  double best_f = inf;
  Eigen::VectorXd x_theta(L.size()), g_theta(L.size());
  auto objective = [&](const Eigen::VectorXd& u, Eigen::VectorXd& g) {
    x_theta = u.cwiseProduct(scale);
    const double f = objective_at(x_theta, g_theta);
    g = g_theta.cwiseProduct(scale);
    if (f < best_f) {
      best_f = f;
      best = x_theta;
    }
    return f;
  };
  Eigen::VectorXd u = theta.cwiseQuotient(scale);
  double fx = 0;
  int iterations = 0;
  try {
    iterations = solver.minimize(objective, u, fx, lb, ub);
  } catch (const std::runtime_error&) {
    iterations = options.max_iterations;
  } catch (const std::logic_error&) {
    iterations = options.max_iterations;
  }
  theta = best;

  LogisticWeights out;
  out.attributes = Eigen::Map<const RowMajor>(theta.data() + L.attributes_at(), L.logits, L.columns);
  if (L.lasso)
    out.attributes -= Eigen::Map<const RowMajor>(theta.data() + L.attributes_minus_at(), L.logits, L.columns);
  out.intercepts = theta.segment(0, L.logits) - out.attributes * means.transpose();
  out.rules = theta.segment(L.plus_at(), L.rules) - theta.segment(L.minus_at(), L.rules);
  out.objective = best_f;
  out.iterations = iterations;
  return out;
}

}  // namespace

LogisticWeights solve_logistic(const LogisticProblem& given, const SolverOptions& options,
                               const LogisticWeights* start) {
  check(given);
  LogisticProblem centred;
  Eigen::RowVectorXd means;
  const LogisticProblem& p = centre_columns(given, centred, means);
  const LogisticRowSums sums = row_sums(p);
  const std::vector<double> gamma = rule_gammas(p, sums);
  return minimise(
      p, sums,
      [&](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        return logistic_objective_with(p, gamma, theta, &gradient);
      },
      means, options, start);
}

namespace {

// A proximal Newton step's direction d for variables x = (intercepts, rules): the minimum of
// g.d + d'Hd/2 + sum_k l1_k |b_k + d_k| with b_k + d_k >= 0 where `non_negative`, found by cyclic coordinate
// descent (each coordinate's exact minimum: a soft threshold for a rule). Coordinates that stay at 0 cost a test.
// Stops when no coordinate moves by more than `tolerance` times the inverse square root of its curvature.
Eigen::VectorXd newton_direction(const Eigen::VectorXd& x, const Eigen::VectorXd& g, const Eigen::MatrixXd& H,
                                 Eigen::Index logits, const std::vector<double>& l1, bool non_negative,
                                 double tolerance) {
  const Eigen::Index n = x.size();
  Eigen::VectorXd d = Eigen::VectorXd::Zero(n), Hd = Eigen::VectorXd::Zero(n);
  constexpr int kMaxSweeps = 1000;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double largest = 0;
    for (Eigen::Index u = 0; u < n; ++u) {
      const double diag = H(u, u);
      if (!(diag > 0)) continue;  // a variable no row reaches and nothing penalises: left where it is
      const double slope = g[u] + Hd[u];
      double delta;
      if (u < logits) {
        delta = -slope / diag;
      } else {
        const double c = l1[static_cast<std::size_t>(u - logits)];
        const double z = x[u] + d[u], moved = z - slope / diag, shrink = c / diag;
        double target = moved > shrink ? moved - shrink : (moved < -shrink ? moved + shrink : 0.0);
        if (non_negative) target = std::max(target, 0.0);
        delta = target - z;
      }
      if (delta == 0) continue;
      d[u] += delta;
      Hd += H.col(u) * delta;
      largest = std::max(largest, std::abs(delta) * std::sqrt(diag));
    }
    if (largest <= tolerance) break;
  }
  return d;
}

}  // namespace

LogisticWeights solve_rule_logistic(const LogisticProblem& shape, const LogisticRowSums& sums, const RuleDataLoss& loss,
                                    const SolverOptions& options) {
  check(shape);
  if (shape.X.cols() != 0 || shape.rows() != 0)
    throw std::invalid_argument("solve_rule_logistic: a problem over rules alone, its rows given by their sums");
  if (sums.label_weight.size() != static_cast<std::size_t>(shape.logits == 1 ? 2 : shape.logits) ||
      sums.rule_weight.size() != shape.rules() || sums.rule_positive_weight.size() != shape.rules())
    throw std::invalid_argument("solve_rule_logistic: sums of another problem");
  const Layout L = layout(shape);
  const Eigen::Index m = L.logits, R = L.rules, n = m + R;
  const std::vector<double> gamma = rule_gammas(shape, sums);
  const double l2 = shape.lasso ? 0.0 : shape.lambda;
  std::vector<double> l1(static_cast<std::size_t>(R));
  for (std::size_t k = 0; k < l1.size(); ++k) l1[k] = gamma[k] + (shape.lasso ? shape.lambda : 0.0);
  // Each variable's sign on the logits: +1 for an intercept, the rule's sign for a rule.
  Eigen::VectorXd sign = Eigen::VectorXd::Ones(n);
  for (Eigen::Index k = 0; k < R; ++k) sign[m + k] = shape.rule_sign[static_cast<std::size_t>(k)];

  // The starting point and the scales that measure convergence: solve_logistic's.
  double total = 0;
  const Eigen::VectorXd theta0 = starting_point(shape, sums, L, nullptr, Eigen::RowVectorXd::Zero(0), total);
  const Eigen::VectorXd split_scale = variable_scales(shape, sums, L, total);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n), scale(n);
  x.head(m) = theta0.head(m);
  scale.head(m) = split_scale.head(m);
  scale.tail(R) = split_scale.segment(L.plus_at(), R);

  // A label no row has: its intercept's likelihood falls without end, and where a solve stops on the way down
  // depends on its path (an L-BFGS-B solve's or these steps'), while a test row of that label is scored by how far
  // it went. Each such label gets half an example, a row that no rule covers (the starting point's half example),
  // so that its intercept has a finite optimum: the rows and the half example together predict it half an example.
  std::vector<int> unseen;
  const bool any_seen = std::any_of(sums.label_weight.begin(), sums.label_weight.end(), [](double w) { return w > 0; });
  for (std::size_t label = 0; label < sums.label_weight.size() && any_seen; ++label)
    if (!(sums.label_weight[label] > 0)) unseen.push_back(static_cast<int>(label));
  // Adds the half examples' loss, gradient and curvature at intercepts `at`.
  auto add_unseen = [&](const Eigen::VectorXd& at, double& f, Eigen::VectorXd& g, Eigen::MatrixXd& H) {
    constexpr double kHalf = 0.5;
    for (int label : unseen) {
      if (m == 1) {
        const double p = sigmoid(at[0]);
        f += kHalf * (softplus(at[0]) - (label == 1 ? at[0] : 0.0));
        g[0] += kHalf * (p - (label == 1 ? 1.0 : 0.0));
        H(0, 0) += kHalf * p * (1 - p);
        continue;
      }
      const double top = at.maxCoeff();
      const Eigen::ArrayXd e = (at.array() - top).exp();
      const Eigen::VectorXd p = (e / e.sum()).matrix();
      f += kHalf * (top + std::log(e.sum()) - at[label]);
      g.head(m) += kHalf * p;
      g[label] -= kHalf;
      H.topLeftCorner(m, m) += kHalf * (Eigen::MatrixXd(p.asDiagonal()) - p * p.transpose());
    }
  };
  // The objective at x, its smooth part's gradient and curvature.
  Eigen::VectorXd a, b, gradient_a, gradient_rules;
  auto evaluate = [&](const Eigen::VectorXd& at, Eigen::VectorXd& g, Eigen::MatrixXd& H) {
    a = at.head(m);
    b = at.tail(R);
    const double data_loss = loss(a, b, gradient_a, gradient_rules, &H);
    if (gradient_a.size() != m || gradient_rules.size() != R || H.rows() != n || H.cols() != n)
      throw std::invalid_argument("solve_rule_logistic: a loss gradient or curvature of another size");
    double f = data_loss + 0.5 * l2 * b.squaredNorm();
    for (Eigen::Index k = 0; k < R; ++k) f += l1[static_cast<std::size_t>(k)] * std::abs(b[k]);
    g.resize(n);
    g.head(m) = gradient_a;
    g.tail(R) = sign.tail(R).cwiseProduct(gradient_rules) + l2 * b;
    H = sign.asDiagonal() * H * sign.asDiagonal();
    H.diagonal().tail(R).array() += l2;
    add_unseen(a, f, g, H);
    return f;
  };
  // The largest scaled least subgradient: how far x is from optimal.
  auto distance = [&](const Eigen::VectorXd& at, const Eigen::VectorXd& g) {
    double worst = 0;
    for (Eigen::Index u = 0; u < n; ++u) {
      double r = g[u];
      if (u >= m) {
        const double c = l1[static_cast<std::size_t>(u - m)];
        if (at[u] > 0)
          r = g[u] + c;
        else if (at[u] < 0)
          r = g[u] - c;
        else if (g[u] + c < 0)
          r = g[u] + c;
        else if (g[u] - c > 0 && !shape.sign_constrained)
          r = g[u] - c;
        else
          r = 0;
      }
      worst = std::max(worst, std::abs(r) * scale[u]);
    }
    return worst;
  };
  auto penalty_of = [&](const Eigen::VectorXd& at) {
    double p = 0;
    for (Eigen::Index k = 0; k < R; ++k) p += l1[static_cast<std::size_t>(k)] * std::abs(at[m + k]);
    return p;
  };

  Eigen::VectorXd g, trial_g;
  Eigen::MatrixXd H, trial_H;
  double f = evaluate(x, g, H);
  int iterations = 0;
  // Armijo's sufficient decrease, and how often a step is halved before the search gives up (rounding, at the
  // optimum).
  constexpr double kDecrease = 1e-4;
  constexpr int kHalvings = 50;
  while (iterations < options.max_iterations && distance(x, g) > options.tolerance) {
    const Eigen::VectorXd d = newton_direction(x, g, H, m, l1, shape.sign_constrained, 1e-3 * options.tolerance);
    // The decrease the quadratic model expects; below the objective's rounding there is nothing left to gain.
    const double expected = g.dot(d) + penalty_of(x + d) - penalty_of(x);
    if (!(expected < -1e-15 * std::abs(f))) break;
    bool taken = false;
    double t = 1;
    for (int halving = 0; halving < kHalvings && !taken; ++halving, t *= 0.5) {
      const Eigen::VectorXd trial = x + t * d;
      const double trial_f = evaluate(trial, trial_g, trial_H);
      if (trial_f < f && trial_f <= f + kDecrease * t * expected) {
        x = trial;
        f = trial_f;
        g.swap(trial_g);
        H.swap(trial_H);
        taken = true;
      }
    }
    ++iterations;
    if (!taken) break;
  }

  // Softmax logits are the same model when every intercept moves alike; the coordinate steps move their sum,
  // which a gradient method's steps (solve_logistic's) never do: the intercepts are shifted back to the sum they
  // started from, the one choice that solve_logistic writes too.
  if (m > 1) x.head(m).array() += (theta0.head(m).sum() - x.head(m).sum()) / static_cast<double>(m);
  LogisticWeights out;
  out.attributes = Eigen::MatrixXd(m, 0);
  out.intercepts = x.head(m);
  out.rules = x.tail(R);
  out.objective = f;
  out.iterations = iterations;
  return out;
}

Eigen::MatrixXd logistic_logits(const LogisticProblem& p, const LogisticWeights& weights) {
  Eigen::MatrixXd eta = p.X * weights.attributes.transpose();
  eta.rowwise() += weights.intercepts.transpose();
  for (std::size_t k = 0; k < p.rules(); ++k)
    for (auto i : p.rule_rows[k])
      eta(static_cast<Eigen::Index>(i), p.rule_logit[k]) +=
          p.rule_sign[k] * weights.rules[static_cast<Eigen::Index>(k)];
  return eta;
}

std::vector<double> logit_probabilities(const double* logits, int count) {
  std::vector<double> p;
  logit_probabilities(logits, count, p);
  return p;
}

void logit_probabilities(const double* logits, int count, std::vector<double>& p) {
  constexpr double kEdge = 1e-12;
  p.clear();
  if (count == 1) {
    const double q = std::clamp(sigmoid(logits[0]), kEdge, 1 - kEdge);
    p.push_back(1 - q);
    p.push_back(q);
    return;
  }
  const double m = *std::max_element(logits, logits + count);
  double sum = 0;
  for (int j = 0; j < count; ++j) {
    p.push_back(std::exp(logits[j] - m));
    sum += p.back();
  }
  double total = 0;
  for (auto& x : p) {
    x = std::max(x / sum, kEdge);
    total += x;
  }
  for (auto& x : p) x /= total;
}

}  // namespace candor
