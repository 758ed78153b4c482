#!/usr/bin/env python3
"""candor's learners side by side with the peers a user would pick instead, on the shared corpus.

    bench/peers.py [--datasets a,b,...] [--candor NAME=OPTIONS ...] [--peers xgboost,logistic,forest]
                   [--folds 10] [--seed 1] [--threads 1] [--out results.csv] [--table table.md]

The corpus selection: the sets of 50 to 5,000 rows but the weather toys, each monks train and test file
taken as a set of its own (44 sets). Each candor learner runs as `candor evaluate --format json` (stratified folds seeded by
--seed; EVC calibrated per fold, as the grid does, so that no fold sees its test rows). The peers run in the
same 10-fold protocol (scikit-learn's StratifiedKFold, shuffled with the same seed: the folds are drawn the
same way, not the same rows), each on --threads threads:
  xgboost   Debian's python3-xgboost, default parameters, nominal attributes one-hot;
  logistic  scikit-learn's LogisticRegression (L2, C=1) on standardised numeric and one-hot nominal
            attributes, missing numeric values imputed by the median with an indicator column;
  forest    scikit-learn's RandomForestClassifier with 500 trees, on the same encoding as xgboost.
Log loss clips probabilities at 1e-15 for every learner. Rows of results.csv: dataset, learner, accuracy,
log_loss, ece, ece_floor, rule_rmse (a rule's probability against its class's share of the test rows it
covers), rules, fit_seconds (mean over the folds), cv_seconds (the whole cross-validation: for candor the
`candor evaluate` process from start to exit, reading the data included; for a peer every fold's encoding,
fit and prediction); the table is the mean over data sets, with the median and largest rule count and the
median fit and cross-validation times.
"""
import argparse
import csv
import json
import os
import statistics
import sys
import time
import warnings

import numpy as np

from bench_files import run_checked, write_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "..", "shared", "datasets"))
CLI = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))


