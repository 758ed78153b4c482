#!/usr/bin/python3
"""How far EVC-corrected rule probabilities move when the Gumbel laws come from fewer class permutations.

    bench/evc_permutations.py [--candor build/candor] [--datasets-dir data/corpus]
                              [--permutations 10,20,30,50] [--pooled 10,20] [--independent]
                              [--options "--learner cn2-unordered --correct evc"] [--multiclass]

For every corpus set of 50 to 5,000 rows (INDEX.tsv; the split files left out) the learner is fitted once
with the papers' 100 permutations and once with each smaller count, unpooled (--permutations) and pooled
across classes (--pooled, --evc-pool classes): with the same seed (the first K permutations of the 100), or
with --independent with seed 2. Every rule of the 100-permutation model is then corrected again here, independently of candor's
C++ (SciPy's chi2 and brentq, paper 000 section 4.1), first with its own laws, which must give back the
probability the model states (a check of both implementations), then with the laws of each smaller
calibration, and with the laws of another 100-permutation calibration (seed 2): the Monte Carlo noise of the
reference itself, the floor no smaller calibration can be judged below. The table gives, per count, the mean
and largest absolute change of the rules' probabilities, their RMSE, and the fit time against the
100-permutation fit's. --multiclass keeps the sets of three or more classes, where pooled calibrations share
their permutations among the classes.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

from scipy.optimize import brentq
from scipy.special import ndtri_exp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interval_coverage import corpus  # noqa: E402


def lrs(s, n, p, total):
    """Paper 000 eq. (14): the G statistic of covered/uncovered x class/other; 0 at or below the prior."""
    if s <= n * p / total:
        return 0.0
    cells = [(s, n * p / total), (n - s, n * (total - p) / total), (p - s, (total - n) * p / total),
             (total - n - (p - s), (total - n) * (total - p) / total)]
    return 2 * sum(o * math.log(o / e) for o, e in cells if o > 0)


def corrected(s, n, p, total, mu, beta):
    e_s = n * p / total
    statistic = lrs(s, n, p, total)
    if s <= e_s:
        return s / n
    # In log space, as the paper's note asks: a pure rule of 297 rows has (LRS - mu) / beta near 770, and P_a
    # = 1 - exp(-exp(-z)) underflows. chi2(1) is a squared standard normal, whose quantile ndtri_exp takes
    # from the log of its tail.
    z = (statistic - mu) / beta
    log_p_a = math.log(-math.expm1(-math.exp(-z))) if z < 700 else -z
    log_p_a_s = log_p_a + math.log(2)
    if log_p_a_s >= 0:
        return e_s / n
    target = ndtri_exp(log_p_a_s - math.log(2)) ** 2
    if target >= statistic:
        return s / n
    return brentq(lambda x: lrs(x, n, p, total) - target, e_s, s, xtol=1e-13) / n


def classes_of(datasets_dir):
    with open(os.path.join(datasets_dir, "INDEX.tsv"), newline="") as f:
        return {row["name"]: int(row["classes"]) for row in csv.DictReader(f, delimiter="\t")}


def laws(model):
    return {cls: [(row["mu"], row["beta"]) for row in rows] for cls, rows in model["evc"]["laws"].items()}


def rule_probabilities(model, law_table):
    classes = model["class"]["values"]
    totals = model["training"]["class_counts"]
    total = sum(totals)
    out = []
    for rule in model["rules"]:
        k = classes.index(rule["class"])
        counts = rule["training_counts"] if model["model"] == "rule-set" else rule["class_counts"]
        n = sum(counts)
        # A decision list's rule is estimated on the examples that reach it: its own counts and those of every
        # later rule and the default (the rows no earlier rule took).
        if model["model"] == "rule-set":
            p, t = totals[k], total
        else:
            i = model["rules"].index(rule)
            reach = [sum(r["class_counts"][c] for r in model["rules"][i:]) + model["default"]["class_counts"][c]
                     for c in range(len(classes))]
            p, t = reach[k], sum(reach)
        table = law_table[rule["class"]]
        mu, beta = table[min(len(rule["conditions"]), len(table)) - 1]
        out.append(corrected(counts[k], n, p, t, mu, beta))
    return out


def fit(candor, path, options, permutations, out, seed=1, pool="none"):
    start = time.perf_counter()
    subprocess.run([candor, "fit", path, "-o", out, "--threads", "2", "--evc-permutations", str(permutations),
                    "--seed", str(seed), "--evc-pool", pool] + options,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    with open(out) as f:
        return json.load(f), elapsed


def configurations(permutations, pooled, independent):
    """(label, permutations, seed, pool) of every calibration compared with the reference (100, seed 1)."""
    seed = 2 if independent else 1
    out = [(f"{k}{', seed 2' if independent else ''}", k, seed, "none") for k in permutations]
    out += [(f"{k}, pooled{', seed 2' if independent else ''}", k, seed, "classes") for k in pooled]
    out.append(("100, seed 2", 100, 2, "none"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--datasets-dir", default="data/corpus")
    ap.add_argument("--permutations", default="10,20,30,50", help="counts fitted class by class (--evc-pool none)")
    ap.add_argument("--pooled", default="", help="counts fitted with --evc-pool classes")
    ap.add_argument("--independent", action="store_true",
                    help="the smaller calibrations use seed 2 (independent of the reference) instead of the "
                         "reference's first K permutations")
    ap.add_argument("--options", default="--learner cn2-unordered --correct evc")
    ap.add_argument("--multiclass", action="store_true", help="only the sets of three or more classes")
    args = ap.parse_args()
    as_counts = lambda text: [int(k) for k in text.split(",") if k]
    configs = configurations(as_counts(args.permutations), as_counts(args.pooled), args.independent)
    options = args.options.split()
    changes = {c[0]: [] for c in configs}
    seconds = {c[0]: 0.0 for c in configs}
    reference_seconds = 0.0
    worst_self = 0.0
    rules = 0
    with tempfile.TemporaryDirectory() as folder:
        for name in corpus(args.datasets_dir, 50, 5000, False):
            if args.multiclass and classes_of(args.datasets_dir)[name] < 3:
                continue
            path = os.path.join(args.datasets_dir, name + ".arff")
            reference, t = fit(args.candor, path, options, 100, os.path.join(folder, "m100.json"))
            reference_seconds += t
            stated = [r["probability"] for r in reference["rules"]]
            again = rule_probabilities(reference, laws(reference))
            worst_self = max([worst_self] + [abs(a - b) for a, b in zip(stated, again)])
            rules += len(stated)
            line = [name, str(len(stated))]
            for label, k, seed, pool in configs:
                other, t = fit(args.candor, path, options, k, os.path.join(folder, "other.json"), seed, pool)
                seconds[label] += t
                moved = [abs(a - b) for a, b in zip(stated, rule_probabilities(reference, laws(other)))]
                changes[label] += moved
                line.append(f"{max(moved, default=0):.3f}")
            print("| " + " | ".join(line) + " |", file=sys.stderr, flush=True)
    print(f"{rules} rules of the 100-permutation models; recomputed here from their own laws, the largest difference "
          f"from the stated probability is {worst_self:.2e}")
    print("\n| calibration | mean abs change | largest | RMSE | share > 0.02 | fit time, share of 100 permutations' |")
    print("|---|---|---|---|---|---|")
    for label, *_ in configs:
        c = changes[label]
        print(f"| {label} | {statistics.mean(c):.4f} | {max(c):.3f} | {math.sqrt(statistics.mean(x * x for x in c)):.4f} | "
              f"{statistics.mean(x > 0.02 for x in c):.3f} | {seconds[label] / reference_seconds:.2f} |")
    return 0 if worst_self < 1e-6 else 1


if __name__ == "__main__":
    sys.exit(main())
