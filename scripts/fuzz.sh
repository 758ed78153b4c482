#!/usr/bin/env bash
# libFuzzer on each reader: ARFF, CSV/TSV, model files applied to data, and grid configs, and on the SQL export of
# models with arbitrary names and values (fuzz/*_fuzzer.cpp; fuzz/export_fuzz.py does the same for the Python
# and C exports, with Python's parser and the C compiler, after them), built with
# clang, AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer into build-fuzz/ (the build the
# sanitized test suite shares: scripts/sanitized_build.sh). The targets fuzz side by side, one per core.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]    # default 45 (CI); the documented long run is 600 (ten CPU-minutes each)
#   CANDOR_FUZZ_SEED=N scripts/fuzz.sh      # another sequence of inputs (default 1, so that CI runs are alike)
#
# First every kept finding (fuzz/regressions/TARGET/) is run once; then each target fuzzes for the given
# time, seeded from the shared corpus (data/corpus), the inputs of the malformed-input catalogue
# (tests/malformed/) and model files fitted here by every learner. The growing corpus stays in build-fuzz/corpus/TARGET, so a
# later run goes on from it. A finding stops the run with exit 1 and leaves its input in out/fuzz/; copy it
# into fuzz/regressions/TARGET/ once it is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-45}
# libFuzzer and the export fuzz draw from this seed: a run is cut by time, so how far it gets varies, but the
# inputs it tries come in the same order, and a finding prints the seed that reaches it again.
fuzz_seed=${CANDOR_FUZZ_SEED:-1}
scripts/install-deps.sh
datasets=${CANDOR_DATASETS_DIR:-data/corpus}
scripts/sanitized_build.sh

