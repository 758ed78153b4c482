#!/bin/bash
# KBS over stumps on the multiclass corpus sets of 50 to 5,000 rows (docs/boosting.md, "KBS on many
# classes"): one ensemble over all classes (softmax), one binary ensemble per class (one-vs-rest) at 10, 20,
# 30 and 50 rounds per class, against LogitBoost over regression stumps; the same two forms over trees; one
# learner per grid, 10-fold CV, seed 1; every ensemble uncalibrated (--calibrate none), as measured there
# (docs/boosting.md, "Discounted rounds" and "The defaults" measure the calibrated forms). About 3 minutes
# on 2 cores.
#   bench/kbs_multiclass.sh [OUT=out/kbs_multiclass] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline logitboost
set -euo pipefail
out=${1:-out/kbs_multiclass}
data=${2:-data/corpus}
. "$(dirname "$0")/grid_lib.sh"
sets=$(python3 -c "
import csv, sys
classes = {r['name']: int(r['classes']) for r in csv.DictReader(open(sys.argv[1] + '/INDEX.tsv'), delimiter='\t')}
print(' '.join(s for s in sys.argv[2:] if classes[s] > 2))" "$data" $(corpus_sets_up_to_5000 "$data"))
mkdir -p "$out"
config="$out/config.json"
cv_grid_config "$config" 10 accuracy log_loss ece rule_rmse rules fit_seconds
one_learner_grid "$config" "$out" "$data" logitboost "--learner boost --boosting logitboost --calibrate none" $sets
one_learner_grid "$config" "$out" "$data" kbs-softmax "--learner boost --boosting kbs --base stump --multiclass softmax --calibrate none" $sets
for rounds in 10 20 30 50; do
  one_learner_grid "$config" "$out" "$data" "kbs-one-vs-rest-$rounds" \
    "--learner boost --boosting kbs --base stump --multiclass one-vs-rest --iterations $rounds --calibrate none" $sets
done
one_learner_grid "$config" "$out" "$data" kbs-tree-softmax "--learner boost --base tree --multiclass softmax --calibrate none" $sets
one_learner_grid "$config" "$out" "$data" kbs-tree-one-vs-rest "--learner boost --base tree --multiclass one-vs-rest --calibrate none" $sets
all_results "$out" logitboost
