#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, checks the C++ formatting (scripts/format_check.sh),
# checks that every source and header compiles on its own (scripts/include_check.py; the unity build hides a
# missing include),
# runs every test through CTest, checks that the installed C++ library builds and runs examples/cpp
# (scripts/install_check.sh), builds the Python package and runs its tests (scripts/python.sh), then runs
# the C++ suite again under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh) and
# fuzzes each reader for 45 seconds (scripts/fuzz.sh), both in one sanitized clang build.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step with its wall time, so that a slow step shows in CI's log.
step() {
  local start=$SECONDS
  "$@"
  echo "test.sh: '$*' took $((SECONDS - start)) s" >&2
}
step scripts/build.sh
step scripts/format_check.sh
step /usr/bin/python3 scripts/include_check.py
step ctest --test-dir build --output-on-failure -j"$(nproc)"
step scripts/install_check.sh
step scripts/python.sh
step scripts/sanitize.sh
step scripts/fuzz.sh 45
