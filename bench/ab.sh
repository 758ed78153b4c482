#!/bin/bash
# Times candor builds back to back: each round runs every binary once with the same arguments, so that the
# machine's drift (up to a third within an hour on the development machine) hits them alike; prints each
# binary's fastest and median wall seconds.
#   bench/ab.sh ROUNDS "fit DATA -o /tmp/m.json --threads 1" OLD/candor build/candor
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS \"ARGS\" BINARY..." >&2
  exit 2
fi
rounds=$1
args=$2
shift 2
times=$(mktemp)
trap 'rm -f "$times" "$times.t"' EXIT
for _ in $(seq "$rounds"); do
  for b in "$@"; do
    # shellcheck disable=SC2086  # ARGS is split into words on purpose
    /usr/bin/time -o "$times.t" -f "%e" "$b" $args >/dev/null 2>&1
    echo "$b $(tail -1 "$times.t")" >>"$times"
  done
done
for b in "$@"; do
  grep -F "$b " "$times" | awk '{print $NF}' | sort -n |
    awk -v b="$b" '{a[NR]=$1} END {printf "%s: fastest %.2f s, median %.2f s (%d runs)\n", b, a[1], a[int((NR+1)/2)], NR}'
done
