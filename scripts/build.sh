#!/usr/bin/env bash
# Installs dependencies (if missing) and builds candor into build/. Prints the path of the candor binary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >&2
