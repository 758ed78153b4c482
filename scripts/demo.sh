#!/usr/bin/env bash
# The main job: install what is missing, build, learn rules from data/vote.arff (the UCI congressional
# voting records, shipped in the repository), print them, then print 10-fold cross-validated metrics.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh candor_cli   # the CLI alone: the demo runs nothing else
mkdir -p out
build/candor fit data/vote.arff -o out/vote-model.json
build/candor rules out/vote-model.json
echo
build/candor evaluate data/vote.arff --folds 10 --seed 1
