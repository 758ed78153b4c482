#!/usr/bin/python3
"""Stable rules (--stable-resamples) against the learners they start from, on the corpus: accuracy, log loss,
rules, rule-set stability and prediction agreement (`candor evaluate DATA --stability B`), means over the sets
of examples/defaults/honest_default.json (docs/stability.md, "Stable rules").

    bench/stable_rules.py [--candor build/candor] [--resamples 10] [--resampling bootstrap|subsample|folds]
                          [--only REGEX] [--datasets a,b,...] [--out FILE.csv]

--resampling folds measures stability as SIRUS does: over the training sets of a stratified cross-validation
with --resamples folds. --only keeps the configurations whose label matches REGEX.
"""
import argparse
import json
import re
import subprocess
from pathlib import Path

from bench_files import write_csv

CONFIGS = {
    "rule-logistic (default)": "--learner rule-logistic",
    "cn2-unordered": "--learner cn2-unordered",
    "cn2-unordered stable 0.5": "--learner cn2-unordered --stable-resamples 20 --stable-frequency 0.5",
    "cn2-unordered stable 0.5, length 2": "--learner cn2-unordered --stable-resamples 20 --stable-frequency 0.5 "
                                          "--max-rule-length 2",
    "cn2-unordered stable 0.7": "--learner cn2-unordered --stable-resamples 20 --stable-frequency 0.7",
    "rule-logistic stable 0.5": "--learner rule-logistic --stable-resamples 20 --stable-frequency 0.5",
    "rule-logistic stable 0.5, gradient candidates": "--learner rule-logistic --candidates gradient "
                                                     "--stable-resamples 20 --stable-frequency 0.5",
    "rule-logistic stable 0.5, gradient candidates of one condition": "--learner rule-logistic --candidates "
                                                                      "gradient --stable-resamples 20 "
                                                                      "--stable-frequency 0.5 --max-rule-length 1",
    "rule-logistic stable 0.5, gradient candidates of two conditions": "--learner rule-logistic --candidates "
                                                                       "gradient --stable-resamples 20 "
                                                                       "--stable-frequency 0.5 --max-rule-length 2",
    "rule-logistic stable 0.35": "--learner rule-logistic --stable-resamples 20 --stable-frequency 0.35",
    "rule-logistic stable 0.6": "--learner rule-logistic --stable-resamples 20 --stable-frequency 0.6",
    "rule-logistic stable 0.7": "--learner rule-logistic --stable-resamples 20 --stable-frequency 0.7",
    "rule-logistic stable 0.5, 10 rules": "--learner rule-logistic --stable-resamples 20 --stable-frequency 0.5 "
                                          "--max-rules 10",
    "rule-logistic stable 0.5, every frequent rule": "--learner rule-logistic --stable-resamples 20 "
                                                     "--stable-frequency 0.5 --stable-size frequent",
    "rule-logistic stable 0.5, on the quantiles, every frequent rule": "--learner rule-logistic --stable-resamples 20 "
                                                                      "--stable-frequency 0.5 --stable-thresholds "
                                                                      "quantiles --stable-size frequent",
    "rule-logistic, gradient prune stop": "--learner rule-logistic --gradient-prune stop",
    "rule-logistic, gradient prune cut": "--learner rule-logistic --gradient-prune cut",
}
KEYS = ["accuracy", "log_loss", "rules", "rule_set_stability", "prediction_agreement"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--candor", default="build/candor")
    ap.add_argument("--corpus", default="data/corpus")
    ap.add_argument("--resamples", type=int, default=10)
    ap.add_argument("--resampling", default="bootstrap", choices=["bootstrap", "subsample", "folds"])
    ap.add_argument("--only", default=None, help="a regular expression the configurations' labels must match")
    ap.add_argument("--datasets", default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    names = (a.datasets.split(",") if a.datasets else
             json.load(open("examples/defaults/honest_default.json"))["datasets"])
    configs = {k: v for k, v in CONFIGS.items() if a.only is None or re.search(a.only, k)}
    rows = []
    for name in names:
        for label, options in configs.items():
            out = subprocess.run([a.candor, "evaluate", str(Path(a.corpus) / f"{name}.arff"), *options.split(),
                                  "--stability", str(a.resamples), "--resampling", a.resampling, "--format", "json"],
                                 check=True, capture_output=True, text=True).stdout
            j = json.loads(out)
            s = j["stability"]
            row = {"dataset": name, "config": label, "accuracy": j["accuracy"], "log_loss": j["log_loss"],
                   "rules": j["rules"], "rule_set_stability": s["rule_set_stability"],
                   "prediction_agreement": s["prediction_agreement"]}
            rows.append(row)
            print(name, label, *(f"{row[k]:.3f}" for k in KEYS), flush=True)
    if a.out:
        write_csv(a.out, rows, ["dataset", "config", *KEYS])
    print(f"\n| configuration | {' | '.join(KEYS)} |\n|---|{'---|' * len(KEYS)}")
    for label in configs:
        mine = [r for r in rows if r["config"] == label]
        print(f"| {label} | " + " | ".join(f"{sum(r[k] for r in mine) / len(mine):.3f}" for k in KEYS) + " |")


if __name__ == "__main__":
    main()
