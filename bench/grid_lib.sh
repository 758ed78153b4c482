# Shared by the bench scripts that run one learner per grid (sourced, not run).

# one_learner_grid CONFIG OUT DATA NAME OPTIONS SETS...: `candor experiment grid` with one learner into
# OUT/NAME. Such a grid ends, after writing every result, with "comparing learners needs at least two
# learners"; any other failure stops the calling script with exit 2.
one_learner_grid() {
  local config=$1 out=$2 data=$3 name=$4 options=$5
  shift 5
  if ! build/candor experiment grid --config "$config" --learner "$name=$options" --out "$out/$name" \
       --datasets-dir "$data" --threads 2 --datasets "$@" > "$out/$name.log" 2>&1; then
    grep -q "needs at least two learners" "$out/$name.log" || { cat "$out/$name.log" >&2; exit 2; }
  fi
}

# corpus_sets_up_to_5000 DATA: the corpus sets of 50 to 5,000 rows without the split files and the weather
# toys (candor's corpus_sets_up_to), space-separated.
corpus_sets_up_to_5000() {
  python3 -c "
import csv, sys
rows = csv.DictReader(open(sys.argv[1] + '/INDEX.tsv'), delimiter='\t')
print(' '.join(r['name'] for r in rows if 50 <= int(r['rows']) <= 5000 and '.test' not in r['name']
               and '.train' not in r['name'] and not r['name'].startswith('weather.')))" "$1"
}

# all_results OUT FIRST: OUT/all.csv, the header of OUT/FIRST/results.csv and every OUT/*/results.csv's rows.
all_results() {
  head -1 "$1/$2/results.csv" > "$1/all.csv"
  for f in "$1"/*/results.csv; do tail -n +2 "$f" >> "$1/all.csv"; done
}

# cv_grid_config FILE FOLDS METRIC...: the grid config the one-learner grids share (no learners of its own:
# one_learner_grid names each), stratified FOLDS-fold CV, seed 1, the METRICs listed.
cv_grid_config() {
  python3 -c "import json, sys; json.dump({'learners': {}, 'resampling': {'kind': 'cv', 'folds': int(sys.argv[2]),
    'repeats': 1}, 'seed': 1, 'metrics': sys.argv[3:]}, open(sys.argv[1], 'w'))" "$@"
}
