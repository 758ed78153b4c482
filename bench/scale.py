#!/usr/bin/env python3
"""How fit time, rules, accuracy and memory grow with the data: candor against Weka's JRip and J48.

Data (train and a separate test set; see bench/generated.py for the generators, all Weka's own):
  agrawal  Agrawal function 2 with 5% of the labels flipped (Bayes rate 0.95), 9 attributes (6 numeric);
  rbf      RandomRBF, 10 numeric attributes, 50 centroids, 2 classes;
  led24    LED24 (24 binary attributes, 10 classes; Bayes rate 0.74), when asked for with --generators;
each at --sizes rows (default 10k, 100k and 1M) tested on 20,000 other rows; then adult (tested on
adult.test) and the next five largest corpus files, each split once into 2/3 train and 1/3 test (seed 1,
stratified).

Per data set and learner: rules (JRip's rules, J48's leaves), fit seconds as each tool reports them (reading
excluded; candor on one thread and on two), test accuracy, test AUC (one-vs-rest weighted by class frequency,
as Weka's "Weighted Avg." ROC area), and the peak resident memory of the one-thread command (for Weka, the
JVM with -Xmx16g). Commands run one at a time. A command that runs past --timeout seconds is stopped and
reported as such.

Usage: bench/scale.py [--sizes 10000,100000,1000000] [--generators agrawal,rbf] [--corpus|--no-corpus]
                      [--candor "NAME=OPTIONS" ...] [--no-weka] [--timeout 1800] [--work DIR] [--out FILE.md]
"""
import argparse
import json
import os
import random
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated  # noqa: E402  (the generators and ARFF helpers)

ROOT = generated.ROOT
DATASETS = os.path.join(os.path.dirname(ROOT), "shared", "datasets")
CORPUS = ["nursery", "pendigits", "mushroom", "page-blocks", "waveform-5000"]


def timed(cmd, timeout):
    """Runs cmd under /usr/bin/time for its peak memory; returns (stdout, wall seconds, peak MB)."""
    out, err, wall = generated.run_command(["/usr/bin/time", "-f", "PEAK_KB %M"] + cmd, timeout)
    peak = re.findall(r"PEAK_KB (\d+)", err)
    return out, wall, float(peak[-1]) / 1024 if peak else float("nan")


def split_corpus(name, work):
    """2/3 - 1/3 stratified split of a corpus file (seed 1); adult is tested on adult.test."""
    if name == "adult":
        return os.path.join(DATASETS, "adult.arff"), os.path.join(DATASETS, "adult.test.arff")
    train = os.path.join(work, f"{name}_train.arff")
    test = os.path.join(work, f"{name}_test.arff")
    if os.path.exists(train) and os.path.exists(test):
        return train, test
    header, rows = generated.split_arff(os.path.join(DATASETS, name + ".arff"))
    by_class = {}
    for r in rows:
        by_class.setdefault(r.rsplit(",", 1)[-1].strip(), []).append(r)
    rng = random.Random(1)
    tr, te = [], []
    for label in sorted(by_class):
        group = by_class[label][:]
        rng.shuffle(group)
        cut = (2 * len(group) + 2) // 3
        tr += group[:cut]
        te += group[cut:]
    generated.write_arff(train, header, tr)
    generated.write_arff(test, header, te)
    return train, test


def candor(train, test, options, threads, timeout):
    exe = os.path.join(ROOT, "build", "candor")
    out, wall, peak = timed([exe, "evaluate", train, "--test", test, "--threads", str(threads), "--format", "json"]
                            + options, timeout)
    j = json.loads(out)
    return {"seconds": j["fit_seconds"], "wall": wall, "peak": peak, "accuracy": j["accuracy"], "auc": j["auc"],
            "rules": j["rules"]}


def weka(train, test, classifier, timeout):
    out, wall, peak = timed(["java", "-Xmx16g", "-cp", generated.WEKA_JAR, classifier, "-t", train, "-T", test,
                             "-no-cv", "-i"], timeout)
    acc = re.findall(r"Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%", out)
    auc = re.findall(r"Weighted Avg\.\s+(?:[\d.?]+\s+){5}([\d.?]+)", out)
    rules = re.findall(r"Number of Rules\s*:\s*(\d+)", out) or re.findall(r"Number of Leaves\s*:\s*(\d+)", out)
    build = re.findall(r"Time taken to build model:\s*([\d.]+)", out)
    return {"seconds": float(build[0]) if build else float("nan"), "wall": wall, "peak": peak,
            "accuracy": float(acc[-1]) / 100 if acc else float("nan"),
            "auc": float(auc[-1]) if auc and auc[-1] != "?" else float("nan"),
            "rules": float(rules[0]) if rules else float("nan")}


def rows_of(path):
    return len(generated.split_arff(path)[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--generators", default="agrawal,rbf")
    ap.add_argument("--corpus", dest="corpus", action="store_true", default=True)
    ap.add_argument("--no-corpus", dest="corpus", action="store_false")
    ap.add_argument("--candor", action="append", default=[],
                    help="NAME=OPTIONS (default: 'candor defaults' and 'candor --quality evc')")
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per command")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "scale"))
    ap.add_argument("--out")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    learners = args.candor or ["candor defaults=", "candor --quality evc=--quality evc"]
    use_weka = not args.no_weka and shutil.which("java") and os.path.exists(generated.WEKA_JAR)

    data = []
    for g in [g for g in args.generators.split(",") if g]:
        for n in [int(s) for s in args.sizes.split(",") if s]:
            data.append((g, n) + generated.make(g, n, args.work))
    if args.corpus:
        for name in ["adult"] + CORPUS:
            train, test = split_corpus(name, args.work)
            data.append((name, rows_of(train), train, test))

    lines = ["| data | train rows | learner | rules | fit s (1 thread) | fit s (2 threads) | test accuracy | test AUC | "
             "peak MB |", "|---|---|---|---|---|---|---|---|---|"]

    def emit(name, n, learner, one, two):
        if one is None:
            lines.append(f"| {name} | {n} | {learner} | | > {args.timeout:.0f} (stopped) | | | | |")
        else:
            two_s = f"{two['seconds']:.2f}" if two else ""
            lines.append(f"| {name} | {n} | {learner} | {one['rules']:.0f} | {one['seconds']:.2f} | {two_s} | "
                         f"{one['accuracy']:.4f} | {one['auc']:.4f} | {one['peak']:.0f} |")
        print(lines[-1], file=sys.stderr, flush=True)

    for name, n, train, test in data:
        for spec in learners:
            learner, _, options = spec.partition("=")
            try:
                one = candor(train, test, options.split(), 1, args.timeout)
                two = candor(train, test, options.split(), 2, args.timeout)
            except generated.Timeout:
                one = two = None
            emit(name, n, learner, one, two)
        if use_weka:
            for learner, cls in (("JRip", "weka.classifiers.rules.JRip"), ("J48", "weka.classifiers.trees.J48")):
                try:
                    emit(name, n, learner, weka(train, test, cls, args.timeout), None)
                except generated.Timeout:
                    emit(name, n, learner, None, None)
    generated.write_table(lines, args.out)


if __name__ == "__main__":
    main()
