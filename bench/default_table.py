#!/usr/bin/python3
"""The deciding table of a defaults grid: per learner, the means over data sets of the fold means.

    bench/default_table.py RESULTS.CSV [--datasets-dir data/corpus] [--baseline default]

Columns: accuracy, log loss (all, binary sets, multiclass sets), ECE (mean and largest per-set mean), rule
RMSE (rule probability against its share on the test fold), rules (mean, median), fit seconds per fold
(median over sets) and the fit time against the baseline learner's (median over sets of the per-set ratio,
and the largest). Binary and multiclass are read from the corpus's INDEX.tsv.
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict


def classes_of(datasets_dir):
    out = {}
    with open(os.path.join(datasets_dir, "INDEX.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out[row["name"]] = int(row["classes"])
    return out


def mean_or_nan(values):
    return statistics.mean(values) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--datasets-dir", default="data/corpus")
    ap.add_argument("--baseline", default="default")
    args = ap.parse_args()
    classes = classes_of(args.datasets_dir)
    cells = defaultdict(lambda: defaultdict(list))  # learner -> dataset -> rows
    with open(args.results) as f:
        for row in csv.DictReader(f):
            cells[row["learner"]][row["dataset"]].append(row)

    def mean_of(rows, key):
        values = [float(r[key]) for r in rows if r[key] not in ("", "nan")]
        return statistics.mean(values) if values else float("nan")

    base = {d: mean_of(rows, "fit_seconds") for d, rows in cells[args.baseline].items()}
    print("| learner | sets | accuracy | log loss | binary | multiclass | ECE mean / max | rule RMSE | rules mean / median "
          "| fit s (median) | fit time against the baseline: median / max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for learner, by_set in cells.items():
        sets = sorted(by_set)
        per = {k: {d: mean_of(by_set[d], k) for d in sets} for k in
               ("accuracy", "log_loss", "ece", "rule_rmse", "rules", "fit_seconds")}
        binary = [per["log_loss"][d] for d in sets if classes.get(d) == 2]
        multi = [per["log_loss"][d] for d in sets if classes.get(d, 0) > 2]
        rmse = [v for v in per["rule_rmse"].values() if v == v]
        ratios = [per["fit_seconds"][d] / base[d] for d in sets if base.get(d, 0) > 0]
        print(f"| {learner} | {len(sets)} | {statistics.mean(per['accuracy'].values()):.4f} "
              f"| {statistics.mean(per['log_loss'].values()):.3f} | {mean_or_nan(binary):.3f} "
              f"| {mean_or_nan(multi):.3f} | {statistics.mean(per['ece'].values()):.3f} / "
              f"{max(per['ece'].values()):.3f} | {statistics.mean(rmse) if rmse else float('nan'):.3f} "
              f"| {statistics.mean(per['rules'].values()):.1f} / {statistics.median(per['rules'].values()):.1f} "
              f"| {statistics.median(per['fit_seconds'].values()):.3f} "
              f"| {statistics.median(ratios):.1f}x / {max(ratios):.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
