#!/usr/bin/python3
"""What the default learner keeps and loses with fewer EVC permutations, on the sets of
examples/defaults/honest_default.json (docs/evc_calibration.md, "The single-fit target in permutations").

    bench/evc_permutation_tradeoff.py [--candor build/candor] [--permutations 3,4,5,10,20] [--seeds 8]
                                      [--datasets-dir data/corpus] [--out DIR]

Per permutation count P and set:
  - the Monte Carlo noise of the rules' probabilities: `candor fit DATA --evc-permutations P --seed S` for
    seeds 1..--seeds (the seed draws the permutations and nothing else in a default fit); for every rule found
    with every seed (same class and conditions) the standard deviation of its probability over the seeds,
    their root mean square per set; and the share of a model's rules found with every seed;
  - the corpus outcomes: `candor evaluate DATA --format json --evc-permutations P` (10-fold CV, seed 1).
It prints the means over the sets (and over the binary ones, classes with rows in the model's training
counts). The fit time of each P is bench/fit_ratio.py --options "--evc-permutations P". Models are kept in
--out (default out/evc_permutation_tradeoff), written by candor, so a second run reuses them.
"""
import argparse
import json
import math
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

from bench_files import config_datasets, run_checked

SCRIPT = "evc_permutation_tradeoff.py"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    print(f"{SCRIPT}: {message}", file=sys.stderr)
    sys.exit(2)


def model_rules(path):
    """{(class, conditions): probability} of a default (rule-logistic) or rule-set model file."""
    with open(path) as f:
        model = json.load(f)
    rules = model.get("rule_model", model)["rules"]
    return {(r["class"], json.dumps(r["conditions"], sort_keys=True)): r["probability"] for r in rules}, model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candor", default=os.path.join(ROOT, "build", "candor"))
    ap.add_argument("--permutations", default="3,4,5,10,20")
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--datasets-dir", default=os.path.join(ROOT, "data", "corpus"))
    ap.add_argument("--config", default=os.path.join(ROOT, "examples", "defaults", "honest_default.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "evc_permutation_tradeoff"))
    args = ap.parse_args()
    try:
        counts = [int(p) for p in args.permutations.split(",")]
    except ValueError:
        fail(f"--permutations: not a list of integers: {args.permutations}")
    if any(p < 1 for p in counts) or args.seeds < 2:
        fail("permutations must be at least 1 and --seeds at least 2")
    sets = config_datasets(args.config, SCRIPT)
    os.makedirs(args.out, exist_ok=True)

    def fit(job):
        name, p, seed = job
        path = os.path.join(args.out, f"{name}.p{p}.s{seed}.json")
        if not os.path.exists(path):  # candor writes it whole or not at all
            run_checked([args.candor, "fit", os.path.join(args.datasets_dir, name + ".arff"), "--evc-permutations",
                         str(p), "--seed", str(seed), "--threads", "1", "-o", path], SCRIPT)
        return path

    def evaluate(job):
        name, p = job
        out = run_checked([args.candor, "evaluate", os.path.join(args.datasets_dir, name + ".arff"), "--format",
                           "json", "--threads", "1", "--evc-permutations", str(p)], SCRIPT)
        return json.loads(out)

    jobs = [(n, p, s) for n in sets for p in counts for s in range(1, args.seeds + 1)]
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        paths = dict(zip(jobs, pool.map(fit, jobs)))
        evaluations = dict(zip([(n, p) for n in sets for p in counts],
                               pool.map(evaluate, [(n, p) for n in sets for p in counts])))

    print("| permutations | rule probability noise over seeds (RMS sd): all / binary | share of a model's rules found "
          "with every seed | accuracy | log loss | binary log loss | ECE mean / max | rule RMSE | rules |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in counts:
        noise, binary_noise, kept = [], [], []
        for name in sets:
            loaded = [model_rules(paths[(name, p, s)]) for s in range(1, args.seeds + 1)]
            models = [r for r, _ in loaded]
            common = set.intersection(*(set(m) for m in models))
            kept.append(statistics.mean(len(common) / len(m) if m else 1.0 for m in models))
            if not common:
                continue
            sds = [statistics.pstdev([m[k] for m in models]) for k in common]
            rms = math.sqrt(sum(x * x for x in sds) / len(sds))
            noise.append(rms)
            if sum(c > 0 for c in loaded[0][1]["training"]["class_counts"]) == 2:
                binary_noise.append(rms)
        ev = [evaluations[(n, p)] for n in sets]
        binary = [evaluations[(n, p)] for n in sets
                  if sum(c > 0 for c in model_rules(paths[(n, p, 1)])[1]["training"]["class_counts"]) == 2]
        rmse = [e["rule_rmse"] for e in ev if e.get("rule_rmse") is not None]
        print(f"| {p} | {statistics.mean(noise):.4f} / {statistics.mean(binary_noise):.4f} | "
              f"{statistics.mean(kept):.3f} | {statistics.mean(e['accuracy'] for e in ev):.4f} | "
              f"{statistics.mean(e['log_loss'] for e in ev):.4f} | "
              f"{statistics.mean(e['log_loss'] for e in binary):.4f} ({len(binary)}) | "
              f"{statistics.mean(e['ece'] for e in ev):.4f} / {max(e['ece'] for e in ev):.3f} | "
              f"{statistics.mean(rmse):.4f} | {statistics.mean(e['rules'] for e in ev):.2f} |")


if __name__ == "__main__":
    main()
