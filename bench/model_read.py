#!/usr/bin/env python3
"""Model reading against JSON parsing alone, on models up to a million nodes: complete binary C4.5 trees of
10,000 to 1,000,000 nodes, and a rule set whose rule holds 100,000 or 1,000,000 conditions, written from a
model that `candor fit` learned on data/vote.arff. For each, build/model_read times nlohmann-json's parse of
the file and candor's model_from_text (fastest of RUNS); the ratio is the second over the first.

    python3 bench/model_read.py [--runs R] [--largest N]     # needs build/ with the benchmarks
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"model_read.py: {' '.join(argv[:2])} failed: {done.stderr.strip()}")
    return done.stdout


def tree_model(template, internal):
    nodes = []
    total = 2 * internal + 1
    leaves = 0
    for i in range(total):
        if i < internal:
            nodes.append({"attribute": i % 16, "branch_weights": [1.0, 1.0], "children": [2 * i + 1, 2 * i + 2],
                          "class_counts": [1.0, 1.0], "mean": 0.0, "missing_child": -1, "split": "nominal"})
        else:
            nodes.append({"cell": leaves, "class_counts": [1.0, 2.0], "mean": 0.0, "split": "leaf"})
            leaves += 1
    model = dict(template)
    model["tree"] = {"cells": leaves, "nodes": nodes}
    model["leaf_shrinkage"] = dict(model["leaf_shrinkage"], leaves=leaves)
    return model


def long_rule_model(template, conditions):
    model = dict(template)
    rule = dict(model["rules"][0])
    rule["conditions"] = [dict(rule["conditions"][0])] * conditions
    model["rules"] = [rule] + model["rules"][1:]
    return model


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--largest", type=int, default=1_000_000, help="the largest tree's node count")
    a = p.parse_args()
    candor, reader = os.path.join(ROOT, "build", "candor"), os.path.join(ROOT, "build", "model_read")
    vote = os.path.join(ROOT, "data", "vote.arff")
    with tempfile.TemporaryDirectory() as tmp:
        trees, rules = os.path.join(tmp, "tree.json"), os.path.join(tmp, "rules.json")
        run([candor, "fit", vote, "--learner", "tree", "-o", trees])
        run([candor, "fit", vote, "--learner", "cn2-unordered", "-o", rules])
        tree_template, rule_template = json.load(open(trees)), json.load(open(rules))
        cases = [(f"tree of {n:,} nodes", lambda n=n: tree_model(tree_template, n // 2))
                 for n in (10_000, 100_000, 1_000_000) if n <= a.largest]
        cases += [(f"rule of {n:,} conditions", lambda n=n: long_rule_model(rule_template, n))
                  for n in (100_000, 1_000_000) if n <= a.largest]
        print("| model | MB | parse s | read s | ratio |\n|---|---|---|---|---|")
        for name, make in cases:
            path = os.path.join(tmp, "m.json")
            with open(path, "w") as f:
                json.dump(make(), f)
            r = json.loads(run([reader, path, str(a.runs)]))
            print(f"| {name} | {r['bytes'] / 1e6:.0f} | {r['parse_s']:.3f} | {r['load_s']:.3f} | {r['ratio']:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
