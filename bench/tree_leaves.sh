#!/bin/bash
# A single tree's leaf estimates on the 38 corpus sets of 50 to 5,000 rows (docs/boosting.md, "Honest
# leaves"): J48's Laplace leaves, counts mixed with one example of the prior, and --leaf-estimate bootstrap;
# one learner per grid, 10-fold CV, seed 1.
#   bench/tree_leaves.sh [OUT=out/tree_leaves] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline tree-laplace
set -euo pipefail
out=${1:-out/tree_leaves}
data=${2:-data/corpus}
sets=$(python3 -c "
import csv, sys
rows = csv.DictReader(open(sys.argv[1] + '/INDEX.tsv'), delimiter='\t')
print(' '.join(r['name'] for r in rows if 50 <= int(r['rows']) <= 5000 and '.test' not in r['name']
               and '.train' not in r['name'] and not r['name'].startswith('weather.')))" "$data")
mkdir -p "$out"
config="$out/config.json"
python3 -c "import json, sys; json.dump({'learners': {}, 'resampling': {'kind': 'cv', 'folds': 10, 'repeats': 1},
  'seed': 1, 'metrics': ['accuracy', 'log_loss', 'ece', 'rule_rmse', 'rules', 'fit_seconds']}, open(sys.argv[1], 'w'))" "$config"
for estimate in laplace counts bootstrap; do
  # A one-learner grid ends, after writing every result, with "comparing learners needs at least two
  # learners"; any other failure stops here.
  if ! build/candor experiment grid --config "$config" --learner "tree-$estimate=--learner tree --leaf-estimate $estimate" \
       --out "$out/$estimate" --datasets-dir "$data" --threads 2 --datasets $sets > "$out/$estimate.log" 2>&1; then
    grep -q "needs at least two learners" "$out/$estimate.log" || { cat "$out/$estimate.log" >&2; exit 2; }
  fi
done
head -1 "$out/laplace/results.csv" > "$out/all.csv"
for f in "$out"/*/results.csv; do tail -n +2 "$f" >> "$out/all.csv"; done
