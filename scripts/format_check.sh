#!/usr/bin/env bash
# Checks that every C++ file of the repository is formatted as .clang-format says (Debian 12's
# clang-format 14): exits 1 listing the files that are not. `scripts/format_check.sh --fix` formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [[ ${1:-} == --fix ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if (( ${#bad[@]} )); then
  echo "format check: ${#bad[@]} file(s) differ from .clang-format (run scripts/format_check.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "format check: ${#files[@]} C++ files as .clang-format says"
