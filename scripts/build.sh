#!/usr/bin/env bash
# Installs dependencies (if missing) and builds candor into build/: the library, the CLI, the tests and the
# benchmarks; or only the targets named (scripts/build.sh candor_cli builds the CLI alone, as the demo does).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python package builds its own (pip install ., as docs/guide-python.md says). A unity build (CMake joins
# the sources of a target into batches of eight) compiles the tree in a little over half the time, because
# the heavy headers (Eigen, nlohmann-json, GoogleTest) are parsed once per batch; the models it fits are
# byte-identical to a file-by-file build's (bench/same_models.py). Incremental work is quicker without it:
# configure your own build directory with -DCMAKE_UNITY_BUILD=OFF, the default.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}" >&2
