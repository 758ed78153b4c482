#!/bin/bash
# PrIL's branching attributes on the 38 corpus sets of 50 to 5,000 rows (docs/pril.md, "Choosing the
# defaults"): none, automatic by the logit model's main effects (paper 004), automatic by one-at-a-time
# association, each at minimum reliabilities 0.5 and 0.7; one learner per grid, 5-fold CV, seed 1.
#   bench/pril_branching.sh [OUT=out/pril_branching] [DATASETS_DIR=data/corpus]
# Prints the table: per setting, the means over data sets of the fold means, and on how many sets it beats
# no branching at the same reliability in adjusted accuracy (wins / ties / losses).
set -euo pipefail
out=${1:-out/pril_branching}
data=${2:-data/corpus}
. "$(dirname "$0")/grid_lib.sh"
sets=$(corpus_sets_up_to_5000 "$data")
mkdir -p "$out"
config="$out/config.json"
cv_grid_config "$config" 5 adjusted_accuracy undecided_rate accuracy fit_seconds
for r in 0.5 0.7; do
  one_learner_grid "$config" "$out" "$data" "pril-b0-r$r" "--learner pril --reliability $r" $sets
  for test in logit association; do
    one_learner_grid "$config" "$out" "$data" "pril-auto-$test-r$r" \
      "--learner pril --reliability $r --branching -1 --branching-test $test" $sets
  done
done
all_results "$out" pril-b0-r0.5
python3 - "$out/all.csv" <<'PY'
import csv, statistics, sys
from collections import defaultdict
cells = defaultdict(lambda: defaultdict(list))
for row in csv.DictReader(open(sys.argv[1])):
    cells[row["learner"]][row["dataset"]].append(row)
mean = lambda rows, k: statistics.mean(float(r[k]) for r in rows)
print("| setting | sets | adjusted accuracy | undecided | accuracy | fit s (median) | adjusted accuracy against no branching: wins / ties / losses |")
print("|---|---|---|---|---|---|---|")
for learner, by_set in cells.items():
    base = cells[learner.replace("auto-logit", "b0").replace("auto-association", "b0")]
    adj = {d: mean(rows, "adjusted_accuracy") for d, rows in by_set.items()}
    ref = {d: mean(rows, "adjusted_accuracy") for d, rows in base.items()}
    w = sum(adj[d] > ref[d] + 1e-9 for d in adj); l = sum(adj[d] < ref[d] - 1e-9 for d in adj)
    print(f"| {learner} | {len(adj)} | {statistics.mean(adj.values()):.4f} "
          f"| {statistics.mean(mean(r, 'undecided_rate') for r in by_set.values()):.4f} "
          f"| {statistics.mean(mean(r, 'accuracy') for r in by_set.values()):.4f} "
          f"| {statistics.median(mean(r, 'fit_seconds') for r in by_set.values()):.4f} | {w} / {len(adj) - w - l} / {l} |")
PY
