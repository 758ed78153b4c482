#!/usr/bin/python3
"""candor's one-r against Weka's OneR on every file of the corpus: the attribute each chooses and the training
rows its rules classify correctly (a rule's majority class, the default rule's for rows missing the
attribute), with Weka's default -B 6 and candor's --min-bucket-size 6.

    python3 bench/one_r_weka.py [--candor build/candor] [--weka /usr/share/java/weka.jar] [--data data/corpus]

Prints one line per file and the number that agree; exit 1 when any differs. Measured on 2026-11-26: all 53
files agree (tests/candor/learn/one_r_test.cpp keeps 14 of them).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def weka_one_r(weka, path):
    out = subprocess.run(["java", "-Xmx2g", "-cp", weka, "weka.classifiers.rules.OneR", "-t", path, "-no-cv"],
                         capture_output=True, text=True, check=True).stdout
    attribute = re.search(r"^(\S.*):\n", out, re.M).group(1).strip()
    correct = float(re.search(r"\((\d+(?:\.\d+)?)/\d+(?:\.\d+)? instances correct\)", out).group(1))
    return attribute, correct


def candor_one_r(candor, path, model):
    subprocess.run([candor, "fit", path, "--learner", "one-r", "-o", model], capture_output=True, text=True,
                   check=True)
    with open(model, encoding="utf-8") as f:
        j = json.load(f)
    attributes = sorted({c["attribute"] for r in j["rules"] for c in r["conditions"]})
    correct = sum(max(r["class_counts"]) for r in j["rules"]) + max(j["default"]["class_counts"])
    return ",".join(attributes) or "(none)", correct


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--candor", default=os.path.join(root, "build", "candor"))
    ap.add_argument("--weka", default="/usr/share/java/weka.jar")
    ap.add_argument("--data", default=os.path.join(root, "data", "corpus"))
    args = ap.parse_args()
    agree = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(args.data)):
            if not name.endswith(".arff"):
                continue
            path = os.path.join(args.data, name)
            w = weka_one_r(args.weka, path)
            c = candor_one_r(args.candor, path, os.path.join(tmp, "model.json"))
            same = w[0] == c[0] and abs(w[1] - c[1]) < 1e-9
            agree += same
            total += 1
            print(f"{name:24} weka {w[0]} {w[1]:g}  candor {c[0]} {c[1]:g}  {'same' if same else 'DIFFERENT'}")
    print(f"{agree} of {total} files agree")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
