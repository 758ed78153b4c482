#!/usr/bin/python3
"""One EVC calibration per cross-validation (`candor evaluate --evc-calibration shared`, the default) against
one per fold (`per-fold`), and both against cn2-unordered (the rule set without EVC), on the sets of
examples/defaults/honest_default.json (docs/evc_calibration.md, "One calibration per cross-validation").

    bench/shared_calibration.py [--candor build/candor] [--learner ARGS] [--datasets a,b,...] [--out FILE.csv]

Per set and configuration: `candor evaluate DATA --format json` (10-fold CV, seed 1, all cores), its wall
time, then the same with `--plot DIR` for its mean fit seconds per fold (a shared calibration's time spread
over the folds). The folds' rule probabilities (rules.csv of --plot) of the two calibrations are compared rule
by rule, a rule being the same in both where its position in the fold's model, the test rows it decides and
its test share agree (the prior test reads the corrected probability, so a fold's rule set can differ between
the two).
"""
import argparse
import csv
import json
import math
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench_files import write_csv


def evaluate(candor, data, options, plot_dir):
    """The evaluation's JSON and its wall time, timed on a run without --plot (which draws with matplotlib)."""
    args = [candor, "evaluate", str(data), "--format", "json", *options]
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    out = subprocess.run(args + ["--plot", str(plot_dir)], check=True, capture_output=True, text=True).stdout
    return json.loads(out), wall


def fold_probabilities(plot_dir):
    """Per fold, each rule's probability under (its position, test rows decided, test share): a rule whose
    three agree between the two runs is taken to be the same rule."""
    by_fold = {}
    with open(Path(plot_dir) / "rules.csv") as f:
        for row in csv.DictReader(f):
            key = (row["rule"], row["decided"], row["test_share"])
            by_fold.setdefault((row["repeat"], row["fold"]), {})[key] = float(row["probability"])
    return by_fold


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--corpus", default="data/corpus")
    ap.add_argument("--learner", default="", help="learner options, e.g. '--learner rule-logistic'")
    ap.add_argument("--datasets", default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    names = (a.datasets.split(",") if a.datasets else
             json.load(open("examples/defaults/honest_default.json"))["datasets"])
    learner = a.learner.split()
    rows, moves = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            data = Path(a.corpus) / f"{name}.arff"
            results = {}
            for label, options in [("per-fold", learner + ["--evc-calibration", "per-fold"]),
                                   ("shared", learner + ["--evc-calibration", "shared"]),
                                   ("cn2-unordered", ["--learner", "cn2-unordered"])]:
                plot = Path(tmp) / name / label
                j, wall = evaluate(a.candor, data, options, plot)
                results[label] = (j, wall, plot)
                rows.append({"dataset": name, "config": label, "accuracy": j["accuracy"], "log_loss": j["log_loss"],
                             "ece": j["ece"], "rule_rmse": j["rule_rmse"], "rules": j["rules"],
                             "fit_seconds": j["fit_seconds"], "wall_seconds": wall})
            per_fold = fold_probabilities(results["per-fold"][2])
            shared = fold_probabilities(results["shared"][2])
            set_moves = []
            for fold, rules in per_fold.items():
                other = shared.get(fold, {})
                set_moves += [other[r] - p for r, p in rules.items() if r in other]
            moves += set_moves
            rmse = math.sqrt(statistics.mean(m * m for m in set_moves)) if set_moves else float("nan")
            print(name, *(f"{label}: acc {results[label][0]['accuracy']:.4f} ll {results[label][0]['log_loss']:.4f} "
                          f"fit {results[label][0]['fit_seconds'] * 1000:.1f} ms wall {results[label][1]:.2f} s"
                          for label in results), f"move RMSE {rmse:.4f} over {len(set_moves)} rules", flush=True)
    if a.out:
        write_csv(a.out, rows)
    keys = ["accuracy", "log_loss", "ece", "rule_rmse", "rules"]
    print(f"\n| configuration | {' | '.join(keys)} | fit s per fold, median | evaluate wall s, median | "
          f"fit against cn2-unordered, median / largest | wall against cn2-unordered, median / largest |")
    print("|---|" + "---|" * (len(keys) + 4))
    by = {(r["dataset"], r["config"]): r for r in rows}
    for label in ["per-fold", "shared", "cn2-unordered"]:
        mine = [r for r in rows if r["config"] == label]
        fit_ratio = [r["fit_seconds"] / by[(r["dataset"], "cn2-unordered")]["fit_seconds"] for r in mine]
        wall_ratio = [r["wall_seconds"] / by[(r["dataset"], "cn2-unordered")]["wall_seconds"] for r in mine]
        print(f"| {label} | " + " | ".join(f"{statistics.mean(r[k] for r in mine):.4f}" for k in keys) +
              f" | {statistics.median(r['fit_seconds'] for r in mine):.4f}"
              f" | {statistics.median(r['wall_seconds'] for r in mine):.3f}"
              f" | {statistics.median(fit_ratio):.2f}x / {max(fit_ratio):.2f}x"
              f" | {statistics.median(wall_ratio):.2f}x / {max(wall_ratio):.2f}x |")
    if moves:
        rmse = math.sqrt(statistics.mean(m * m for m in moves))
        print(f"\nrule probabilities, shared against per-fold: {len(moves)} rules, mean abs change "
              f"{statistics.mean(abs(m) for m in moves):.4f}, largest {max(abs(m) for m in moves):.4f}, "
              f"RMSE {rmse:.4f}, share > 0.02 {sum(abs(m) > 0.02 for m in moves) / len(moves):.3f}")


if __name__ == "__main__":
    main()
