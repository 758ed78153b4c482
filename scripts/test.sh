#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, checks the C++ formatting (scripts/format_check.sh),
# runs every test through CTest, checks that the installed C++ library builds and runs examples/cpp
# (scripts/install_check.sh), builds the Python package and runs its tests (scripts/python.sh), then runs
# the C++ suite again under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh) and
# fuzzes each reader for a minute (scripts/fuzz.sh), both in one sanitized clang build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/format_check.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
scripts/install_check.sh
scripts/python.sh
scripts/sanitize.sh
scripts/fuzz.sh 60
