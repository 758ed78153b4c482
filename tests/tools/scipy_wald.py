#!/usr/bin/env python3
"""Maximum-likelihood standard errors and Wald tests of a logistic model, independently of candor's solver.

Reads a problem (JSON: X as a flat row-major list, y, w, logits, groups: lists of column indices) of attribute
columns only, unpenalised. Fits it in the reference-class parameterisation (logit 0 fixed at 0; one logit:
the logit of class 1) with SciPy's BFGS, takes the Hessian of the negative log-likelihood by central
differences of its analytic gradient, and inverts it. Prints JSON:
  {"se": [...], "wald": [[statistic, df, p_value], ...]}
where se lists, logit by logit (1..K-1, or the single one), the standard error of the intercept then of each
column's weight: for a multinomial problem these are the errors of the differences to logit 0.
"""
import json
import sys

import numpy as np
from scipy.optimize import minimize
from scipy.stats import chi2


def main():
    p = json.load(open(sys.argv[1]))
    y = np.array(p["y"], dtype=int)
    X = np.array(p["X"], dtype=float).reshape(len(y), -1)
    w = np.array(p["w"], dtype=float)
    n, d = X.shape
    K = 2 if p["logits"] == 1 else p["logits"]
    Z = np.hstack([np.ones((n, 1)), X])
    Y = np.zeros((n, K))
    Y[np.arange(n), y] = 1

    def f(t):
        B = np.vstack([np.zeros(d + 1), t.reshape(K - 1, d + 1)])  # logit 0 is the reference
        eta = Z @ B.T
        lse = np.logaddexp.reduce(eta, axis=1)
        P = np.exp(eta - lse[:, None])
        loss = np.sum(w * (lse - eta[np.arange(n), y]))
        G = (w[:, None] * (P - Y)).T @ Z
        return loss, G[1:].ravel()

    size = (K - 1) * (d + 1)
    res = minimize(f, np.zeros(size), jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 100000})
    t = res.x
    H = np.zeros((size, size))
    for i in range(size):
        h = 1e-5 * max(1.0, abs(t[i]))
        up, down = t.copy(), t.copy()
        up[i] += h
        down[i] -= h
        H[:, i] = (f(up)[1] - f(down)[1]) / (2 * h)
    H = (H + H.T) / 2
    V = np.linalg.inv(H)
    wald = []
    for group in p["groups"]:
        idx = [j * (d + 1) + 1 + c for c in group for j in range(K - 1)]
        b = t[idx]
        s = float(b @ np.linalg.solve(V[np.ix_(idx, idx)], b))
        wald.append([s, len(idx), float(chi2.sf(s, len(idx)))])
    json.dump({"se": np.sqrt(np.diag(V)).tolist(), "wald": wald}, sys.stdout)


if __name__ == "__main__":
    main()
