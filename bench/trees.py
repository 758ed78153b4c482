#!/usr/bin/env python3
"""candor's trees and ensembles against Weka's, on the shared corpus.

  python3 bench/trees.py --sizes            # J48 and candor's tree on every corpus file (whole file):
                                            # leaves, nodes, training accuracy, fit seconds
  python3 bench/trees.py --ensembles        # 10-member ensembles on adult, one thread each: fit seconds of
                                            # candor's AdaBoost.M1 / KBS over trees, LogitBoost over stumps and
                                            # Weka's AdaBoostM1-J48, LogitBoost (DecisionStump)

Weka's times are its own "Time taken to build model" (no JVM start, no parsing); candor's are the fit
seconds `candor evaluate --test` reports (no parsing either). Needs Debian's weka (/usr/share/java/weka.jar)
and a built build/candor.
"""
import argparse
import os
import re
import subprocess
import sys

from bench_files import write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CANDOR = os.path.join(ROOT, "build", "candor")
WEKA = "/usr/share/java/weka.jar"


def weka(cls, data, *options):
    out = subprocess.run(["java", "-Xmx4g", "-cp", WEKA, cls, "-t", data, "-no-cv", *options],
                         capture_output=True, text=True, check=True).stdout
    build = float(re.search(r"Time taken to build model: ([\d.]+)", out).group(1))
    leaves = re.search(r"Number of Leaves\s*:\s*(\d+)", out)
    size = re.search(r"Size of the tree\s*:\s*(\d+)", out)
    acc = re.search(r"Correctly Classified Instances\s+\d+\s+([\d.]+)", out)
    return {"seconds": build, "leaves": int(leaves.group(1)) if leaves else None,
            "size": int(size.group(1)) if size else None, "accuracy": float(acc.group(1)) / 100 if acc else None}


def candor_fit(data, *options):
    out = subprocess.run([CANDOR, "evaluate", data, "--test", data, "--threads", "1", "--format", "json", *options],
                         capture_output=True, text=True, check=True).stdout
    import json
    j = json.loads(out)
    return j


def candor_tree(data):
    model = "/tmp/candor-bench-tree.json"
    subprocess.run([CANDOR, "fit", data, "-o", model, "--learner", "tree", "--leaf-estimate", "laplace", "--threads", "1"], capture_output=True, check=True)
    text = subprocess.run([CANDOR, "rules", model], capture_output=True, text=True, check=True).stdout
    leaves = int(re.search(r"Number of leaves: (\d+)", text).group(1))
    size = int(re.search(r"Size of the tree: (\d+)", text).group(1))
    return leaves, size


def sizes(datasets_dir, out):
    rows = []
    names = sorted(f[:-5] for f in os.listdir(datasets_dir) if f.endswith(".arff"))
    for name in names:
        path = os.path.join(datasets_dir, name + ".arff")
        try:
            w = weka("weka.classifiers.trees.J48", path)
            leaves, size = candor_tree(path)
            ev = candor_fit(path, "--learner", "tree", "--leaf-estimate", "counts")
        except subprocess.CalledProcessError as e:
            print(f"{name}: skipped ({e.stderr.strip()[:120] if e.stderr else e})", file=sys.stderr)
            continue
        row = {"dataset": name, "j48_leaves": w["leaves"], "candor_leaves": leaves, "j48_size": w["size"],
               "candor_size": size, "j48_train_accuracy": w["accuracy"],
               "candor_train_accuracy": round(ev["accuracy"], 4),
               "j48_seconds": w["seconds"], "candor_seconds": round(ev["fit_seconds"], 3)}
        rows.append(row)
        print(row, flush=True)
    write_csv(out, rows)
    same = sum(r["j48_leaves"] == r["candor_leaves"] and r["j48_size"] == r["candor_size"] for r in rows)
    print(f"{same} of {len(rows)} trees have J48's leaves and size; written to {out}")


def ensembles(datasets_dir):
    data = os.path.join(datasets_dir, "adult.arff")
    # The algorithms Weka runs: no calibration on internal folds, J48's Laplace leaves.
    runs = [
        ("AdaBoost.M1 / tree", ["--learner", "boost", "--boosting", "adaboost-m1", "--base", "tree", "--calibrate", "none"],
         ("weka.classifiers.meta.AdaBoostM1", "-W", "weka.classifiers.trees.J48")),
        ("KBS / tree", ["--learner", "boost", "--boosting", "kbs", "--base", "tree", "--calibrate", "none"],
         ("weka.classifiers.meta.AdaBoostM1", "-W", "weka.classifiers.trees.J48")),
        ("LogitBoost / stump", ["--learner", "boost", "--boosting", "logitboost", "--calibrate", "none"],
         ("weka.classifiers.meta.LogitBoost",)),
        ("AdaBoost.M1 / stump", ["--learner", "boost", "--boosting", "adaboost-m1", "--calibrate", "none"],
         ("weka.classifiers.meta.AdaBoostM1",)),
        ("tree alone", ["--learner", "tree", "--leaf-estimate", "laplace"], ("weka.classifiers.trees.J48",)),
    ]
    print("| ensemble (10 members) | candor fit s | Weka peer | Weka build s | ratio |")
    print("|---|---|---|---|---|")
    for name, options, peer in runs:
        c = candor_fit(data, *options)
        w = weka(peer[0], data, *peer[1:])
        print(f"| {name} | {c['fit_seconds']:.2f} | {' '.join(p.split('.')[-1] for p in peer[::2])} | "
              f"{w['seconds']:.2f} | {c['fit_seconds'] / w['seconds']:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=os.path.join(ROOT, "..", "shared", "datasets"))
    ap.add_argument("--sizes", action="store_true")
    ap.add_argument("--ensembles", action="store_true")
    ap.add_argument("--out", default="out/tree_sizes.csv")
    a = ap.parse_args()
    if not (a.sizes or a.ensembles):
        ap.error("give --sizes and/or --ensembles")
    if a.sizes:
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        sizes(a.datasets, a.out)
    if a.ensembles:
        ensembles(a.datasets)


if __name__ == "__main__":
    main()
