#!/usr/bin/env python3
"""10-fold cross-validation of candor against Weka (JRip, J48) on the shared corpus, in one run.

Usage: bench/compare_weka.py [--datasets a,b,...] [--largest N] [--candor-options "..."] [--threads T]
                             [--out results.md]

Every tool is timed the same way: wall-clock seconds of the whole command (JVM start-up included for
Weka, which also builds one model on all the data after its cross-validation; candor does not).
candor runs with --threads 1 unless told otherwise, so the ratio compares one core with one core.
Needs Debian's `weka` package for the Weka columns (scripts/install-deps.sh installs it).
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time

import generated  # write_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "..", "shared", "datasets"))
WEKA_JAR = "/usr/share/java/weka.jar"


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc, time.perf_counter() - start


def run_candor(path, options, threads):
    cmd = [os.path.join(ROOT, "build", "candor"), "evaluate", path, "--folds", "10", "--seed", "1",
           "--threads", str(threads), "--format", "json"] + options
    proc, secs = timed(cmd)
    if proc.returncode != 0:
        raise RuntimeError(f"candor failed on {path}: {proc.stderr.strip()}")
    j = json.loads(proc.stdout)
    return {"seconds": secs, "accuracy": j["accuracy"], "rules": j["rules"]}


def run_weka(path, classifier):
    cmd = ["java", "-Xmx8g", "-cp", WEKA_JAR, classifier, "-t", path, "-x", "10", "-s", "1", "-o", "-v"]
    proc, secs = timed(cmd)
    if proc.returncode != 0:
        return {"seconds": float("nan"), "accuracy": float("nan")}
    # The cross-validation section's "Correctly Classified Instances  N  XX.XX %".
    m = re.findall(r"Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%", proc.stdout)
    return {"seconds": secs, "accuracy": float(m[-1]) / 100 if m else float("nan")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", help="comma-separated names (default: every file in INDEX.tsv)")
    ap.add_argument("--largest", type=int, help="only the N data sets with the most rows")
    ap.add_argument("--candor-options", default="", help="extra options for candor evaluate")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--out", help="also write the Markdown table here")
    args = ap.parse_args()

    with open(os.path.join(DATASETS, "INDEX.tsv")) as f:
        index = list(csv.DictReader(f, delimiter="\t"))
    rows = {r["name"]: int(r["rows"]) for r in index}
    names = args.datasets.split(",") if args.datasets else [r["name"] for r in index]
    if args.largest:
        names = sorted(names, key=lambda n: -rows[n])[: args.largest]
    weka = not args.no_weka and shutil.which("java") and os.path.exists(WEKA_JAR)

    header = ["data set", "rows", "candor s", "candor acc", "candor rules"]
    if weka:
        header += ["JRip s", "JRip acc", "J48 s", "J48 acc", "JRip s / candor s"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    totals = {"candor": 0.0, "jrip": 0.0, "j48": 0.0}
    accs = {"candor": [], "jrip": [], "j48": []}
    options = args.candor_options.split()
    for name in names:
        path = os.path.join(DATASETS, name + ".arff")
        c = run_candor(path, options, args.threads)
        totals["candor"] += c["seconds"]
        accs["candor"].append(c["accuracy"])
        row = [name, str(rows[name]), f"{c['seconds']:.2f}", f"{c['accuracy']:.4f}", f"{c['rules']:.1f}"]
        if weka:
            jr = run_weka(path, "weka.classifiers.rules.JRip")
            j48 = run_weka(path, "weka.classifiers.trees.J48")
            totals["jrip"] += jr["seconds"]
            totals["j48"] += j48["seconds"]
            accs["jrip"].append(jr["accuracy"])
            accs["j48"].append(j48["accuracy"])
            row += [f"{jr['seconds']:.2f}", f"{jr['accuracy']:.4f}", f"{j48['seconds']:.2f}", f"{j48['accuracy']:.4f}",
                    f"{jr['seconds'] / c['seconds']:.2f}"]
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    mean = lambda v: sum(v) / len(v) if v else float("nan")
    summary = ["TOTAL / MEAN", "", f"{totals['candor']:.2f}", f"{mean(accs['candor']):.4f}", ""]
    if weka:
        summary += [f"{totals['jrip']:.2f}", f"{mean(accs['jrip']):.4f}", f"{totals['j48']:.2f}",
                    f"{mean(accs['j48']):.4f}", f"{totals['jrip'] / totals['candor']:.2f}"]
    lines.append("| " + " | ".join(summary) + " |")
    generated.write_table(lines, args.out)


if __name__ == "__main__":
    main()
