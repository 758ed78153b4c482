#!/usr/bin/env python3
"""candor and Weka's JRip on the same rows of a large test set, compared row by row: on 20,000 test rows one
standard error of an accuracy near 0.95 is 0.15 points, more than the differences between rule learners on
Agrawal's data, so bench/generated.py cannot order them. Here each learner is trained on --train rows of
bench/generated.py's Agrawal data (function 2, or --agrawal-function F; 5% of the labels flipped) and predicts --test other rows of the
same concept; the difference in accuracy is stated with its 95% interval, and McNemar's exact test (SciPy's
binomial test on the rows exactly one of the two gets right) says whether it is measurable.

    /usr/bin/python3 bench/paired_generated.py [--train 100000] [--test 1000000] [--candor "NAME=OPTIONS" ...]
                                               [--no-jrip] [--work DIR] [--agrawal-function F]

With --no-jrip the candor learners are compared with the first of them (JRip takes about 6 minutes on a million
training rows).
One thread each; the fit seconds are each tool's own (candor: `candor fit`'s wall clock less reading, as
`candor evaluate` reports it; JRip: Weka's "Time taken to build model")."""
import argparse
import csv
import json
import math
import os
import sys

from scipy.stats import binomtest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated  # noqa: E402
from generated import ROOT, WEKA_JAR, make, run  # noqa: E402


def candor_predictions(train, test, options, work, name):
    exe = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
    model = os.path.join(work, f"paired_{name}.json")
    out, _ = run([exe, "evaluate", train, "--test", test, "--threads", "1", "--format", "json"] + options)
    j = json.loads(out)
    run([exe, "fit", train, "-o", model, "--threads", "1", "--quiet"] + options)
    out, _ = run([exe, "predict", model, test])
    predicted = [row["predicted"] for row in csv.DictReader(out.splitlines())]
    return predicted, {"seconds": j["fit_seconds"], "rules": j["rules"]}


def jrip_predictions(train, test):
    """JRip's predictions (Weka's -p 0, which prints nothing else) and, from a second run, its rules and time."""
    out, _ = run(["java", "-Xmx8g", "-cp", WEKA_JAR, "weka.classifiers.rules.JRip", "-t", train, "-T", test, "-no-cv",
                  "-p", "0"])
    predicted = []
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= 3 and cells[0].isdigit() and ":" in cells[2]:
            predicted.append(cells[2].split(":", 1)[1])
    info = generated.weka(train, test, "weka.classifiers.rules.JRip")
    return predicted, {"seconds": info["seconds"], "rules": info["rules"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", type=int, default=100000)
    ap.add_argument("--test", type=int, default=1000000)
    ap.add_argument("--candor", action="append", default=[], help="NAME=OPTIONS (default: the defaults)")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "generated"))
    ap.add_argument("--no-jrip", action="store_true")
    ap.add_argument("--agrawal-function", type=int, default=2, choices=range(1, 11), metavar="F",
                    help="which of Agrawal's ten concepts (default 2)")
    args = ap.parse_args()
    generated.AGRAWAL_FUNCTION = args.agrawal_function
    os.makedirs(args.work, exist_ok=True)
    generated.TEST_ROWS = args.test
    train, test = make("agrawal", args.train, os.path.join(args.work))
    # make() names its files by the training size alone: a test size of its own needs its own folder.
    if sum(1 for _ in open(test)) < args.test:
        sys.exit(f"{test} holds fewer than {args.test} rows: give --work a folder of its own for this test size")
    with open(test) as f:
        lines = f.read().splitlines()
    at = next(i for i, l in enumerate(lines) if l.strip().lower() == "@data")
    actual = [l.split(",")[-1] for l in lines[at + 1:] if l.strip() and not l.startswith("%")]
    learners = [tuple(c.split("=", 1)) for c in args.candor] or [("default", "")]
    results = {} if args.no_jrip else {"JRip": jrip_predictions(train, test)}
    for name, options in learners:
        results[name] = candor_predictions(train, test, options.split(), args.work, name)
    n = len(actual)
    right = {k: [p == a for p, a in zip(v[0], actual)] for k, v in results.items()}
    for k, v in results.items():
        if len(v[0]) != n:
            sys.exit(f"{k}: {len(v[0])} predictions for {n} test rows")
    print(f"Agrawal function {args.agrawal_function}, {args.train} training rows, {n} test rows, one thread\n")
    first = next(iter(results))
    print(f"| learner | rules | fit s | {first}'s time over it | accuracy | minus {first}'s (95% interval) | "
          "McNemar p |")
    print("|---|---|---|---|---|---|---|")
    base = right[first]
    for k, (_, info) in results.items():
        acc = sum(right[k]) / n
        if k == first:
            print(f"| {k} | {info['rules']:.0f} | {info['seconds']:.2f} | 1 | {acc:.4f} | | |")
            continue
        d = [int(a) - int(b) for a, b in zip(right[k], base)]
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        wins, losses = sum(1 for x in d if x > 0), sum(1 for x in d if x < 0)
        p = binomtest(wins, wins + losses, 0.5).pvalue if wins + losses else 1.0
        print(f"| {k} | {info['rules']:.0f} | {info['seconds']:.2f} | "
              f"{results[first][1]['seconds'] / info['seconds']:.1f} | {acc:.4f} | "
              f"{100 * mean:+.2f} points ({100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}) | {p:.3g} |")


if __name__ == "__main__":
    main()
