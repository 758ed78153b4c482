#!/usr/bin/env python3
"""Ensembles' own probabilities against post-hoc calibration (docs/boosting.md, "Post-hoc calibration").

For KBS and AdaBoost.M1 over trees, LogitBoost over stumps and a single tree, on the corpus sets of 50 to 5,000
rows: the raw probabilities, candor's `calibrate="temperature"` (and, for KBS, `calibrate="smoothing"`), and
scikit-learn's CalibratedClassifierCV around the candor estimator (method "sigmoid", Platt scaling, and
"isotonic"; cv=5, ensemble=False: the calibrator is fitted on out-of-fold predictions, the estimator refitted on
all training rows). Outer 10-fold StratifiedKFold (shuffle, random_state 1), the same folds for every variant. Metrics: accuracy, log loss
(probabilities clipped to [1e-15, 1 - 1e-15], as scikit-learn's log_loss does) and top-label ECE with 10
equal-width bins. Writes one CSV row per (learner, variant, data set, fold) and prints the means over the
sets where every variant ran (scikit-learn's calibration needs 5 training rows of every class).

    build-python/venv/bin/python bench/posthoc_calibration.py [--out out/posthoc_calibration.csv] [--jobs 2]
        [--learners KBS-tree] [--variants smoothing] [--merge]
"""
import argparse
import concurrent.futures
import csv
import os
import statistics
import sys
import warnings
from collections import defaultdict

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import StratifiedKFold

import candor
from bench_files import write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "corpus")
# The raw ensembles and tree as this page measured them: uncalibrated, one-vs-rest KBS, Laplace leaves (their
# defaults before the calibrated forms became the defaults).
LEARNERS = {
    "KBS-tree": dict(boosting="kbs", base="tree", multiclass="one-vs-rest"),
    "AdaBoost-tree": dict(boosting="adaboost-m1", base="tree"),
    "LogitBoost": dict(boosting="logitboost"),
    "tree": None,
}
VARIANTS = ["raw", "temperature", "smoothing", "sigmoid", "isotonic"]


def corpus_sets():
    with open(os.path.join(DATA, "INDEX.tsv")) as f:
        return [r["name"] for r in csv.DictReader(f, delimiter="\t")
                if 50 <= int(r["rows"]) <= 5000 and ".test" not in r["name"] and ".train" not in r["name"]
                and not r["name"].startswith("weather.")]


def estimator(learner, variant):
    options = LEARNERS[learner]
    if variant in ("temperature", "smoothing"):
        if options is None or (variant == "smoothing" and options["boosting"] != "kbs"):
            return None  # a single tree has no scores to scale; only KBS has LIFTs to smooth
        return candor.Boost(**options, calibrate=variant)
    base = candor.Tree(leaf_estimate="laplace") if options is None else candor.Boost(**options, calibrate="none")
    if variant == "raw":
        return base
    return CalibratedClassifierCV(base, method=variant, cv=5, ensemble=False)


def top_label_ece(p, y, bins=10):
    confidence = p.max(axis=1)
    correct = (p.argmax(axis=1) == y).astype(float)
    edges = np.minimum((confidence * bins).astype(int), bins - 1)
    return sum(abs(correct[edges == b].mean() - confidence[edges == b].mean()) * (edges == b).sum()
               for b in range(bins) if (edges == b).any()) / len(y)


def read_corpus_set(name):
    """A corpus set's attributes, class labels as text, the sorted classes and each row's class index (rows
    without a class left out)."""
    df = candor.read_arff(os.path.join(DATA, name + ".arff"))
    target = df.columns[-1]  # the class is the last attribute, as the CLI reads it
    df = df[df[target].notna()]
    y_text = df[target].astype(str).to_numpy()
    classes = np.unique(y_text)
    return df.drop(columns=target), y_text, classes, np.searchsorted(classes, y_text)


