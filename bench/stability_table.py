#!/usr/bin/python3
"""How stable each learner's rules and predictions are on a set of corpus files: `candor evaluate DATA --learner L
--stability B --format json` for each pair, with the 10-fold accuracy beside the stability figures
(docs/stability.md).

    bench/stability_table.py [--candor build/candor] [--resamples 10] [--datasets iris,labor,...]
                             [--learners a,b,...] [--out FILE.md]

The learners are every learner `candor params` lists, unless --learners names some.
"""
import argparse
import json
import subprocess
from pathlib import Path

from bench_files import write_text

DATASETS = ["iris", "labor", "vote", "credit-a", "colic", "diabetes", "heart-statlog", "breast-cancer"]


def registered_learners(candor):
    """The learners' names, in the order of `candor params`'s table of learners."""
    text = subprocess.run([candor, "params"], check=True, capture_output=True, text=True).stdout
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| learner | what |"))
    names = []
    for line in lines[start + 2:]:
        if not line.startswith("| `"):
            break
        names.append(line.split("`")[1])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--corpus", default="data/corpus")
    ap.add_argument("--resamples", type=int, default=10)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--learners", default=None, help="comma-separated (default: every learner)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    learners = a.learners.split(",") if a.learners else registered_learners(a.candor)
    rows = {}
    for name in a.datasets.split(","):
        for learner in learners:
            out = subprocess.run([a.candor, "evaluate", str(Path(a.corpus) / f"{name}.arff"), "--learner", learner,
                                  "--stability", str(a.resamples), "--format", "json"],
                                 check=True, capture_output=True, text=True).stdout
            j = json.loads(out)
            s = j["stability"]
            rows[(name, learner)] = (j["accuracy"], j["rules"], s["rule_set_stability"],
                                     s["prediction_agreement"], s["probability_spread"])
            print(name, learner, *(f"{v:.3f}" for v in rows[(name, learner)]), flush=True)
    lines = ["| learner | accuracy | rules | rule-set stability | prediction agreement | probability spread |",
             "|---|---|---|---|---|---|"]
    names = a.datasets.split(",")
    for learner in learners:
        means = [sum(rows[(n, learner)][i] for n in names) / len(names) for i in range(5)]
        lines.append(f"| {learner} | {means[0]:.3f} | {means[1]:.1f} | {means[2]:.3f} | {means[3]:.3f} | {means[4]:.3f} |")
    per_set = ["", "| data set | " + " | ".join(learners) + " |", "|---|" + "---|" * len(learners)]
    for n in names:
        per_set.append(f"| {n} | " + " | ".join(f"{rows[(n, l)][2]:.2f}" for l in learners) + " |")
    text = "\n".join(lines + per_set) + "\n"
    print(text)
    if a.out:
        write_text(a.out, text)


if __name__ == "__main__":
    main()
