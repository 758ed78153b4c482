#!/bin/bash
# The bootstrap's correction of rule probabilities against EVC's on the corpus (docs/bootstrap_vs_evc.md):
# the same learners with --correct none, evc and bootstrap (20 and 10 resamples), one learner per grid so that
# no learner is timed on work another one did.
#   bench/bootstrap_vs_evc.sh [OUT=out/bootstrap_vs_evc] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline cn2-none
# The artificial data with known truth: build/candor experiment evc-artificial (its last three rows).
set -euo pipefail
out=${1:-out/bootstrap_vs_evc}
data=${2:-data/corpus}
config=examples/defaults/honest_default.json
sets=$(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['datasets']))" "$config")
mkdir -p "$out"
empty="$out/no_learners.json"
python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c['learners']={}; json.dump(c, open(sys.argv[2], 'w'))" "$config" "$empty"
. "$(dirname "$0")/grid_lib.sh"
run() { one_learner_grid "$empty" "$out" "$data" "$1" "$2" $sets; }
run cn2-none "--learner cn2-unordered"
run cn2-evc "--learner cn2-unordered --correct evc"
run cn2-boot20 "--learner cn2-unordered --correct bootstrap"
run cn2-boot10 "--learner cn2-unordered --correct bootstrap --bootstrap-resamples 10"
run default "--learner rule-logistic"
run rl-boot20 "--learner rule-logistic --correct bootstrap"
run rl-boot10 "--learner rule-logistic --correct bootstrap --bootstrap-resamples 10"
# The same rules under both corrections: without stopping, the m-estimate's covering learns one rule set and
# only the probabilities differ (rule RMSE compared rule for rule).
run cn2-evc-nostop "--learner cn2-unordered --correct evc --stop none"
run cn2-boot20-nostop "--learner cn2-unordered --correct bootstrap --stop none"
all_results "$out" cn2-none
