#!/usr/bin/env python3
"""Fits a fixed set of learner configurations on a few corpus data sets with one candor binary and writes
the model files into a folder, so that a speed change can be checked to leave every model byte-identical:

    python3 bench/same_models.py --candor OLD/candor --out /tmp/models-old
    python3 bench/same_models.py --candor build/candor --out /tmp/models-new
    diff -r /tmp/models-old /tmp/models-new && echo identical

The configurations cover the search's paths: batch-scored and per-candidate measures, nominal and numeric
attributes, weights, significance tests, pruning (layered search), decision lists and EVC; trees and the three
boosting methods.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

DATASETS = ["credit-a", "diabetes", "segment", "soybean", "vowel", "waveform-5000", "hypothyroid", "adult"]
CONFIGS = {
    "defaults": [],  # candor fit's default: rules-only rule-logistic
    "cn2-unordered": ["--learner", "cn2-unordered"],
    "laplace-beam10": ["--learner", "cn2-unordered", "--quality", "laplace", "--stop", "none", "--beam-width", "10"],
    "m-estimate": ["--learner", "cn2-unordered", "--quality", "m-estimate", "--m", "5"],
    "wracc": ["--learner", "cn2-unordered", "--quality", "wracc"],
    "precision-min5": ["--learner", "cn2-unordered", "--quality", "precision", "--min-covered", "5"],
    "lrs": ["--learner", "cn2-unordered", "--quality", "lrs", "--stop", "none", "--max-rules", "30"],
    "entropy-ordered": ["--learner", "cn2-ordered"],
    "alpha": ["--learner", "cn2-unordered", "--quality", "laplace", "--alpha", "0.05", "--parent-alpha", "0.1"],
    "evc": ["--learner", "cn2-unordered", "--quality", "evc", "--evc-permutations", "20"],
    "m-evc": ["--learner", "cn2-unordered", "--quality", "m-evc", "--evc-permutations", "20"],
    "probabilistic": ["--learner", "cn2-unordered", "--covering", "probabilistic"],
    "layered": ["--learner", "laplace-covering", "--max-beam-width", "16"],
    "decision-list": ["--learner", "decision-list", "--refine-quality", "modified-laplace"],
    "not-equal": ["--learner", "cn2-unordered", "--not-equal", "--quality", "laplace"],
    "tree": ["--learner", "tree"],
    "kbs-tree": ["--learner", "boost", "--boosting", "kbs", "--base", "tree", "--iterations", "5"],
    "adaboost-stump": ["--learner", "boost", "--boosting", "adaboost-m1", "--base", "stump"],
    "logitboost": ["--learner", "boost", "--boosting", "logitboost", "--iterations", "5"],
    "kbs-smoothing": ["--learner", "boost", "--base", "stump", "--iterations", "5", "--calibrate", "smoothing"],
    "adaboost-temperature": ["--learner", "boost", "--boosting", "adaboost-m1", "--base", "tree", "--iterations", "3",
                             "--calibrate", "temperature"],
    "pril": ["--learner", "pril"],
    "tree-laplace": ["--learner", "tree", "--leaf-estimate", "laplace"],
    "kbs-tree-uncalibrated": ["--learner", "boost", "--base", "tree", "--iterations", "5", "--calibrate", "none"],
    "rules-bootstrap": ["--learner", "cn2-unordered", "--correct", "bootstrap", "--bootstrap-resamples", "10"],
    "rule-logistic-attributes": ["--learner", "rule-logistic", "--features", "rules+attributes"],
    "stable-rules": ["--learner", "cn2-unordered", "--stable-resamples", "5"],
    "best-rule": ["--learner", "rule"],
}
# Skipped where a configuration takes minutes on a data set.
SLOW = {("adult", "layered"), ("adult", "lrs"), ("adult", "evc"), ("adult", "m-evc"), ("adult", "kbs-tree"),
        ("adult", "kbs-smoothing"), ("adult", "adaboost-temperature"), ("adult", "tree-bootstrap"),
        ("adult", "rules-bootstrap"), ("adult", "rule-logistic-attributes"), ("adult", "stable-rules")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candor", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--datasets", default=os.path.join(os.path.dirname(__file__), "..", "data", "corpus"))
    ap.add_argument("--threads", type=int, default=1, help="threads per fit (the models must not depend on it)")
    ap.add_argument("--jobs", type=int, default=2, help="fits run at once")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    jobs = []
    for d in DATASETS:
        for name, extra in CONFIGS.items():
            if (d, name) in SLOW:
                continue
            out = os.path.join(args.out, f"{d}.{name}.json")
            cmd = [args.candor, "fit", os.path.join(args.datasets, d + ".arff"), "-o", out, "--threads",
                   str(args.threads)] + extra
            jobs.append(cmd)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for cmd, res in zip(jobs, ex.map(lambda c: subprocess.run(c, capture_output=True, text=True), jobs)):
            if res.returncode != 0:
                failed += 1
                print("failed:", " ".join(cmd), res.stderr.strip(), file=sys.stderr)
    print(f"{len(jobs) - failed} models written to {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
