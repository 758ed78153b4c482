#!/bin/bash
# A single tree's leaf estimates on the 38 corpus sets of 50 to 5,000 rows (docs/boosting.md, "Honest
# leaves"): J48's Laplace leaves, counts mixed with one example of the prior, and --leaf-estimate bootstrap;
# one learner per grid, 10-fold CV, seed 1.
#   bench/tree_leaves.sh [OUT=out/tree_leaves] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline tree-laplace
set -euo pipefail
out=${1:-out/tree_leaves}
data=${2:-data/corpus}
. "$(dirname "$0")/grid_lib.sh"
sets=$(corpus_sets_up_to_5000 "$data")
mkdir -p "$out"
config="$out/config.json"
cv_grid_config "$config" 10 accuracy log_loss ece rule_rmse rules fit_seconds
for estimate in laplace counts bootstrap; do
  one_learner_grid "$config" "$out" "$data" "tree-$estimate" "--learner tree --leaf-estimate $estimate" $sets
done
all_results "$out" tree-laplace
