#!/usr/bin/env python3
"""Fit and predict on adult through Python against the same work in the CLI (same learner, same threads).

    build-python/venv/bin/python bench/python_overhead.py [--learner cn2-unordered] [--threads 2]

Python's times include turning the DataFrame into columns; the CLI's are the fit and predict seconds
`candor evaluate --test` reports (parsing excluded on both sides: the DataFrame is read before the clock).
"""
import argparse
import json
import os
import subprocess
import time

import numpy as np
import pandas as pd
from scipy.io import arff

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "datasets")


def frame(name):
    data, _ = arff.loadarff(os.path.join(DATA, name + ".arff"))
    df = pd.DataFrame(data)
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].str.decode("utf-8").replace("?", np.nan).astype("category")
    y = df.pop(df.columns[-1]).astype(str).to_numpy()
    return df, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--learner", default="cn2-unordered")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    train, y = frame("adult")
    test, _ = frame("adult.test")
    cls = next(c for c in candor.all_estimators() if c._learner == a.learner)
    py_fit, py_pred, cli_fit, cli_pred = [], [], [], []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        m = cls(n_jobs=a.threads).fit(train, y)
        t1 = time.perf_counter()
        m.predict_proba(test)
        t2 = time.perf_counter()
        py_fit.append(t1 - t0)
        py_pred.append(t2 - t1)
        out = subprocess.run([os.path.join(ROOT, "build", "candor"), "evaluate", os.path.join(DATA, "adult.arff"),
                              "--test", os.path.join(DATA, "adult.test.arff"), "--learner", a.learner,
                              "--threads", str(a.threads), "--format", "json"], capture_output=True, text=True, check=True)
        j = json.loads(out.stdout)
        cli_fit.append(j["fit_seconds"])
        cli_pred.append(j["predict_seconds"])
    f = lambda v: min(v)
    print(f"{a.learner}, {a.threads} threads, best of {a.repeats}: fit Python {f(py_fit):.3f} s, CLI {f(cli_fit):.3f} s "
          f"(ratio {f(py_fit) / f(cli_fit):.3f}); predict Python {f(py_pred):.3f} s, CLI {f(cli_pred):.3f} s "
          f"(ratio {f(py_pred) / f(cli_pred):.3f}); together {(f(py_fit) + f(py_pred)) / (f(cli_fit) + f(cli_pred)):.3f}")


if __name__ == "__main__":
    main()
