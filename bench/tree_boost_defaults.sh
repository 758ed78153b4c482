#!/bin/bash
# The defaults of `tree` and `boost` against the forms they replaced, on the 38 corpus sets of 50 to 5,000
# rows (docs/boosting.md, "The defaults"): each learner as it is fitted with no options, and with the
# options of before spelled out (Laplace leaves; --calibrate none, KBS one ensemble per class); one learner
# per grid, 10-fold CV, seed 1, so that fit times compare. About 20 minutes on 2 cores.
#   bench/tree_boost_defaults.sh [OUT=out/tree_boost_defaults] [DATASETS_DIR=data/corpus]
# Then: bench/default_table.py OUT/all.csv --baseline tree-before (and --baseline NAME-before for each)
set -euo pipefail
out=${1:-out/tree_boost_defaults}
data=${2:-data/corpus}
. "$(dirname "$0")/grid_lib.sh"
sets=$(corpus_sets_up_to_5000 "$data")
mkdir -p "$out"
config="$out/config.json"
cv_grid_config "$config" 10 accuracy log_loss ece rule_rmse rules fit_seconds
run() { one_learner_grid "$config" "$out" "$data" "$1" "$2" $sets; }
run tree-before "--learner tree --leaf-estimate laplace"
run tree "--learner tree"
run kbs-stump-before "--learner boost --calibrate none --multiclass one-vs-rest"
run kbs-stump "--learner boost"
run kbs-tree-before "--learner boost --base tree --calibrate none --multiclass one-vs-rest"
run kbs-tree "--learner boost --base tree"
run ada-tree-before "--learner boost --boosting adaboost-m1 --base tree --calibrate none"
run ada-tree "--learner boost --boosting adaboost-m1 --base tree"
run logitboost-before "--learner boost --boosting logitboost --calibrate none"
run logitboost "--learner boost --boosting logitboost"
all_results "$out" tree-before
