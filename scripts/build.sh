#!/usr/bin/env bash
# Installs dependencies (if missing) and builds candor into build/: the library, the CLI, the tests, the
# benchmarks and the Python extension.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python extension is built here too, for Debian's Python (the one scripts/python.sh's virtual
# environment runs), so that it links the library the CLI and the tests link.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCANDOR_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j"$(nproc)" >&2
