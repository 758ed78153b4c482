#!/usr/bin/env bash
# One clang build with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer, every finding
# fatal, into build-fuzz/ (-O2 with line tables only, so reports carry lines at a fraction of full debug
# information's compile time; a unity build, as scripts/build.sh explains): the library, the CLI, the test suite
# and the libFuzzer targets (instrumented with fuzzer-no-link; only the fuzzers link libFuzzer). Both
# scripts/sanitize.sh (the suite under the sanitizers) and scripts/fuzz.sh use it, so the test command
# compiles the sanitized library once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" -DCMAKE_UNITY_BUILD=ON -DCANDOR_BUILD_FUZZ=ON \
  -DCANDOR_BUILD_TESTS=ON -DCANDOR_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-fuzz -j"$(nproc)" >&2
