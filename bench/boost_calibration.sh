#!/bin/bash
# Boosting with and without --calibrate temperature on the 38 corpus sets of 50 to 5,000 rows
# (docs/boosting.md, "Calibrated ensembles"); one learner per grid, 10-fold CV, seed 1.
#   bench/boost_calibration.sh [OUT=out/boost_calibration] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline kbs-tree
set -euo pipefail
out=${1:-out/boost_calibration}
data=${2:-data/corpus}
sets=$(python3 -c "
import csv, sys
rows = csv.DictReader(open(sys.argv[1] + '/INDEX.tsv'), delimiter='\t')
print(' '.join(r['name'] for r in rows if 50 <= int(r['rows']) <= 5000 and '.test' not in r['name']
               and '.train' not in r['name'] and not r['name'].startswith('weather.')))" "$data")
mkdir -p "$out"
config="$out/config.json"
python3 -c "import json, sys; json.dump({'learners': {}, 'resampling': {'kind': 'cv', 'folds': 10, 'repeats': 1},
  'seed': 1, 'metrics': ['accuracy', 'log_loss', 'ece', 'rules', 'fit_seconds']}, open(sys.argv[1], 'w'))" "$config"
run() {
  # A one-learner grid ends, after writing every result, with "comparing learners needs at least two
  # learners"; any other failure stops here.
  if ! build/candor experiment grid --config "$config" --learner "$1=$2" --out "$out/$1" --datasets-dir "$data" \
       --threads 2 --datasets $sets > "$out/$1.log" 2>&1; then
    grep -q "needs at least two learners" "$out/$1.log" || { cat "$out/$1.log" >&2; exit 2; }
  fi
}
for variant in "kbs-tree|--boosting kbs --base tree" "ada-tree|--boosting adaboost-m1 --base tree" \
               "logit-stump|--boosting logitboost" "kbs-stump|--boosting kbs --base stump"; do
  name=${variant%%|*}
  options=${variant#*|}
  run "$name" "--learner boost $options"
  run "$name-temp" "--learner boost $options --calibrate temperature"
done
head -1 "$out/kbs-tree/results.csv" > "$out/all.csv"
for f in "$out"/*/results.csv; do tail -n +2 "$f" >> "$out/all.csv"; done
