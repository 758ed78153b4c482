#!/usr/bin/env python3
"""Rule learners on data with a known concept, made by Weka's generators (nobody here wrote them).

Generators (Debian's `weka` package, weka.datagenerators.classifiers.classification):
  led24  LED24, 24 binary attributes (7 LED segments each flipped with probability 0.1, 17 irrelevant),
         10 classes; the Bayes rate is 0.74 (Breiman et al. 1984). Test set from another seed.
  agrawal Agrawal's function 2 (salary and age bands; 9 attributes, 6 numeric; --agrawal-function picks
         another of the ten, such as 1: two age bands), no perturbation, 2 classes; 5% of the labels (train
         and test alike) flipped with a seeded generator: Bayes rate 0.95.
  rdg1   RDG1, a random decision list over 10 binary attributes (rules of 1 to 4 conditions), 2 classes;
         5% of the labels flipped likewise: Bayes rate 0.95.
  rbf    RandomRBF, 10 numeric attributes around 50 random centroids, 2 classes (no flipped labels; the
         classes overlap where centroids of both classes lie close; Bayes rate unknown).
For agrawal, rdg1 and rbf the test rows are the last 20,000 of one generated file (one concept).
Each size is trained on N rows and tested on 20,000 other rows. Per learner: rules, fit seconds on one thread
as each tool reports them (candor: the fit inside `candor evaluate --test`, reading excluded; Weka: "Time taken
to build model" of `-t TRAIN -T TEST -no-cv`), the wall clock of the whole command (reading, fitting and
testing, JVM start for Weka), test accuracy and log loss where the tool reports it.

Usage: bench/generated.py [--sizes 10000,100000] [--generators led24,rdg1] [--out FILE.md] [--threads N]
                          [--candor "NAME=OPTIONS" ...] [--no-weka] [--work DIR] [--agrawal-function F]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

from bench_files import write_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEKA_JAR = "/usr/share/java/weka.jar"
GEN = "weka.datagenerators.classifiers.classification."
TEST_ROWS = 20000
BAYES = {"led24": 0.74, "rdg1": 0.95, "agrawal": 0.95, "rbf": float("nan")}
AGRAWAL_FUNCTION = 2  # which of Agrawal's ten concepts (--agrawal-function)


class Timeout(Exception):
    pass


def run_command(cmd, timeout=None):
    """Runs cmd; returns (stdout, stderr, wall seconds). Raises Timeout past `timeout` seconds, RuntimeError on
    a non-zero exit."""
    start = time.perf_counter()
    # A session of its own, so that a timeout stops the whole group (/usr/bin/time and the tool under it).
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise Timeout()
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + err.strip()[-2000:])
    return out, err, wall


def run(cmd):
    out, _, wall = run_command(cmd)
    return out, wall


def write_table(lines, out_path):
    """Prints a Markdown table and, with out_path, writes it there too."""
    table = "\n".join(lines)
    print(table)
    if out_path:
        write_text(out_path, table + "\n")


def split_arff(path):
    with open(path) as f:
        lines = f.read().splitlines()
    at = next(i for i, l in enumerate(lines) if l.strip().lower() == "@data")
    header = [l for l in lines[: at + 1] if not l.startswith("%")]
    rows = [l for l in lines[at + 1:] if l.strip() and not l.startswith("%")]
    return header, rows


def write_arff(path, header, rows):
    write_text(path, "\n".join(header) + "\n" + "\n".join(rows) + "\n")


def make(generator, n, work):
    # Function 2's files keep the names they always had; another function's files are named by it.
    name = generator if generator != "agrawal" or AGRAWAL_FUNCTION == 2 else f"agrawal{AGRAWAL_FUNCTION}"
    train = os.path.join(work, f"{name}_{n}_train.arff")
    test = os.path.join(work, f"{name}_{n}_test.arff")
    if os.path.exists(train) and os.path.exists(test):
        return train, test
    tmp = os.path.join(work, "gen.arff")
    if generator == "led24":
        run(["java", "-cp", WEKA_JAR, GEN + "LED24", "-S", "1", "-n", str(n), "-o", train])
        run(["java", "-cp", WEKA_JAR, GEN + "LED24", "-S", "2", "-n", str(TEST_ROWS), "-o", test])
        return train, test
    if generator == "rbf":
        run(["java", "-cp", WEKA_JAR, GEN + "RandomRBF", "-S", "1", "-n", str(n + TEST_ROWS), "-a", "10", "-c", "2",
             "-C", "50", "-o", tmp])
        header, rows = split_arff(tmp)
        write_arff(train, header, rows[:n])
        write_arff(test, header, rows[n:])
        return train, test
    if generator == "rdg1":
        run(["java", "-cp", WEKA_JAR, GEN + "RDG1", "-S", "1", "-n", str(n + TEST_ROWS), "-a", "10", "-c", "2", "-R",
             "4", "-M", "1", "-o", tmp])
    else:
        run(["java", "-cp", WEKA_JAR, GEN + "Agrawal", "-S", "1", "-n", str(n + TEST_ROWS), "-F", str(AGRAWAL_FUNCTION), "-P", "0",
             "-o", tmp])
    header, rows = split_arff(tmp)
    labels = sorted({r.split(",")[-1] for r in rows})
    rng = random.Random(7)
    noisy = []
    for r in rows:
        cells = r.split(",")
        if rng.random() < 0.05:
            cells[-1] = labels[1] if cells[-1] == labels[0] else labels[0]
        noisy.append(",".join(cells))
    write_arff(train, header, noisy[:n])
    write_arff(test, header, noisy[n:])
    return train, test


def candor(train, test, options, work, threads=1):
    exe = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
    out, wall = run([exe, "evaluate", train, "--test", test, "--threads", str(threads), "--format", "json"] + options)
    j = json.loads(out)
    return {"seconds": j["fit_seconds"], "wall": wall, "accuracy": j["accuracy"], "log_loss": j["log_loss"],
            "rules": j["rules"]}


def weka(train, test, classifier):
    out, wall = run(["java", "-Xmx8g", "-cp", WEKA_JAR, classifier, "-t", train, "-T", test, "-no-cv"])
    acc = re.findall(r"Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%", out)
    rules = re.findall(r"Number of Rules\s*:\s*(\d+)", out) or re.findall(r"Number of Leaves\s*:\s*(\d+)", out)
    build = re.findall(r"Time taken to build model:\s*([\d.]+)", out)
    return {"seconds": float(build[0]) if build else float("nan"), "wall": wall,
            "accuracy": float(acc[-1]) / 100 if acc else float("nan"),
            "log_loss": float("nan"), "rules": float(rules[0]) if rules else float("nan")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--generators", default="agrawal,led24,rdg1")
    ap.add_argument("--candor", action="append", default=[], help="NAME=OPTIONS (default: defaults and --quality evc)")
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--threads", type=int, default=1,
                    help="candor's threads (Weka's learners run on one); the table's fit column says how many")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "generated"))
    ap.add_argument("--out")
    ap.add_argument("--agrawal-function", type=int, default=2, choices=range(1, 11), metavar="F",
                    help="which of Agrawal's ten concepts the agrawal generator draws (default 2)")
    args = ap.parse_args()
    global AGRAWAL_FUNCTION
    AGRAWAL_FUNCTION = args.agrawal_function
    os.makedirs(args.work, exist_ok=True)
    learners = args.candor or ["candor defaults=", "candor --quality evc=--quality evc"]
    use_weka = not args.no_weka and shutil.which("java") and os.path.exists(WEKA_JAR)
    threads = "1 thread" if args.threads == 1 else f"candor on {args.threads} threads, Weka on 1"
    lines = [f"| data | train rows | Bayes rate | learner | rules | fit s ({threads}) | command s | test accuracy | log loss |",
             "|---|---|---|---|---|---|---|---|---|"]
    for g in args.generators.split(","):
        for n in [int(s) for s in args.sizes.split(",")]:
            train, test = make(g, n, args.work)
            results = []
            for spec in learners:
                name, _, options = spec.partition("=")
                results.append((name, candor(train, test, options.split(), args.work, args.threads)))
            if use_weka:
                results.append(("JRip", weka(train, test, "weka.classifiers.rules.JRip")))
                results.append(("J48", weka(train, test, "weka.classifiers.trees.J48")))
            for name, r in results:
                lines.append(f"| {g} | {n} | {BAYES[g]:.2f} | {name} | {r['rules']:.0f} | {r['seconds']:.2f} | "
                             f"{r['wall']:.1f} | {r['accuracy']:.4f} | {r['log_loss']:.3f} |")
                print(lines[-1], file=sys.stderr, flush=True)
    write_table(lines, args.out)


if __name__ == "__main__":
    main()
