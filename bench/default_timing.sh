#!/bin/bash
# Fit times of the honest-default candidates, one learner per grid so that no learner is timed on an EVC
# calibration another learner computed (the grid shares calibrations between learners on a fold).
#   bench/default_timing.sh [OUT=out/default_timing] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline cn2-unordered
set -euo pipefail
out=${1:-out/default_timing}
data=${2:-data/corpus}
config=examples/defaults/honest_default.json
sets=$(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['datasets']))" "$config")
P="--evc-permutations 10 --evc-pool classes"
RL="--learner rule-logistic --features rules --quality m-estimate --m-scale 1 --correct evc"
mkdir -p "$out"
empty="$out/no_learners.json"
python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c['learners']={}; json.dump(c, open(sys.argv[2], 'w'))" "$config" "$empty"
run() {
  # A one-learner grid ends, after writing every result, with "comparing learners needs at least two
  # learners"; any other failure stops here.
  if ! build/candor experiment grid --config "$empty" --learner "$1=$2" --out "$out/$1" --datasets-dir "$data" \
       --threads 2 --datasets $sets > "$out/$1.log" 2>&1; then
    grep -q "needs at least two learners" "$out/$1.log" || { cat "$out/$1.log" >&2; exit 2; }
  fi
}
run cn2-unordered "--learner cn2-unordered"
run default "--learner rule-logistic"
run rl-full-default-rules "--learner rule-logistic --features rules+attributes"
run cevc10-lift "--learner cn2-unordered --correct evc $P"
run rl-rules-cevc10-lam0.01 "$RL --lambda 0.01 $P"
run rl-rules-cevc10-cv "$RL --lambda-search model $P"
run rl-full-qevc10 "--learner rule-logistic --features rules+attributes --quality evc --correct none --lambda-search attributes $P"
head -1 "$out/default/results.csv" > "$out/all.csv"
for f in "$out"/*/results.csv; do tail -n +2 "$f" >> "$out/all.csv"; done
