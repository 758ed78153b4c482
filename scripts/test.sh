#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test through CTest, then runs it
# again under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
scripts/sanitize.sh
