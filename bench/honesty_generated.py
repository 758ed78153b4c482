#!/usr/bin/python3
"""How honest the rules' probabilities are on generated data whose true class probabilities are known: every
rule of every model against the probability of its class over the rows it covers in a large independent
sample of the same generator (docs/evc_calibration.md, "Honesty on data with known probabilities").

    bench/honesty_generated.py [--candor build/candor] [--sets 300] [--seed 1] [--out FILE.csv]
                               [--learner "LABEL=OPTIONS" ...] [--sizes 300,1000,3000]

The generator is this script's own, unlike paper 000's (`candor experiment evc-artificial`): numeric and
nominal attributes, a class probability that is the logistic function of step effects, one interaction and
the attributes' own effects, and noise attributes; training sets of 300, 1,000 and 3,000 rows in turn (or of
the --sizes given: sizes above kCalibrationRows, 20,000, measure the rules of fits whose EVC calibration runs on
a sample, evc/calibration.hpp). For
each data set it draws:

- b0 ~ N(0, 0.7); for x0..x3 (uniform on [0, 1]) a threshold t ~ U(0.2, 0.8) and a step weight ~ N(0, 1.2);
- for c0 and c1 (three values each, equally likely) a weight per value ~ N(0, 0.8);
- one interaction weight ~ N(0, 1.5) on [x1 > t1 and c0 = a];
- x4, x5 (uniform) and c2 (three values) are noise.

P(class = yes | x) = 1 / (1 + exp(-logit)). The truth of a rule is the mean of P(its class | x) over the rows
it covers among 100,000 fresh rows (rules covering fewer than 50 of them are left out: their truth is not
known to 0.07). Each learner's rules are compared with their truths: Spearman correlation (SciPy), RMSE and
mean error over all rules, and over each class's first rule (the best rule of the first search, the rule
paper 000's Table 2 measures).
"""
import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from bench_files import replaced, write_csv

LEARNERS = {
    "the default (rule-logistic)": [],
    "cn2-unordered --correct evc": ["--learner", "cn2-unordered", "--correct", "evc"],
    "cn2-unordered --quality evc": ["--learner", "cn2-unordered", "--quality", "evc"],
    "cn2-unordered (m-estimate, uncorrected)": ["--learner", "cn2-unordered"],
}
SIZES = [300, 1000, 3000]
POPULATION = 100_000
MIN_COVERED = 50
NUMERIC = ["x0", "x1", "x2", "x3", "x4", "x5"]
NOMINAL = ["c0", "c1", "c2"]
VALUES = ["a", "b", "c"]


def draw_law(rng):
    return {
        "b0": rng.normal(0, 0.7),
        "t": rng.uniform(0.2, 0.8, 4),
        "w": rng.normal(0, 1.2, 4),
        "v": rng.normal(0, 0.8, (2, 3)),
        "interaction": rng.normal(0, 1.5),
    }


def draw_rows(rng, n):
    x = {name: rng.uniform(0, 1, n) for name in NUMERIC}
    for name in NOMINAL:
        x[name] = rng.integers(0, 3, n)
    return x


def p_yes(law, x):
    logit = np.full(len(x["x0"]), law["b0"])
    for j in range(4):
        logit += law["w"][j] * (x[f"x{j}"] > law["t"][j])
    for k in range(2):
        logit += law["v"][k][x[f"c{k}"]]
    logit += law["interaction"] * ((x["x1"] > law["t"][1]) & (x["c0"] == 0))
    return 1 / (1 + np.exp(-logit))


def write_arff(path, x, y):
    with replaced(path) as f:
        f.write("@relation generated\n")
        for name in NUMERIC:
            f.write(f"@attribute {name} numeric\n")
        for name in NOMINAL:
            f.write(f"@attribute {name} {{{','.join(VALUES)}}}\n")
        f.write("@attribute class {no,yes}\n@data\n")
        for i in range(len(y)):
            cells = [repr(float(x[name][i])) for name in NUMERIC] + [VALUES[x[name][i]] for name in NOMINAL]
            f.write(",".join(cells) + ("," + ("yes" if y[i] else "no")) + "\n")


def covers(rule, x):
    mask = np.ones(len(x["x0"]), dtype=bool)
    for c in rule["conditions"]:
        a, op, v = c["attribute"], c["op"], c["value"]
        if op == "=":
            mask &= x[a] == VALUES.index(v)
        elif op == "!=":
            mask &= x[a] != VALUES.index(v)
        elif op == "<=":
            mask &= x[a] <= v
        elif op == ">":
            mask &= x[a] > v
        else:
            raise ValueError(f"unknown operator {op}")
    return mask


