#!/usr/bin/env python3
"""The measurement behind candor's defaults: candidate learners through the grid runner, then the table.

Runs (resumably; a rerun skips finished cells) three grids of `candor experiment grid`, 10-fold CV, seed 1:
  examples/defaults/candidates.json     every stopping x combination x quality x ordered/unordered candidate,
                                        on the 44 corpus sets of 50 to 5,000 rows
  examples/defaults/evc_multiclass.json EVC rule sets against the same learners with Laplace, on the 20
                                        multiclass sets among them
  examples/defaults/large.json          the shortlisted candidates on the corpus sets over 5,000 rows
  examples/defaults/correct_evc.json    three candidates with --correct evc, on the 44 sets
  examples/defaults/m_evc.json          unordered and ordered CN2 ranked by m-evc, on the 44 sets
and writes the deciding tables (Markdown) to --out (default docs/defaults-measured.md): per learner, mean
accuracy over the 44 sets, mean and worst log loss over the 20 binary sets (18 of them among the 44, adult and
mushroom from the large grid), mean and median rules, ECE, AUC, fit seconds, and average ranks.

Usage: python3 scripts/defaults_study.py [--candor build/candor] [--out docs/defaults-measured.md] [--skip-run]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY20 = ["adult", "breast-cancer", "colic", "credit-a", "credit-g", "diabetes", "haberman", "heart-c", "heart-h",
            "heart-statlog", "hepatitis", "ionosphere", "kr-vs-kp", "labor", "mushroom", "promoters", "sick",
            "spambase", "tic-tac-toe", "vote"]
GRIDS = ["candidates", "evc_multiclass", "large", "correct_evc", "m_evc"]


HEADER = """# Every candidate of the defaults study

Written by `python3 scripts/defaults_study.py` from the three grids of `examples/defaults/` (10-fold CV,
seed 1). Learner names: U unordered, O ordered; lap Laplace, mest m-estimate with m = 22.466, mestsqrt
m = sqrt(N) (mestsqrt2: 2 sqrt(N), mestsqrt05: 0.5 sqrt(N)), evc the EVC quality, cevc `--correct evc`; none
or prior the stopping; prob probabilistic covering; then the combination (counts, mcounts m-counts, psum
probability-sum, best best-rule, lift lift-product); w10 beam width 10. docs/defaults.md reads it.

"""


def run_grids(candor, out):
    for g in GRIDS:
        cfg = os.path.join(ROOT, "examples", "defaults", g + ".json")
        if not os.path.exists(cfg):
            continue
        cmd = [candor, "experiment", "grid", "--config", cfg, "--out", os.path.join(out, g), "--no-plots"]
        print("+", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)


def fold_means(path):
    """{(dataset, learner): {metric: mean over folds}} from a grid's results.csv."""
    sums = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (r["dataset"], r["learner"])
            acc = sums.setdefault(key, {})
            for m in ("accuracy", "auc", "brier", "log_loss", "ece", "rule_rmse", "rules", "fit_seconds"):
                if r.get(m) not in (None, ""):
                    acc.setdefault(m, []).append(float(r[m]))
    return {k: {m: sum(v) / len(v) for m, v in d.items()} for k, d in sums.items()}


def ranks(table, learners, datasets, metric, higher):
    total = {l: 0.0 for l in learners}
    used = 0
    for d in datasets:
        vals = [(table[(d, l)][metric], l) for l in learners if (d, l) in table and metric in table[(d, l)]]
        if len(vals) != len(learners):
            continue
        used += 1
        vals.sort(key=lambda x: -x[0] if higher else x[0])
        i = 0
        while i < len(vals):
            j = i
            while j < len(vals) and vals[j][0] == vals[i][0]:
                j += 1
            for q in range(i, j):
                total[vals[q][1]] += (i + j + 1) / 2
            i = j
    return {l: total[l] / used if used else float("nan") for l in learners}, used


def grid_learners(grid):
    with open(os.path.join(ROOT, "examples", "defaults", grid + ".json")) as f:
        return list(json.load(f)["learners"])


def summary_table(learners, datasets, extra):
    """Markdown rows: for each (learner, fold-mean table) with every data set, the means over `datasets` of
    accuracy, log loss, ECE, `extra` (auc or rule_rmse), rules and fit seconds."""
    title = {"auc": "AUC", "rule_rmse": "rule RMSE"}[extra]
    out = [f"| learner | accuracy | log loss | ECE | {title} | rules | fit s |", "|---|---|---|---|---|---|---|"]
    for name, tab in learners:
        rows = [tab[(d, name)] for d in datasets if (d, name) in tab]
        if len(rows) < len(datasets):
            continue
        mean = lambda m: statistics.mean(r[m] for r in rows if m in r)
        out.append(f"| {name} | {mean('accuracy'):.4f} | {mean('log_loss'):.3f} | {mean('ece'):.3f} | "
                   f"{mean(extra):.3f} | {mean('rules'):.1f} | {mean('fit_seconds'):.3f} |")
    return out


