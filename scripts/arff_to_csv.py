#!/usr/bin/env python3
"""Fuzzing seeds: the first ROWS data lines of an ARFF file as CSV (header from the attribute names).

    arff_to_csv.py FILE.arff ROWS

Seeds need not be faithful conversions (sparse rows, quoting and weights pass through as text): they only
have to look like the CSV files people write."""
import re
import sys


def main():
    path, rows = sys.argv[1], int(sys.argv[2])
    names, data = [], False
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            text = line.strip()
            if not data:
                m = re.match(r"@attribute\s+('[^']*'|\"[^\"]*\"|\S+)", text, re.IGNORECASE)
                if m:
                    names.append(m.group(1).strip("'\""))
                elif text.lower().startswith("@data"):
                    data = True
                    out.append(",".join(names))
            elif text and not text.startswith("%"):
                out.append(text)
                if len(out) > rows:
                    break
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
