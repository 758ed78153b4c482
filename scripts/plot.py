#!/usr/bin/env python3
"""Draws the plots an experiment describes in DIR/plots.json (written by `candor experiment`).

Specification: {"figures": [{"file": "x.png", "title": "...", "columns": 3,
  "panels": [{"title": "...", "csv": "points.csv", "where": {"method": "evc"}, "x": "true", "y": "estimated",
              "kind": "scatter" | "line", "group": "column for one series per value", "diagonal": true,
              "xlabel": "...", "ylabel": "...", "xlim": [0, 1], "ylim": [0, 1]}]}]}
Paths are relative to the specification's folder. Uses only matplotlib and the standard library.
"""
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path, cache={}):
    if path not in cache:
        with open(path, newline="") as f:
            cache[path] = list(csv.DictReader(f))
    return cache[path]


def draw_panel(ax, panel, base):
    rows = [r for r in load(os.path.join(base, panel["csv"]))
            if all(r.get(k) == str(v) for k, v in panel.get("where", {}).items())]
    groups = {}
    for r in rows:
        groups.setdefault(r.get(panel["group"], "") if "group" in panel else "", []).append(r)
    for name, rs in groups.items():
        pts = [(float(r[panel["x"]]), float(r[panel["y"]])) for r in rs
               if r[panel["x"]] not in ("", "n/a") and r[panel["y"]] not in ("", "n/a")]
        if panel.get("kind", "scatter") == "line":
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=name or None)
        else:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=6, alpha=0.6, label=name or None)
    if panel.get("diagonal"):
        lo = min(ax.get_xlim()[0], ax.get_ylim()[0])
        hi = max(ax.get_xlim()[1], ax.get_ylim()[1])
        ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    if "xlim" in panel:
        ax.set_xlim(panel["xlim"])
    if "ylim" in panel:
        ax.set_ylim(panel["ylim"])
    ax.set_title(panel.get("title", ""), fontsize=9)
    ax.set_xlabel(panel.get("xlabel", panel["x"]), fontsize=8)
    ax.set_ylabel(panel.get("ylabel", panel["y"]), fontsize=8)
    if "group" in panel and len(groups) > 1:
        ax.legend(fontsize=7)


def main(spec_path):
    base = os.path.dirname(os.path.abspath(spec_path))
    with open(spec_path) as f:
        spec = json.load(f)
    for fig_spec in spec["figures"]:
        panels = fig_spec["panels"]
        cols = min(fig_spec.get("columns", 3), len(panels))
        rows = math.ceil(len(panels) / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows), squeeze=False)
        for ax, panel in zip(axes.flat, panels):
            draw_panel(ax, panel, base)
        for ax in list(axes.flat)[len(panels):]:
            ax.axis("off")
        if "title" in fig_spec:
            fig.suptitle(fig_spec["title"], fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(base, fig_spec["file"]), dpi=110)
        plt.close(fig)
        print("wrote", os.path.join(base, fig_spec["file"]))


if __name__ == "__main__":
    main(sys.argv[1])
