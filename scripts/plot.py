#!/usr/bin/env python3
"""Draws the plots an experiment describes in DIR/plots.json (written by `candor experiment`).

Specification: {"figures": [{"file": "x.png", "title": "...", "columns": 3, "panel_size": [3.6, 3.4],
  "panels": [{"title": "...", "csv": "points.csv", "where": {"method": "evc"}, "x": "true", "y": "estimated",
              "kind": "scatter" | "line", "group": "column for one series per value", "diagonal": true,
              "xlabel": "...", "ylabel": "...", "xlim": [0, 1], "ylim": [0, 1],
              "yerr": "column of error bars (line)", "xscale": "log2", "annotate": "column of point labels (line)",
              "overlay": {"csv": "...", "where": {...}, "x": "...", "y": "...", "label": "..."} (stars)}]}]}
A figure with "kind": "cd" is a critical-difference diagram (Demsar 2006, Fig. 1):
  {"kind": "cd", "file": "cd.png", "title": "...", "ranks": {"learner": average rank}, "cd": 1.25,
   "test": "Nemenyi", "groups": [["a", "b"]], "control": "a" (Bonferroni-Dunn: the CD interval around it)}
Paths are relative to the specification's folder. Uses only matplotlib and the standard library.
"""
import csv
import json
import math
import os
import sys
import tempfile
import textwrap

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
            if "yerr" in panel:
                trip = sorted((float(r[panel["x"]]), float(r[panel["y"]]),
                               float(r[panel["yerr"]]) if r[panel["yerr"]] not in ("", "n/a") else 0.0)
                              for r in rs if r[panel["x"]] not in ("", "n/a") and r[panel["y"]] not in ("", "n/a"))
                ax.errorbar([t[0] for t in trip], [t[1] for t in trip], yerr=[t[2] for t in trip], marker="o", ms=3,
                            capsize=2, label=name or None)
                continue
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=name or None)
            if "annotate" in panel:
                for r in rs:
                    if r[panel["x"]] in ("", "n/a") or r[panel["y"]] in ("", "n/a"):
                        continue
                    ax.annotate(r[panel["annotate"]], (float(r[panel["x"]]), float(r[panel["y"]])), fontsize=6,
                                xytext=(3, -8), textcoords="offset points")
        else:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=6, alpha=0.6, label=name or None)
    if "overlay" in panel:
        o = panel["overlay"]
        orows = [r for r in load(os.path.join(base, o["csv"]))
                 if all(r.get(k) == str(v) for k, v in o.get("where", {}).items())]
        opts = [(float(r[o["x"]]), float(r[o["y"]])) for r in orows
                if r[o["x"]] not in ("", "n/a") and r[o["y"]] not in ("", "n/a")]
        ax.scatter([p[0] for p in opts], [p[1] for p in opts], marker="*", s=140, c="k", zorder=5,
                   label=o.get("label"))
        groups["overlay"] = opts
    if panel.get("xscale") == "log2":
        ax.set_xscale("log", base=2)
    if "xlim" in panel:
        ax.set_xlim(panel["xlim"])
    if "ylim" in panel:
        ax.set_ylim(panel["ylim"])
    if panel.get("diagonal"):
        lo = min(ax.get_xlim()[0], ax.get_ylim()[0])
        hi = max(ax.get_xlim()[1], ax.get_ylim()[1])
        ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.set_title(panel.get("title", ""), fontsize=9)
    ax.set_xlabel(panel.get("xlabel", panel["x"]), fontsize=8)
    ax.set_ylabel(panel.get("ylabel", panel["y"]), fontsize=8)
    if "group" in panel and len(groups) > 1:
        ax.legend(fontsize=7)


