"""Files the bench scripts read and write. Written whole, through a temporary file renamed over the target, so
that an interrupted run never leaves half a table where a finished one stood (DESIGN.md, section 6)."""
import csv
import json
import os
import sys


def write_csv(path, rows, fieldnames=None):
    """Writes `rows` (dicts) to the CSV file `path`, with `fieldnames` or the first row's keys as its header."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames or rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def config_datasets(path, script):
    """The data set names under "datasets" of a grid config (examples/defaults/*.json); a config without
    them ends `script` with exit 2 and the reason."""
    try:
        with open(path) as f:
            sets = json.load(f)["datasets"]
        if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
            raise TypeError("not a list of names")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{script}: {path}: no list of data sets under 'datasets' ({e})", file=sys.stderr)
        sys.exit(2)
    return sets
