#!/usr/bin/python3
"""How often a rule's stated 95% interval holds the share of its class among the held-out rows it decides.

    bench/interval_coverage.py [--candor build/candor] [--datasets-dir data/corpus]
                               [--binary-only] [--min-rows 50 --max-rows 5000] [--options '...'] [--out DIR]

For every corpus set in the size range (INDEX.tsv; the split files *.train/*.test left out), runs
`candor evaluate DATA --folds 10 --seed 1 --plot DIR OPTIONS`, whose rules.csv lists per fold each rule that
decides a test row: its probability, its interval, the share of its class among the test rows it decides,
and how many it decides. Prints, per data set and over all, the share of those (rule, fold) points whose
interval holds the test share, among all points and among those deciding at least 20 test rows (a share of
a handful of rows is itself so noisy that no interval of the rule's probability should be expected to hold
it 95% of the time), the share *consistent* with the interval (the test rows' count of the rule's class is not
rejected by a two-sided binomial test at 5% against the nearest point of the interval: the test sample's own
noise taken into account; a valid 95% interval makes this at least about 90%), the mean width, and the share
whose probability lies inside (always 1 by construction).
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile


def corpus(datasets_dir, min_rows, max_rows, binary_only):
    with open(os.path.join(datasets_dir, "INDEX.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            name = row["name"]
            if ".train" in name or ".test" in name:
                continue
            if not (min_rows <= int(row["rows"]) <= max_rows):
                continue
            if binary_only and int(row["classes"]) != 2:
                continue
            yield name


def points(candor, path, options, folder):
    subprocess.run([candor, "evaluate", path, "--folds", "10", "--seed", "1", "--plot", folder] + options,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(folder, "rules.csv"), newline="") as f:
        return [{k: float(v) for k, v in row.items() if v not in ("", "n/a")} for row in csv.DictReader(f)]


def consistent(p):
    from scipy.stats import binomtest

    k = max(1, round(p["decided"]))
    right = min(k, round(p["test_share"] * k))
    nearest = min(max(p["test_share"], p["interval_low"]), p["interval_high"])
    return bool(binomtest(right, k, min(max(nearest, 1e-12), 1 - 1e-12)).pvalue >= 0.05)


def summary(pts):
    held = [p["interval_low"] - 1e-12 <= p["test_share"] <= p["interval_high"] + 1e-12 for p in pts]
    big = [h for h, p in zip(held, pts) if p["decided"] >= 20]
    return {
        "points": len(pts),
        "coverage": statistics.mean(held) if held else float("nan"),
        "points_20": len(big),
        "coverage_20": statistics.mean(big) if big else float("nan"),
        "consistent": statistics.mean(consistent(p) for p in pts) if pts else float("nan"),
        "width": statistics.mean(p["interval_high"] - p["interval_low"] for p in pts) if pts else float("nan"),
        "holds_probability": statistics.mean(p["interval_low"] <= p["probability"] <= p["interval_high"] for p in pts)
        if pts else float("nan"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--datasets-dir", default="data/corpus")
    ap.add_argument("--min-rows", type=int, default=50)
    ap.add_argument("--max-rows", type=int, default=5000)
    ap.add_argument("--binary-only", action="store_true")
    ap.add_argument("--options", default="", help="candor options, e.g. '--correct evc'")
    args = ap.parse_args()
    options = args.options.split()
    everything = []
    print(f"| data set | points | held | points (>= 20 rows) | held | consistent | mean width |  # options: {args.options or 'defaults'}")
    print("|---|---|---|---|---|---|---|")
    for name in corpus(args.datasets_dir, args.min_rows, args.max_rows, args.binary_only):
        with tempfile.TemporaryDirectory() as folder:
            pts = points(args.candor, os.path.join(args.datasets_dir, name + ".arff"), options, folder)
        everything += pts
        s = summary(pts)
        print(f"| {name} | {s['points']} | {s['coverage']:.3f} | {s['points_20']} | {s['coverage_20']:.3f} | {s['consistent']:.3f} | {s['width']:.3f} |",
              flush=True)
    s = summary(everything)
    print(f"| **all** | {s['points']} | {s['coverage']:.3f} | {s['points_20']} | {s['coverage_20']:.3f} | {s['consistent']:.3f} | {s['width']:.3f} |")
    print(f"probability inside its interval: {s['holds_probability']:.3f} of points")
    return 0 if s["holds_probability"] == 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
