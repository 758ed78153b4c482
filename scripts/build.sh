#!/usr/bin/env bash
# Installs dependencies (if missing) and builds candor into build/: the library, the CLI, the tests, the
# benchmarks and the Python extension.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python extension is built here too, for Debian's Python (the one scripts/python.sh's virtual
# environment runs), so that it links the library the CLI and the tests link. A unity build (CMake joins
# the sources of a target into batches of eight) compiles the tree in a little over half the time, because
# the heavy headers (Eigen, nlohmann-json, GoogleTest) are parsed once per batch; the models it fits are
# byte-identical to a file-by-file build's (bench/same_models.py). Incremental work is quicker without it:
# configure your own build directory with -DCMAKE_UNITY_BUILD=OFF, the default.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DCANDOR_BUILD_PYTHON=ON \
  -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j"$(nproc)" >&2