def run_set(name, learners=tuple(LEARNERS), variants=tuple(VARIANTS)):
    X, y_text, classes, y = read_corpus_set(name)
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=1)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fold, (train, test) in enumerate(folds.split(X, y)):
            for learner in learners:
                for variant in variants:
                    est = estimator(learner, variant)
                    if est is None:
                        continue
                    try:
                        est.fit(X.iloc[train], y_text[train])
                    except ValueError as e:  # CalibratedClassifierCV: a class with fewer than 5 training rows
                        if "less than 5 examples" not in str(e):
                            raise
                        continue
                    p = np.zeros((len(test), len(classes)))
                    proba = est.predict_proba(X.iloc[test])
                    for j, c in enumerate(est.classes_):
                        p[:, np.searchsorted(classes, str(c))] = proba[:, j]
                    clipped = np.clip(p, 1e-15, 1 - 1e-15)
                    clipped /= clipped.sum(axis=1, keepdims=True)
                    rows.append({"dataset": name, "fold": fold, "learner": learner, "variant": variant,
                                 "classes": len(classes),
                                 "accuracy": float((p.argmax(axis=1) == y[test]).mean()),
                                 "log_loss": float(-np.log(clipped[np.arange(len(test)), y[test]]).mean()),
                                 "ece": float(top_label_ece(p, y[test]))})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "posthoc_calibration.csv"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--datasets", help="comma-separated (default: the corpus sets of 50 to 5,000 rows)")
    ap.add_argument("--learners", help="comma-separated subset of " + ",".join(LEARNERS))
    ap.add_argument("--variants", help="comma-separated subset of " + ",".join(VARIANTS))
    ap.add_argument("--merge", action="store_true",
                    help="keep the rows of --out for the (learner, variant) pairs not run now")
    args = ap.parse_args()
    sets = args.datasets.split(",") if args.datasets else corpus_sets()
    learners = tuple(args.learners.split(",")) if args.learners else tuple(LEARNERS)
    variants = tuple(args.variants.split(",")) if args.variants else tuple(VARIANTS)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    rows = []
    if args.merge and os.path.exists(args.out):
        with open(args.out, newline="") as f:
            rows = [dict(r, fold=int(r["fold"]), classes=int(r["classes"])) for r in csv.DictReader(f)
                    if not (r["learner"] in learners and r["variant"] in variants)]
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(run_set, sets, [learners] * len(sets), [variants] * len(sets)):
            rows.extend(result)
    write_csv(args.out, rows)
    # Compared on the sets where every variant of the learner ran on every fold (scikit-learn's 5-fold
    # calibration refuses a training fold with a class of fewer than 5 rows).
    cells = defaultdict(lambda: defaultdict(list))
    for r in rows:
        cells[(r["learner"], r["variant"])][r["dataset"]].append(r)
    for learner in LEARNERS:
        keys = [k for k in cells if k[0] == learner]
        complete = set.intersection(*({d for d, v in cells[k].items() if len(v) == 10} for k in keys))
        for k in keys:
            cells[k] = {d: v for d, v in cells[k].items() if d in complete}
    print("| learner | variant | sets | accuracy | log loss | binary | multiclass | ECE |")
    print("|---|---|---|---|---|---|---|---|")
    for (learner, variant), by_set in cells.items():
        mean = {k: {d: statistics.mean(float(r[k]) for r in v) for d, v in by_set.items()}
                for k in ("accuracy", "log_loss", "ece")}
        binary = [mean["log_loss"][d] for d, v in by_set.items() if v[0]["classes"] == 2]
        multi = [mean["log_loss"][d] for d, v in by_set.items() if v[0]["classes"] > 2]
        print(f"| {learner} | {variant} | {len(by_set)} | {statistics.mean(mean['accuracy'].values()):.4f} "
              f"| {statistics.mean(mean['log_loss'].values()):.3f} | {statistics.mean(binary):.3f} "
              f"| {statistics.mean(multi):.3f} | {statistics.mean(mean['ece'].values()):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
