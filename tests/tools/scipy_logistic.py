#!/usr/bin/env python3
"""Solves a candor logistic problem (JSON, written by the logistic tests) with SciPy's L-BFGS-B.

An independent implementation of the loss of linear/penalised_logistic.hpp in NumPy:
  sum_i w_i CE_i + lambda/2 (||A||^2 + ||b||^2) + sum_k gamma_k (b+_k + b-_k),  b = b+ - b-,  b+, b- >= 0.
Reads the problem from argv[1] and prints {"objective", "intercepts", "attributes", "rules"} as JSON.
"""
import json
import sys

import numpy as np
from scipy.optimize import minimize


def main():
    p = json.load(open(sys.argv[1]))
    X = np.array(p["X"], dtype=float).reshape(len(p["y"]), -1)
    y = np.array(p["y"], dtype=int)
    w = np.array(p["w"], dtype=float)
    J, n, d = p["logits"], len(y), X.shape[1]
    lasso = p.get("lasso", False)
    R = len(p["rule_rows"])
    C = np.zeros((n, R))  # rule coverage
    for k, rows in enumerate(p["rule_rows"]):
        C[rows, k] = 1.0
    logit = np.array(p["rule_logit"], dtype=int)
    sign = np.array(p["rule_sign"], dtype=float)
    q = np.array(p["rule_q"], dtype=float)
    lam = p["lambda"]
    # gamma_k = max(0, s_k - q_k n_k), s_k the weight of the rows labelled with the rule's class
    if J == 1:
        positive = (y[:, None] == 1) == (sign[None, :] > 0)
    else:
        positive = y[:, None] == logit[None, :]
    gamma = np.maximum(0.0, ((C * positive) * w[:, None]).sum(0) - q * (C * w[:, None]).sum(0))
    if not p["rule_penalty"]:
        gamma[:] = 0
    # Rule k's column in logit j: sign_k when j is its logit.
    M = np.zeros((R, J))
    M[np.arange(R), logit] = sign

    parts = 2 if lasso else 1  # lasso splits A = A+ - A- as well

    def unpack(t):
        a = t[:J]
        A = t[J:J + J * d].reshape(J, d)
        if lasso:
            A = A - t[J + J * d:J + 2 * J * d].reshape(J, d)
        at = J + parts * J * d
        bp = t[at:at + R]
        bm = t[at + R:]
        return a, A, bp, bm

    def f(t):
        a, A, bp, bm = unpack(t)
        b = bp - bm
        eta = a[None, :] + X @ A.T + C @ (b[:, None] * M)
        if J == 1:
            e = eta[:, 0]
            loss = np.sum(w * (np.logaddexp(0, e) - y * e))
            r = w * (1 / (1 + np.exp(-e)) - y)
            R_ = r[:, None]
        else:
            lse = np.logaddexp.reduce(eta, axis=1)
            loss = np.sum(w * (lse - eta[np.arange(n), y]))
            P = np.exp(eta - lse[:, None])
            Y = np.zeros_like(P)
            Y[np.arange(n), y] = 1
            R_ = w[:, None] * (P - Y)
        ga = R_.sum(0)
        gA = R_.T @ X
        gb = (C.T @ R_ * M).sum(1)
        if lasso:
            obj = loss + lam * (np.sum(t[J:])) + np.sum(gamma * (bp + bm))
            return obj, np.concatenate([ga, (gA + lam).ravel(), (-gA + lam).ravel(), gb + gamma + lam,
                                        -gb + gamma + lam])
        obj = loss + lam / 2 * (np.sum(A * A) + np.sum(b * b)) + np.sum(gamma * (bp + bm))
        gA = gA + lam * A
        gb = gb + lam * b
        return obj, np.concatenate([ga, gA.ravel(), gb + gamma, -gb + gamma])

    size = J + parts * J * d + 2 * R
    bounds = ([(None, None)] * J + [(None, None) if not lasso else (0, None)] * (parts * J * d) + [(0, None)] * R +
              [(0, 0 if p["sign_constrained"] else None)] * R)
    t0 = np.zeros(size)
    res = minimize(f, t0, jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 100000, "maxfun": 100000, "ftol": 1e-16, "gtol": 1e-11, "maxcor": 30})
    a, A, bp, bm = unpack(res.x)
    json.dump({"objective": float(res.fun), "intercepts": a.tolist(), "attributes": A.tolist(),
               "rules": (bp - bm).tolist()}, sys.stdout)


if __name__ == "__main__":
    main()
