#!/usr/bin/env python3
"""The seconds per request of bench/dask_fit.py's runs (a JSON-lines file) against the rows each worker holds,
one line per number of workers:

    /usr/bin/python3 bench/dask_fit_plot.py docs/dask_fit.jsonl docs/dask_fit.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    source, out = sys.argv[1], sys.argv[2]
    runs = [json.loads(line) for line in open(source) if line.strip()]
    fig, ax = plt.subplots(figsize=(6, 4))
    # A line per way requests travel, learner, number of workers and machine (the runs before "transport" went as
    # tasks; those before "machine" on the machines of earlier sessions).
    def series(r):
        return r.get("transport", "tasks"), r.get("learner", "rule-logistic"), r["workers"], r.get("machine", "")

    for transport, learner, workers, machine in sorted({series(r) for r in runs}):
        points = sorted((r["rows"] / workers, r["seconds_per_request"]) for r in runs
                        if series(r) == (transport, learner, workers, machine))
        ax.plot([p[0] for p in points], [1000 * p[1] for p in points], "o-" if transport == "actors" else "o:",
                label=f"{learner}, {workers} worker(s), {transport}" + (f", {machine}" if machine else ""))
    ax.set_xscale("log")
    ax.set_xlabel("rows per worker")
    ax.set_ylabel("ms per request (fit time / requests)")
    ax.set_title("One fit across Dask workers: Agrawal data, 2-core machine")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