def describe(out_dir):
    lines = []
    cand_path = os.path.join(out_dir, "candidates", "results.csv")
    large_path = os.path.join(out_dir, "large", "results.csv")
    table = fold_means(cand_path)
    large = fold_means(large_path) if os.path.exists(large_path) else {}
    learners = grid_learners("candidates")
    sets44 = sorted({d for d, _ in table})
    bin_in = [d for d in BINARY20 if d in sets44]
    acc_rank, n_acc = ranks(table, learners, sets44, "accuracy", True)
    ll_rank, n_ll = ranks(table, learners, sets44, "log_loss", False)
    lines.append(f"### Candidates on the {len(sets44)} corpus sets of 50 to 5,000 rows (10-fold CV, seed 1)\n")
    lines.append("Binary log loss: mean and worst over the 20 binary sets where the large grid has adult and mushroom, "
                 f"else over the {len(bin_in)} binary sets among the 44 (marked *). Ranks: average over the 44 sets "
                 "(1 best).\n")
    lines.append("| learner | accuracy | acc. rank | log loss | LL rank | binary log loss (mean / worst) | ECE | AUC | "
                 "rule RMSE | rules (mean / median) | fit s |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for l in learners:
        rows = [table[(d, l)] for d in sets44 if (d, l) in table]
        if len(rows) < len(sets44):
            continue
        mean = lambda m: statistics.mean(r[m] for r in rows if m in r)
        binary = [table[(d, l)]["log_loss"] for d in bin_in]
        mark = "*"
        if all((d, l) in large for d in ("adult", "mushroom")):
            binary += [large[(d, l)]["log_loss"] for d in ("adult", "mushroom")]
            mark = ""
        rules = [r["rules"] for r in rows]
        lines.append(f"| {l} | {mean('accuracy'):.4f} | {acc_rank[l]:.2f} | {mean('log_loss'):.3f} | {ll_rank[l]:.2f} | "
                     f"{statistics.mean(binary):.3f} / {max(binary):.3f}{mark} | {mean('ece'):.3f} | {mean('auc'):.3f} | "
                     f"{mean('rule_rmse'):.3f} | {statistics.mean(rules):.1f} / {statistics.median(rules):.1f} | "
                     f"{mean('fit_seconds'):.3f} |")
    evc_path = os.path.join(out_dir, "evc_multiclass", "results.csv")
    if os.path.exists(evc_path):
        evc = fold_means(evc_path)
        multi = sorted({d for d, _ in evc})
        lines.append(f"\n### EVC against Laplace on the {len(multi)} multiclass sets among them\n")
        lines += summary_table([(l, evc) for l in grid_learners("evc_multiclass")], multi, "auc")
    if large:
        names = sorted({l for _, l in large})
        big = sorted({d for d, _ in large})
        lines.append(f"\n### The shortlisted candidates on the {len(big)} sets over 5,000 rows\n")
        lines.append("| data set | " + " | ".join(names) + " |")
        lines.append("|---|" + "---|" * len(names))
        for d in big:
            cells = []
            for l in names:
                r = large.get((d, l))
                cells.append("n/a" if r is None else
                             f"{r['accuracy']:.4f} / {r['log_loss']:.3f} / {r['rules']:.0f} / {r['fit_seconds']:.1f}s")
            lines.append(f"| {d} | " + " | ".join(cells) + " |")
        lines.append("\n(each cell: accuracy / log loss / rules / fit seconds, means over 10 folds)")
    cevc_path = os.path.join(out_dir, "correct_evc", "results.csv")
    if os.path.exists(cevc_path):
        cevc = fold_means(cevc_path)
        lines.append(f"\n### --correct evc against the same learner without it, on the {len(sets44)} sets\n")
        pairs = []
        for l in grid_learners("correct_evc"):
            pairs += [(l.replace("-cevc", ""), table), (l, cevc)]
        lines += summary_table(pairs, sets44, "rule_rmse")
    mevc_path = os.path.join(out_dir, "m_evc", "results.csv")
    if os.path.exists(mevc_path):
        mevc = fold_means(mevc_path)
        lines.append(f"\n### m-evc (Orange 2's mEVC, m = sqrt(N)) on the {len(sets44)} sets\n")
        lines += summary_table([(l, mevc) for l in grid_learners("m_evc")], sets44, "rule_rmse")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candor", default=os.path.join(ROOT, "build", "candor"))
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "defaults"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "defaults-measured.md"))
    ap.add_argument("--skip-run", action="store_true", help="only rebuild the tables from finished grids")
    args = ap.parse_args()
    if not args.skip_run:
        run_grids(args.candor, args.work)
    text = HEADER + describe(args.work)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
