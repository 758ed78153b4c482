#!/bin/bash
# Boosting with and without --calibrate temperature and discount (and, for KBS, --calibrate smoothing) on the
# 38 corpus sets of 50 to 5,000 rows (docs/boosting.md, "Calibrated ensembles" and "Discounted rounds"); one
# learner per grid, 10-fold CV, seed 1.
#   bench/boost_calibration.sh [OUT=out/boost_calibration] [DATASETS_DIR=data/corpus]
# ONLY=REGEX runs the ensembles whose name (kbs-tree, ada-tree, logit-stump, kbs-stump, kbs-tree-softmax,
# kbs-stump-softmax, kbs-rule, kbs-rule-softmax) matches it.
# Then: bench/default_table.py OUT/all.csv --baseline kbs-tree
set -euo pipefail
out=${1:-out/boost_calibration}
data=${2:-data/corpus}
. "$(dirname "$0")/grid_lib.sh"
sets=$(corpus_sets_up_to_5000 "$data")
mkdir -p "$out"
config="$out/config.json"
cv_grid_config "$config" 10 accuracy log_loss ece rules fit_seconds
run() { one_learner_grid "$config" "$out" "$data" "$1" "$2" $sets; }
# The KBS forms are spelled out: the default form depends on --calibrate (softmax over calibrated trees).
for variant in "kbs-tree|--boosting kbs --base tree --multiclass one-vs-rest" \
               "ada-tree|--boosting adaboost-m1 --base tree" \
               "logit-stump|--boosting logitboost" "kbs-stump|--boosting kbs --base stump --multiclass one-vs-rest" \
               "kbs-tree-softmax|--boosting kbs --base tree --multiclass softmax" \
               "kbs-stump-softmax|--boosting kbs --base stump --multiclass softmax" \
               "kbs-rule|--boosting kbs --base rule --multiclass one-vs-rest" \
               "kbs-rule-softmax|--boosting kbs --base rule --multiclass softmax"; do
  name=${variant%%|*}
  options=${variant#*|}
  [[ $name =~ ${ONLY:-.} ]] || continue
  run "$name" "--learner boost $options --calibrate none"
  run "$name-temp" "--learner boost $options --calibrate temperature"
  run "$name-discount" "--learner boost $options --calibrate discount"
  [[ $name == kbs-tree || $name == kbs-stump ]] && run "$name-smooth" "--learner boost $options --calibrate smoothing"
done
all_results "$out" kbs-tree
