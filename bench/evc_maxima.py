#!/usr/bin/python3
"""Which cheaper EVC calibrations the permuted searches' maxima allow.

    /usr/bin/python3 bench/evc_maxima.py [--evc-maxima build/evc_maxima] [--datasets-dir data/corpus]
                                         [--config examples/defaults/honest_default.json]
                                         [--permutations 200] [--out DIR]

A calibration's cost is one beam search per class and permutation; its laws (fixed-beta Gumbel, the default)
rest on the mean, per class and rule length L, of the largest LRS each search finds. A cheaper calibration
must estimate those means as well from fewer or cheaper searches. For each set of the config's 'datasets'
(default: the 44 corpus sets of the issue's targets) build/evc_maxima writes the maxima of --permutations
unpooled permutations of the default learner's search (seed 1; kept in --out and reused), and this script
reports, averaged over the sets:

1. the correlation of one search's maxima across lengths: a fit smoothed across lengths gains only where
   lengths carry independent noise;
2. on two-class sets, the correlation of the two classes' maxima on one permutation: at equal cost, searching
   one class per permutation (the other on the next) instead of both divides the variance of the classes'
   common mean by 1 + rho, the most any way of sharing permutations between two classes can gain;
3. the variance a control variate on the length-1 maximum (a search of one level, about a sixth of a full
   search's cost: measure it with --max-rule-length 1) removes at best, rho(L1, L)^2;
4. the spread of the maxima against the fixed-beta law's (beta = 2: sd = 2.565), per length.
"""
import argparse
import csv
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from bench_files import config_datasets, run_checked, write_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXED_BETA_SD = math.pi * 2 / math.sqrt(6)


def fail(message):
    print("evc_maxima.py: " + message, file=sys.stderr)
    sys.exit(2)


def maxima(binary, path, permutations, out):
    """{class: array [permutation, length]} of one data set, computed once into out/NAME.csv."""
    cached = os.path.join(out, os.path.basename(path).rsplit(".", 1)[0] + f".{permutations}.csv")
    if not os.path.exists(cached):
        text = run_checked([binary, path, "--permutations", str(permutations), "--threads", "1"], "evc_maxima.py")
        write_text(cached, text)
    by_class = {}
    with open(cached) as f:
        for row in csv.DictReader(f):
            by_class.setdefault(row["class"], []).append([float(row[k]) for k in row if k.startswith("L")])
    return {c: np.array(v) for c, v in by_class.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evc-maxima", default=os.path.join(ROOT, "build", "evc_maxima"))
    ap.add_argument("--datasets-dir", default=os.path.join(ROOT, "data", "corpus"))
    ap.add_argument("--config", default=os.path.join(ROOT, "examples", "defaults", "honest_default.json"))
    ap.add_argument("--permutations", type=int, default=200)
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "evc_maxima"))
    args = ap.parse_args()
    if args.permutations < 10:
        fail("--permutations: at least 10, to estimate correlations")
    sets = config_datasets(args.config, "evc_maxima.py")
    os.makedirs(args.out, exist_ok=True)
    paths = [os.path.join(args.datasets_dir, name + ".arff") for name in sets]
    with ThreadPoolExecutor(2) as pool:
        found = list(pool.map(lambda p: maxima(args.evc_maxima, p, args.permutations, args.out), paths))

    across_lengths, between_classes, spread = [], [], []
    for by_class in found:
        classes = [m for m in by_class.values() if np.all(m.std(axis=0) > 0)]
        for m in classes:
            across_lengths.append(np.corrcoef(m.T))
            spread.append(m.std(axis=0, ddof=1) / FIXED_BETA_SD)
        if len(by_class) == 2 and len(classes) == 2:
            a, b = classes
            between_classes.append([np.corrcoef(a[:, l], b[:, l])[0, 1] for l in range(a.shape[1])])
    if not across_lengths:
        fail("no class of these sets has maxima that vary")
    lengths = across_lengths[0].shape[0]
    r = np.mean(across_lengths, axis=0)
    head = "| | " + " | ".join(f"L{l + 1}" for l in range(lengths)) + " |"
    rule = "|---" * (lengths + 1) + "|"
    print(f"{len(sets)} sets, {len(across_lengths)} classes, {args.permutations} permutations each (seed 1)\n")
    print("1. Correlation of one search's maxima across lengths (mean over classes)\n")
    print(head + "\n" + rule)
    for i in range(lengths):
        print(f"| L{i + 1} | " + " | ".join(f"{r[i, j]:.2f}" for j in range(lengths)) + " |")
    print()
    print(head + "\n" + rule)
    if between_classes:
        rho = np.mean(between_classes, axis=0)
        print(f"| 2. two classes on one permutation: rho ({len(between_classes)} two-class sets) | " +
              " | ".join(f"{x:.2f}" for x in rho) + " |")
        print("| one class per permutation instead: variance of the common mean at equal cost | " +
              " | ".join(f"{1 / (1 + x):.2f}" for x in rho) + " |")
    # At L1 the cheap searches are themselves full ones: more of them estimate its mean directly.
    print("| 3. control variate on the L1 maximum: variance left at best, 1 - rho(L1, L)^2 | - | " +
          " | ".join(f"{1 - r[0, l] ** 2:.2f}" for l in range(1, lengths)) + " |")
    s = np.array(spread)
    print("| 4. sd of the maxima / the fixed-beta law's sd, median over classes | " +
          " | ".join(f"{x:.2f}" for x in np.median(s, axis=0)) + " |")
    print("| 4. the same, 10th and 90th percentiles | " +
          " | ".join(f"{lo:.2f}-{hi:.2f}" for lo, hi in zip(np.percentile(s, 10, axis=0), np.percentile(s, 90, axis=0))) +
          " |")


if __name__ == "__main__":
    main()
