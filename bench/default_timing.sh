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
. "$(dirname "$0")/grid_lib.sh"
run() { one_learner_grid "$empty" "$out" "$data" "$1" "$2" $sets; }
run cn2-unordered "--learner cn2-unordered"
run default "--learner rule-logistic"
run rl-full-default-rules "--learner rule-logistic --features rules+attributes"
run cevc10-lift "--learner cn2-unordered --correct evc $P"
run rl-rules-cevc10-lam0.01 "$RL --lambda 0.01 $P"
run rl-rules-cevc10-cv "$RL --lambda-search model $P"
run rl-full-qevc10 "--learner rule-logistic --features rules+attributes --quality evc --correct none --lambda-search attributes $P"
all_results "$out" default