def corpus(datasets_dir):
    out = []
    with open(os.path.join(datasets_dir, "INDEX.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            name, rows = row["name"], int(row["rows"])
            if 50 <= rows <= 5000 and not name.startswith("weather."):
                out.append(name)
    return out


def run_candor(path, options, folds, seed, threads):
    cmd = [CLI, "evaluate", path, "--format", "json", "--folds", str(folds), "--seed", str(seed), "--threads",
           str(threads), "--evc-calibration", "per-fold", "--quiet"] + options.split()
    start = time.perf_counter()
    j = json.loads(run_checked(cmd, "bench/peers.py"))
    cv_seconds = time.perf_counter() - start
    return {"accuracy": j["accuracy"], "log_loss": j["log_loss"], "ece": j["ece"], "ece_floor": j["ece_floor"],
            "rule_rmse": "" if j["rule_rmse"] is None else j["rule_rmse"], "rules": j["rules"],
            "fit_seconds": j["fit_seconds"], "cv_seconds": cv_seconds}


def encode(train, test, scale):
    """Numeric columns as they are (scaled, median-imputed with indicators for logistic), nominal ones
    one-hot with missing as its own value."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    nominal = [c for c in train.columns if str(train[c].dtype) == "category"]
    numeric = [c for c in train.columns if c not in nominal]

    def text(frame):
        frame = frame.copy()
        for c in nominal:
            frame[c] = frame[c].astype(object).where(frame[c].notna(), "?missing")
        return frame

    numeric_step = (make_pipeline(SimpleImputer(strategy="median", add_indicator=True), StandardScaler())
                    if scale else "passthrough")
    encoder = ColumnTransformer([("numeric", numeric_step, numeric),
                                 ("nominal", OneHotEncoder(handle_unknown="ignore", sparse_output=False), nominal)])
    return encoder.fit_transform(text(train)).astype(float), encoder.transform(text(test)).astype(float)


def peer_model(name, threads):
    if name == "xgboost":
        import xgboost
        return xgboost.XGBClassifier(n_jobs=threads), False
    if name == "logistic":
        from sklearn.linear_model import LogisticRegression
        return LogisticRegression(max_iter=5000), True
    if name == "forest":
        from sklearn.ensemble import RandomForestClassifier
        return RandomForestClassifier(n_estimators=500, n_jobs=threads, random_state=0), False
    raise SystemExit(f"unknown peer {name}")


def run_peer(name, frame, folds, seed, threads):
    from sklearn.impute import SimpleImputer
    from sklearn.metrics import accuracy_score, log_loss
    from sklearn.model_selection import StratifiedKFold

    y_all = frame.iloc[:, -1]
    keep = y_all.notna().to_numpy()
    X, y = frame.iloc[keep, :-1].reset_index(drop=True), y_all[keep].cat.codes.to_numpy()
    classes = np.unique(y)
    y = np.searchsorted(classes, y)
    k = len(classes)
    accuracy, loss, seconds = [], [], []
    cv_start = time.perf_counter()
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y):
        A, B = encode(X.iloc[train], X.iloc[test], scale=name == "logistic")
        if name == "forest":  # scikit-learn 1.2's forests take no NaN
            imputer = SimpleImputer(strategy="median", keep_empty_features=True)
            A, B = imputer.fit_transform(A), imputer.transform(B)
        model, _ = peer_model(name, threads)
        seen, y_train = np.unique(y[train], return_inverse=True)
        start = time.perf_counter()
        model.fit(A, y_train)
        seconds.append(time.perf_counter() - start)
        proba = np.full((len(test), k), 0.0)
        proba[:, seen] = model.predict_proba(B)
        proba = np.clip(proba, 1e-15, 1)
        proba /= proba.sum(axis=1, keepdims=True)
        accuracy.append(accuracy_score(y[test], proba.argmax(axis=1)))
        loss.append(log_loss(y[test], proba, labels=range(k)))
    cv_seconds = time.perf_counter() - cv_start
    return {"accuracy": statistics.mean(accuracy), "log_loss": statistics.mean(loss), "ece": "", "ece_floor": "",
            "rule_rmse": "", "rules": "", "fit_seconds": statistics.mean(seconds), "cv_seconds": cv_seconds}


def table(rows, learners):
    lines = ["| learner | accuracy | log loss | ECE - floor | rule RMSE | rules (median, max) | fit seconds (median) "
             "| 10-fold seconds (median) |",
             "|---|---|---|---|---|---|---|---|"]
    datasets = sorted({r["dataset"] for r in rows})
    for learner in learners:
        mine = {r["dataset"]: r for r in rows if r["learner"] == learner}
        if len(mine) < len(datasets):
            continue
        col = lambda key: [float(mine[d][key]) for d in datasets if mine[d].get(key) not in ("", None)]
        ece = [float(mine[d]["ece"]) - float(mine[d]["ece_floor"]) for d in datasets if mine[d]["ece"] != ""]
        rules = col("rules")
        rmse = col("rule_rmse")
        lines.append(f"| {learner} | {statistics.mean(col('accuracy')):.4f} | {statistics.mean(col('log_loss')):.4f} | "
                     + (f"{statistics.mean(ece):.4f}" if ece else "-") + " | "
                     + (f"{statistics.mean(rmse):.4f}" if rmse else "-") + " | "
                     + (f"{statistics.median(rules):.1f}, {max(rules):.1f}" if rules else "-")
                     + f" | {statistics.median(col('fit_seconds')):.4f} | "
                     + (f"{statistics.median(cv):.3f}" if (cv := col("cv_seconds")) else "-") + " |")
    return "\n".join(lines) + f"\n\n{len(datasets)} data sets, 10-fold CV.\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", help="comma-separated names (default: the 44 corpus sets)")
    ap.add_argument("--candor", action="append", default=[], help="NAME=OPTIONS of candor evaluate (repeatable)")
    ap.add_argument("--peers", default="xgboost,logistic,forest")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="peers.csv")
    ap.add_argument("--table")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    # The Python package reads the data for the peers alone: a run of candor's learners needs only the CLI.
    if [p for p in args.peers.split(",") if p]:
        import candor

    names = args.datasets.split(",") if args.datasets else corpus(DATASETS)
    learners = [spec.split("=", 1) for spec in (args.candor or ["default="])]
    peers = [p for p in args.peers.split(",") if p]
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {(r["dataset"], r["learner"]) for r in csv.DictReader(f)}
    fields = ["dataset", "learner", "accuracy", "log_loss", "ece", "ece_floor", "rule_rmse", "rules", "fit_seconds",
              "cv_seconds"]
    with open(args.out, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        if not done:
            writer.writeheader()
        for name in names:
            path = os.path.join(DATASETS, name + ".arff")
            frame = None
            for learner, options in learners + [(p, None) for p in peers]:
                if (name, learner) in done:
                    continue
                if options is None:
                    frame = frame if frame is not None else candor.read_data(path)
                    result = run_peer(learner, frame, args.folds, args.seed, args.threads)
                else:
                    result = run_candor(path, options, args.folds, args.seed, args.threads)
                writer.writerow({"dataset": name, "learner": learner, **result})
                f.flush()
                print(f"{name:16s} {learner:12s} accuracy {result['accuracy']:.4f} log loss {result['log_loss']:.4f}",
                      flush=True)
    with open(args.out) as f:
        rows = list(csv.DictReader(f))
    text = table(rows, [l for l, _ in learners] + peers)
    print(text)
    if args.table:
        write_text(args.table, text)


if __name__ == "__main__":
    main()