export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
seeds=build-fuzz/seeds
if [[ ! -d $seeds/grid ]]; then
  rm -rf "$seeds" "$seeds.tmp" && mkdir -p "$seeds.tmp"/{arff,csv,model,grid}
  # ARFF and CSV seeds: the head of every corpus file (the readers' whole grammar appears in the first lines).
  for f in "$datasets"/*.arff; do
    name=$(basename "$f" .arff)
    head -c 6000 "$f" > "$seeds.tmp/arff/$name.arff"
    /usr/bin/python3 scripts/arff_to_csv.py "$f" 60 > "$seeds.tmp/csv/$name.csv"
  done
  # The catalogue's inputs: ARFF to the ARFF target, CSV and TSV to the CSV target.
  /usr/bin/python3 tests/malformed/run_catalogue.py --write-inputs "$seeds.tmp/catalogue"
  mv "$seeds.tmp"/catalogue/*.arff "$seeds.tmp/arff/"
  mv "$seeds.tmp"/catalogue/*.csv "$seeds.tmp"/catalogue/*.tsv "$seeds.tmp/csv/"
  mv "$seeds.tmp"/catalogue/*-g.json "$seeds.tmp"/catalogue/*-o-grid.json "$seeds.tmp/grid/"
  mv "$seeds.tmp"/catalogue/*.json "$seeds.tmp/model/"
  # Grid seeds: the catalogue's configs and states above, the example grid, and one of every learner form.
  cp examples/grid.json "$seeds.tmp/grid/"
  printf '%s\n' '{"learners": {"j48": "weka:weka.classifiers.meta.AdaBoostM1 -W weka.classifiers.trees.J48 -- -C 0.25",' \
    '"evc": {"learner": "cn2-unordered", "quality": "evc"}}, "datasets": ["iris", "a.csv", "t.arff:u.arff"],' \
    '"resampling": {"kind": "holdout", "repeats": 2, "test_fraction": 0.3}, "seed": 7, "metrics": ["accuracy"],' \
    '"control": "evc", "alpha": 0.1}' > "$seeds.tmp/grid/weka-and-options.json"
  rm -rf "$seeds.tmp/catalogue"
  # Model seeds: every learner on a few small data sets, each model followed by data to apply it to.
  for name in weather.nominal labor iris lymph; do
    # One per model kind and learner (candor params lists them), EVC among the rule learners' qualities.
    for learner in cn2-unordered cn2-ordered laplace-covering decision-list rule-logistic \
                   "rule-logistic --features rules+attributes" rule stump tree boost pril \
                   "cn2-unordered --quality evc --evc-permutations 10"; do
      seed="$seeds.tmp/model/$name-${learner%% *}-$(echo "$learner" | wc -c).json"
      # shellcheck disable=SC2086
      build-fuzz/candor fit "$datasets/$name.arff" --learner $learner -o "$seed.fit" --threads 1 2>/dev/null || continue
      { cat "$seed.fit"; printf '\n--data--\n'; cat "$seeds.tmp/csv/$name.csv"; } > "$seed"
      rm "$seed.fit"
    done
  done
  mv "$seeds.tmp" "$seeds"
fi

# SQL export seeds: names and values (separated by \x1f) that end comments and literals in SQL and psql.
mkdir -p "$seeds/sql_export"
printf 'x\nDROP TABLE data; --\x1fq"uote\x1fo'"'"'); DROP TABLE data; --\x1f*/ star /*\x1f-- dash\x1f\\! touch x\x1fcl\nass\x1fother' \
  > "$seeds/sql_export/breakouts"
printf 'a\x1fA\x1fx\x1fy\x1fu\x1fv\x1fp\x1fP' > "$seeds/sql_export/case-folding"

mkdir -p out/fuzz
targets=(arff csv model grid sql_export)
for target in "${targets[@]}"; do
  regressions=(fuzz/regressions/$target/*)
  if [[ -e ${regressions[0]} ]]; then
    echo "fuzz: $target: ${#regressions[@]} kept findings" >&2
    "build-fuzz/${target}_fuzzer" "${regressions[@]}" >/dev/null 2>out/fuzz/$target-regressions.log ||
      { cat out/fuzz/$target-regressions.log >&2; exit 1; }
  fi
  mkdir -p "build-fuzz/corpus/$target"
done
# One target per core at a time, each for the full time: the same fuzzing, in a fraction of the wall time.
fuzz_one() {
  local target=$1
  "build-fuzz/${target}_fuzzer" -seed="$fuzz_seed" -max_total_time="$seconds" -max_len=16384 -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="out/fuzz/$target-" "build-fuzz/corpus/$target" "$seeds/$target" \
    > "out/fuzz/$target.log" 2>&1
}
cores=$(nproc)
failed=()
for ((i = 0; i < ${#targets[@]}; i += cores)); do
  batch=("${targets[@]:i:cores}")
  pids=()
  for target in "${batch[@]}"; do
    echo "fuzz: $target for $seconds s, seed $fuzz_seed" >&2
    fuzz_one "$target" &
    pids+=($!)
  done
  for j in "${!batch[@]}"; do
    wait "${pids[j]}" || failed+=("${batch[j]}")
  done
done
for target in "${targets[@]}"; do
  echo -n "fuzz: $target: " >&2
  grep -E "^stat::number_of_executed_units|^Done" "out/fuzz/$target.log" | tr '\n' ' ' >&2
  echo >&2
done
for target in "${failed[@]}"; do
  echo "fuzz: $target found a problem:" >&2
  tail -60 "out/fuzz/$target.log" >&2
done
(( ${#failed[@]} == 0 )) || exit 1
# The Python and C exports of random-named models, parsed and run by Python and the C compiler themselves
# (fuzz/export_fuzz.py), with the package scripts/python.sh installed.
if [[ -x build-python/venv/bin/python ]]; then
  build-python/venv/bin/python fuzz/export_fuzz.py --seconds "$seconds" --seed "$fuzz_seed"
else
  echo "fuzz: the export fuzz needs the Python package: run scripts/python.sh first" >&2
  exit 1
fi
