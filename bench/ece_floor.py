#!/usr/bin/env python3
"""How low a test fold's ECE can be: each learner's ECE beside the ECE its own predictions would have if they
were perfectly calibrated (docs/boosting.md, "How low ECE can go").

ECE on a test fold of a few dozen rows is mostly sampling noise: ten bins of a handful of rows each cannot show
a calibrated model's observed shares equal to its predicted ones. Consistency resampling (Broecker and Smith,
"Increasing the reliability of reliability diagrams", Weather and Forecasting 2007) measures that noise: the
labels of a fold are drawn again from the model's own predicted distributions, for which the model is
calibrated by construction, and the ECE of those labels is the floor a calibrated model would show on that
fold. The floor's mean over folds and sets is the level below which a corpus ECE target cannot be met.

Outer 10-fold StratifiedKFold (shuffle, random_state 1), as bench/posthoc_calibration.py; top-label ECE with 10
equal-width bins, as candor's; 200 label draws per fold (numpy, seed 1). Corpus sets of 50 to 5,000 rows.

    build-python/venv/bin/python bench/ece_floor.py [--learners default,KBS-tree-discount] [--jobs 2]
        [--out out/ece_floor.csv]
"""
import argparse
import concurrent.futures
import os
import statistics
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

import candor
from bench_files import write_csv
from posthoc_calibration import corpus_sets, read_corpus_set, top_label_ece  # the same sets, folds' data and ECE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEARNERS = {
    "default": lambda: candor.RuleLogistic(),
    "cn2-unordered": lambda: candor.CN2Unordered(),
    "tree": lambda: candor.Tree(leaf_estimate="laplace"),
    "tree-bootstrap": lambda: candor.Tree(leaf_estimate="bootstrap"),
    "KBS-tree-discount": lambda: candor.Boost(boosting="kbs", base="tree", multiclass="softmax", calibrate="discount"),
    "AdaBoost-tree-discount": lambda: candor.Boost(boosting="adaboost-m1", base="tree", calibrate="discount"),
    "LogitBoost-discount": lambda: candor.Boost(boosting="logitboost", calibrate="discount"),
}
DRAWS = 200


def floor(p, rng):
    """The mean ECE of labels drawn from the predicted distributions p (rows x classes)."""
    cumulative = np.cumsum(p, axis=1)
    values = []
    for _ in range(DRAWS):
        u = rng.random(len(p))[:, None]
        drawn = np.minimum((u > cumulative).sum(axis=1), p.shape[1] - 1)
        values.append(top_label_ece(p, drawn))
    return float(np.mean(values))


def run_set(name, learners):
    X, y_text, classes, y = read_corpus_set(name)
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=1)
    rng = np.random.default_rng(1)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for learner in learners:
            for fold, (train, test) in enumerate(folds.split(X, y)):
                model = LEARNERS[learner]().fit(X.iloc[train], y_text[train])
                p = np.asarray(model.predict_proba(X.iloc[test]), dtype=float)
                # Columns in the order of `classes` (a class absent from a training fold gets 0).
                full = np.zeros((len(test), len(classes)))
                for j, c in enumerate(model.classes_):
                    full[:, np.searchsorted(classes, str(c))] = p[:, j]
                rows.append({"dataset": name, "learner": learner, "fold": fold, "test_rows": len(test),
                             "ece": float(top_label_ece(full, y[test])), "ece_floor": floor(full, rng)})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", default="default,KBS-tree-discount")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "ece_floor.csv"))
    args = ap.parse_args()
    learners = args.learners.split(",")
    for learner in learners:
        if learner not in LEARNERS:
            ap.error(f"unknown learner {learner!r}; known: {', '.join(LEARNERS)}")
    rows = []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(run_set, corpus_sets(), [learners] * len(corpus_sets())):
            rows.extend(part)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    write_csv(args.out, rows)
    print("| learner | sets | ECE (mean of set means) | floor: a calibrated model's ECE | ECE above the floor |")
    print("|---|---|---|---|---|")
    for learner in learners:
        per_set = {}
        for r in rows:
            if r["learner"] == learner:
                per_set.setdefault(r["dataset"], []).append(r)
        ece = statistics.mean(statistics.mean(r["ece"] for r in v) for v in per_set.values())
        low = statistics.mean(statistics.mean(r["ece_floor"] for r in v) for v in per_set.values())
        print(f"| {learner} | {len(per_set)} | {ece:.3f} | {low:.3f} | {ece - low:.3f} |")


if __name__ == "__main__":
    main()
