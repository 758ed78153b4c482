#!/usr/bin/env bash
# Installs the built library into a temporary prefix, builds examples/cpp against it with
# find_package(candor), and runs the example on data/vote.arff: the C++ library works as installed, through
# the public headers alone (include/candor/), the only ones installed.
# Needs a configured and built build/ (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install build --prefix "$work/prefix" > /dev/null
cmake -S examples/cpp -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/build" -j"$(nproc)" > /dev/null
out=$("$work/build/fit_and_predict" data/vote.arff)
grep -q "rule-logistic" <<< "$out" || { echo "install check: unexpected output:" >&2; echo "$out" >&2; exit 1; }
grep -q "^row 1: P(democrat) = " <<< "$out" || { echo "install check: no probabilities:" >&2; echo "$out" >&2; exit 1; }
grep -Eq "^cn2-unordered.*: 5-fold accuracy 0\.9[0-9]+, log loss" <<< "$out" ||
  { echo "install check: no cross-validation:" >&2; echo "$out" >&2; exit 1; }
# The installed headers are the public API alone (include/candor/): none of src/'s is installed.
extra=$(find "$work/prefix/include" -name '*.hpp' | grep -v "^$work/prefix/include/candor/[a-z_]*\.hpp$" || true)
[[ -z "$extra" ]] || { echo "install check: private headers installed:" >&2; echo "$extra" >&2; exit 1; }
echo "install check: examples/cpp built against the installed library and ran"