def draw_cd(fig_spec, path):
    ranks = sorted(fig_spec["ranks"].items(), key=lambda kv: kv[1])
    k = len(ranks)
    cd = fig_spec["cd"]
    lo, hi = 1, max(k, math.ceil(max(r for _, r in ranks)))
    half = (k + 1) // 2
    rows = max(half, k - half)
    fig, ax = plt.subplots(figsize=(7.5, 1.6 + 0.32 * rows))
    ax.set_xlim(lo - 0.9 * (hi - lo) / 3 - 0.2, hi + 0.9 * (hi - lo) / 3 + 0.2)
    top = 0.0
    ax.set_ylim(-(rows + 1.6), 1.6)
    ax.axis("off")
    # the rank axis, best (rank 1) on the left
    ax.plot([lo, hi], [top, top], "k", lw=1)
    for t in range(lo, hi + 1):
        ax.plot([t, t], [top, top + 0.15], "k", lw=1)
        ax.text(t, top + 0.25, str(t), ha="center", va="bottom", fontsize=8)
    # the critical difference
    ax.plot([lo, lo + cd], [top + 1.0, top + 1.0], "k", lw=1.5)
    for x in (lo, lo + cd):
        ax.plot([x, x], [top + 0.9, top + 1.1], "k", lw=1)
    ax.text(lo + cd / 2, top + 1.15, "CD = %.3f (%s)" % (cd, fig_spec.get("test", "")), ha="center", va="bottom",
            fontsize=8)
    left_x, right_x = ax.get_xlim()
    for i, (name, r) in enumerate(ranks):
        if i < half:
            y = -(i + 1) * 0.9 - 0.4
            ax.plot([r, r, left_x + 0.05], [top, y, y], "k", lw=0.8)
            ax.text(left_x + 0.05, y + 0.08, "%s (%.2f)" % (name, r), ha="left", va="bottom", fontsize=8)
        else:
            y = -(k - i) * 0.9 - 0.4
            ax.plot([r, r, right_x - 0.05], [top, y, y], "k", lw=0.8)
            ax.text(right_x - 0.05, y + 0.08, "(%.2f) %s" % (r, name), ha="right", va="bottom", fontsize=8)
    # learners the test cannot separate: thick bars just under the axis
    for g, group in enumerate(fig_spec.get("groups", [])):
        rs = [fig_spec["ranks"][n] for n in group]
        y = top - 0.25 - 0.2 * g
        ax.plot([min(rs) - 0.03, max(rs) + 0.03], [y, y], "k", lw=3, solid_capstyle="round")
    if "control" in fig_spec:
        c = fig_spec["ranks"][fig_spec["control"]]
        ax.axvspan(max(lo, c - cd), min(hi, c + cd), ymin=0, ymax=1, color="tab:blue", alpha=0.12)
    if "title" in fig_spec:
        ax.set_title(fig_spec["title"], fontsize=10)
    fig.tight_layout()
    save(fig, path, 120)


def save(fig, path, dpi):
    """Writes the PNG beside its target and renames it into place: a killed or failed run leaves the previous
    picture whole (as every file candor writes)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format="png", dpi=dpi)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    plt.close(fig)


def main(spec_path):
    base = os.path.dirname(os.path.abspath(spec_path))
    with open(spec_path) as f:
        spec = json.load(f)
    for fig_spec in spec["figures"]:
        if fig_spec.get("kind") == "cd":
            draw_cd(fig_spec, os.path.join(base, fig_spec["file"]))
            print("wrote", os.path.join(base, fig_spec["file"]))
            continue
        panels = fig_spec["panels"]
        cols = min(fig_spec.get("columns", 3), len(panels))
        rows = math.ceil(len(panels) / cols)
        width, height = fig_spec.get("panel_size", [3.6, 3.4])
        fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
        for ax, panel in zip(axes.flat, panels):
            draw_panel(ax, panel, base)
        for ax in list(axes.flat)[len(panels):]:
            ax.axis("off")
        if "title" in fig_spec:
            # Wrapped to the figure's width (about 11 characters an inch at this size), so that a long learner
            # description is not cut off at the edges.
            wrap = max(40, int(width * cols * 11))
            lines = [textwrap.fill(line, wrap) for line in fig_spec["title"].split("\n")]
            fig.suptitle("\n".join(lines), fontsize=10)
        fig.tight_layout()
        save(fig, os.path.join(base, fig_spec["file"]), 110)
        print("wrote", os.path.join(base, fig_spec["file"]))


if __name__ == "__main__":
    main(sys.argv[1])