def summary(points):
    est = np.array([p["estimate"] for p in points])
    truth = np.array([p["truth"] for p in points])
    return {"rules": len(points), "spearman": spearmanr(est, truth).statistic if len(points) > 2 else math.nan,
            "rmse": float(np.sqrt(np.mean((est - truth) ** 2))), "mean_error": float(np.mean(est - truth))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--sets", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--learner", action="append", default=None,
                    help="LABEL=OPTIONS of candor fit, instead of the four learners above (repeatable)")
    ap.add_argument("--sizes", default=",".join(str(n) for n in SIZES),
                    help="training rows of the data sets, taken in turn (comma-separated; default %(default)s)")
    a = ap.parse_args()
    if a.sets < 1:
        ap.error("--sets needs at least 1 data set")
    try:
        sizes = [int(n) for n in a.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes {a.sizes}: give whole numbers of rows separated by commas")
    if not sizes or min(sizes) < 10:
        ap.error(f"--sizes {a.sizes}: every size needs at least 10 rows")
    learners = LEARNERS
    if a.learner:
        learners = {}
        for spec in a.learner:
            label, _, options = spec.partition("=")
            learners[label] = options.split()
    points = []
    with tempfile.TemporaryDirectory() as work:
        for i in range(a.sets):
            rng = np.random.default_rng([a.seed, i])
            law = draw_law(rng)
            n = sizes[i % len(sizes)]
            train = draw_rows(rng, n)
            y = rng.uniform(0, 1, n) < p_yes(law, train)
            population = draw_rows(rng, POPULATION)
            p_pop = p_yes(law, population)
            data = Path(work) / f"set{i}.arff"
            write_arff(data, train, y)
            for label, options in learners.items():
                model_path = Path(work) / "model.json"
                fit = subprocess.run([a.candor, "fit", str(data), "-o", str(model_path), *options],
                                     capture_output=True, text=True)
                if fit.returncode != 0:  # candor's own message (exit 2 for bad options), passed on
                    print(f"{label}: candor fit failed: {fit.stderr.strip()}", file=sys.stderr)
                    sys.exit(fit.returncode)
                model = json.load(open(model_path))
                classes = model["class"]["values"]
                rules = model["rule_model"]["rules"] if "rule_model" in model else model["rules"]
                first_of_class = set()
                for k, rule in enumerate(rules):
                    mask = covers(rule, population)
                    first = rule["class"] not in first_of_class
                    first_of_class.add(rule["class"])
                    if mask.sum() < MIN_COVERED:
                        continue
                    p_class = p_pop[mask] if rule["class"] == "yes" else 1 - p_pop[mask]
                    points.append({"set": i, "rows": n, "learner": label, "rule": k + 1, "first": first,
                                   "length": len(rule["conditions"]), "estimate": rule["probability"],
                                   "truth": float(p_class.mean()), "covered_population": int(mask.sum())})
                assert classes == ["no", "yes"]
            if (i + 1) % 50 == 0:
                print(f"{i + 1} sets", flush=True)
    if a.out and points:
        write_csv(a.out, points)
    print("\n| learner | rules | Spearman | RMSE | mean error | first rules | Spearman | RMSE | mean error |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label in learners:
        mine = [p for p in points if p["learner"] == label]
        s, f = summary(mine), summary([p for p in mine if p["first"]])
        print(f"| {label} | {s['rules']} | {s['spearman']:.3f} | {s['rmse']:.4f} | {s['mean_error']:+.4f} | "
              f"{f['rules']} | {f['spearman']:.3f} | {f['rmse']:.4f} | {f['mean_error']:+.4f} |")
    for label in learners:
        print(f"\nBy training rows, {label} (all rules; first rules):")
        for n in sizes:
            mine = [p for p in points if p["learner"] == label and p["rows"] == n]
            s, f = summary(mine), summary([p for p in mine if p["first"]])
            print(f"  {n} rows: {s['rules']} rules, Spearman {s['spearman']:.3f}, RMSE {s['rmse']:.4f}, mean error "
                  f"{s['mean_error']:+.4f}; {f['rules']} first rules, Spearman {f['spearman']:.3f}, RMSE "
                  f"{f['rmse']:.4f}, mean error {f['mean_error']:+.4f}")


if __name__ == "__main__":
    main()
