#!/usr/bin/python3
"""The reference the rule learners' probabilities are held to: scikit-learn's LogisticRegression.

10-fold stratified cross-validation (StratifiedKFold, shuffle, random_state 1) of a pipeline that imputes
missing values (numeric: mean; nominal: most frequent), one-hot encodes nominal attributes, standardises
and fits an L2 LogisticRegression whose C is chosen by an inner 5-fold grid search on log loss
(C in 10^-3 .. 10^3). Prints one CSV row per data set (dataset, classes, accuracy, log_loss, brier, auc) and
the means over the 20 binary and the 44 smaller sets of the shared corpus. AUC as candor measures it: binary
AUC, or for more classes the one-vs-rest AUC of each class weighted by its frequency (roc_auc_score with
average="weighted", multi_class="ovr", over the classes present in the test fold).

Usage: /usr/bin/python3 bench/logistic_reference.py [--datasets a,b,...] [--out FILE.csv]
Needs Debian's python3-sklearn (scikit-learn 1.2) and python3-scipy.
"""
import argparse
import contextlib
import csv
import io
import os
import sys
import warnings

import numpy as np
from scipy.io import arff
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, accuracy_score, roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from bench_files import replaced

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "..", "shared", "datasets"))
BINARY20 = ["adult", "breast-cancer", "colic", "credit-a", "credit-g", "diabetes", "haberman", "heart-c", "heart-h",
            "heart-statlog", "hepatitis", "ionosphere", "kr-vs-kp", "labor", "mushroom", "promoters", "sick",
            "spambase", "tic-tac-toe", "vote"]


def smaller44():
    with open(os.path.join(DATASETS, "INDEX.tsv")) as f:
        return [r["name"] for r in csv.DictReader(f, delimiter="\t") if 50 <= int(r["rows"]) <= 5000]


def declared_values_stripped(path, cells=False):
    """The ARFF text with spaces around declared nominal values removed (soybean declares ' same-lst-sev-yrs'
    but writes 'same-lst-sev-yrs'; scipy's reader compares them literally)."""
    out = []
    in_data = False
    with open(path) as f:
        for line in f:
            if in_data and cells and line.strip() and not line.lstrip().startswith("%"):
                line = ",".join(c.strip() for c in line.rstrip("\n").split(",")) + "\n"
            if line.lstrip().lower().startswith("@data"):
                in_data = True
            if line.lstrip().lower().startswith("@attribute") and "{" in line and "}" in line:
                head, rest = line.split("{", 1)
                values, tail = rest.rsplit("}", 1)
                line = head + "{" + ",".join(v.strip() for v in values.split(",")) + "}" + tail
            out.append(line)
    return io.StringIO("".join(out))


def load(name):
    path = os.path.join(DATASETS, name + ".arff")
    try:
        data, meta = arff.loadarff(declared_values_stripped(path))
    except ValueError:
        # pendigits writes ' 8' for the declared '8': strip the spaces around its data cells too.
        data, meta = arff.loadarff(declared_values_stripped(path, cells=True))
    names = meta.names()
    cls = names[-1]
    y_raw = np.array([v.decode() if isinstance(v, bytes) else v for v in data[cls]])
    keep = y_raw != "?"
    numeric, nominal, cols = [], [], []
    for a in names[:-1]:
        kind = meta[a][0]
        if kind == "numeric":
            numeric.append(len(cols))
            cols.append(np.array(data[a], dtype=float))
        else:
            nominal.append(len(cols))
            vals = np.array([v.decode() if isinstance(v, bytes) else v for v in data[a]], dtype=object)
            cols.append(np.where(vals == "?", np.nan, vals))
    X = np.empty((len(y_raw), len(cols)), dtype=object)
    for j, c in enumerate(cols):
        X[:, j] = c
    return X[keep], y_raw[keep], numeric, nominal


def evaluate(name):
    X, y, numeric, nominal = load(name)
    classes = sorted(set(y))
    transformers = []
    if numeric:
        transformers.append(("num", Pipeline([("impute", SimpleImputer(strategy="mean")),
                                              ("scale", StandardScaler())]), numeric))
    if nominal:
        transformers.append(("nom", Pipeline([("impute", SimpleImputer(strategy="most_frequent")),
                                              ("onehot", OneHotEncoder(handle_unknown="ignore"))]), nominal))
    model = Pipeline([("prep", ColumnTransformer(transformers)),
                      ("lr", LogisticRegression(max_iter=2000))])
    outer = StratifiedKFold(n_splits=10, shuffle=True, random_state=1)
    losses, accs, briers, aucs = [], [], [], []
    for train, test in outer.split(X, y):
        inner_folds = min(5, min(np.unique(y[train], return_counts=True)[1]))
        if inner_folds >= 2:
            search = GridSearchCV(model, {"lr__C": [10.0 ** k for k in range(-3, 4)]}, scoring="neg_log_loss",
                                  cv=StratifiedKFold(n_splits=inner_folds, shuffle=True, random_state=1))
            fitted = search.fit(X[train], y[train]).best_estimator_
        else:
            fitted = model.fit(X[train], y[train])
        proba = np.zeros((len(test), len(classes)))
        p = fitted.predict_proba(X[test])
        for j, c in enumerate(fitted.classes_):
            proba[:, classes.index(c)] = p[:, j]
        truth = np.array([classes.index(v) for v in y[test]])
        losses.append(log_loss(truth, np.clip(proba, 1e-15, 1), labels=list(range(len(classes)))))
        accs.append(accuracy_score(truth, proba.argmax(axis=1)))
        onehot = np.eye(len(classes))[truth]
        b = ((proba - onehot) ** 2).sum(axis=1).mean()
        briers.append(b / 2 if len(classes) == 2 else b)
        present = sorted(set(truth))
        if len(present) >= 2:
            if len(classes) == 2:
                aucs.append(roc_auc_score(truth, proba[:, 1]))
            else:
                # frequency-weighted one-vs-rest over the classes present in the fold
                total = 0.0
                for c in present:
                    total += np.mean(truth == c) * roc_auc_score(truth == c, proba[:, c])
                aucs.append(total)
    auc = float(np.mean(aucs)) if aucs else float("nan")
    return len(classes), float(np.mean(accs)), float(np.mean(losses)), float(np.mean(briers)), auc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default="")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    names = args.datasets.split(",") if args.datasets else sorted(set(smaller44()) | set(BINARY20))
    warnings.filterwarnings("ignore")
    rows = []
    # A file is written whole when every set is done; standard output shows each set as it comes.
    with replaced(args.out, newline="") if args.out else contextlib.nullcontext(sys.stdout) as out:
        w = csv.writer(out)
        w.writerow(["dataset", "classes", "accuracy", "log_loss", "brier", "auc"])
        for n in names:
            k, acc, loss, brier, auc = evaluate(n)
            rows.append((n, k, acc, loss, brier, auc))
            w.writerow([n, k, "%.4f" % acc, "%.4f" % loss, "%.4f" % brier, "%.4f" % auc])
            out.flush()
    by = {r[0]: r for r in rows}
    for label, group in (("binary20", BINARY20), ("smaller44", smaller44())):
        got = [by[n] for n in group if n in by]
        if got:
            print("# %s: %d sets, mean log loss %.3f, mean accuracy %.3f" %
                  (label, len(got), np.mean([r[3] for r in got]), np.mean([r[2] for r in got])), file=sys.stderr)


if __name__ == "__main__":
    main()
