#!/usr/bin/python3
"""Single-fit cost per corpus set: the fit seconds of one learner against another's, or of one build against
another's, as `candor evaluate` reports them.

    bench/fit_ratio.py [--candor build/candor] [--baseline-candor OTHER/candor]
                       [--options "..."] [--baseline-options "--learner cn2-unordered"]
                       [--runs 3] [--datasets-dir data/corpus] [--config examples/defaults/honest_default.json]

Each set runs `candor evaluate DATA --format json --threads 1 --evc-calibration per-fold` with each side's
options: 10-fold CV, where every fold's fit calibrates its own training rows as a single `candor fit` does.
It takes the mean fit seconds per fold, the fastest of --runs runs. The two sides alternate, two sets at a
time on two cores. It prints, per set, both times and their ratio. At the end come the median ratio, the
largest, the ratios on the six largest sets and the sums.

The defaults measure issue 25's single-fit target: the default learner against cn2-unordered, one build.
For a before/after of a change, name the old binary with --baseline-candor and give both sides the same
options, e.g. --baseline-options "". A build from before `--evc-calibration` existed (it calibrated per fold
anyway) runs without that option, so the issue's own baseline, the default of the build it was filed
against, is `--baseline-candor OLD/candor --baseline-options ""`.
"""
import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from bench_files import config_datasets, run_checked

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LARGEST = ["waveform-5000", "spambase", "hypothyroid", "sick", "kr-vs-kp", "segment"]


def fail(message):
    print("fit_ratio.py: " + message, file=sys.stderr)
    sys.exit(2)


@functools.lru_cache(maxsize=None)
def knows_calibration_option(binary):
    """Builds from before the shared calibration calibrate per fold anyway and do not know the option."""
    try:
        proc = subprocess.run([binary, "evaluate", "--help"], capture_output=True, text=True)
    except OSError as e:
        fail(f"{binary}: {e.strerror}")
    return "--evc-calibration" in proc.stdout


def fit_seconds(binary, path, options):
    per_fold = ["--evc-calibration", "per-fold"] if knows_calibration_option(binary) else []
    cmd = [binary, "evaluate", path, "--format", "json", "--threads", "1"] + per_fold + options
    return json.loads(run_checked(cmd, "fit_ratio.py"))["fit_seconds"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candor", default=os.path.join(ROOT, "build", "candor"))
    ap.add_argument("--baseline-candor", help="another build for the baseline side (default: --candor)")
    ap.add_argument("--options", default="", help="learner options of the measured side (default: the default)")
    ap.add_argument("--baseline-options", default="--learner cn2-unordered")
    ap.add_argument("--runs", type=int, default=3, help="runs per set and side; the fastest counts")
    ap.add_argument("--datasets-dir", default=os.path.join(ROOT, "data", "corpus"))
    ap.add_argument("--config", default=os.path.join(ROOT, "examples", "defaults", "honest_default.json"),
                    help="a grid config whose 'datasets' are the sets measured (default: the 44 corpus sets)")
    args = ap.parse_args()
    baseline_binary = args.baseline_candor or args.candor
    sets = config_datasets(args.config, "fit_ratio.py")

    def one(name):
        path = os.path.join(args.datasets_dir, name + ".arff")
        measured = baseline = float("inf")
        for _ in range(args.runs):
            measured = min(measured, fit_seconds(args.candor, path, args.options.split()))
            baseline = min(baseline, fit_seconds(baseline_binary, path, args.baseline_options.split()))
        return name, measured, baseline

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, sets))
    print(f"{'data':16s} {'measured s':>11s} {'baseline s':>11s} {'ratio':>7s}")
    for name, measured, baseline in results:
        print(f"{name:16s} {measured:11.4f} {baseline:11.4f} {measured / baseline:7.2f}")
    ratios = {name: measured / baseline for name, measured, baseline in results}
    print(f"median ratio {statistics.median(ratios.values()):.2f}, largest {max(ratios.values()):.2f}")
    print("on the six largest sets: " + ", ".join(f"{n} {ratios[n]:.2f}" for n in LARGEST if n in ratios))
    print(f"sum of fit seconds: measured {sum(r[1] for r in results):.2f}, baseline {sum(r[2] for r in results):.2f}")


if __name__ == "__main__":
    main()
