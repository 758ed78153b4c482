#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer, every
# sanitizer finding fatal, in the clang build that the fuzzers share (scripts/sanitized_build.sh,
# build-fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/sanitized_build.sh
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-fuzz --output-on-failure -j"$(nproc)"
