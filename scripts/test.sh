#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
