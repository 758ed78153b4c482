"""Files the bench scripts read and write. Written whole, through a temporary file renamed over the target, so
that an interrupted run never leaves half a table where a finished one stood (DESIGN.md, section 6)."""
import csv
import json
import os
import subprocess
import sys


def write_csv(path, rows, fieldnames=None):
    """Writes `rows` (dicts) to the CSV file `path`, with `fieldnames` or the first row's keys as its header."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames or rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def write_text(path, text):
    """Writes `text` to `path` whole, through a temporary file renamed over it."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
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


def run_checked(cmd, script):
    """The standard output of `cmd` (an argument vector, never a shell); a program that cannot start or exits
    with an error ends `script` with exit 2, the command and the end of its standard error."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        print(f"{script}: {cmd[0]}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    if proc.returncode != 0:
        print(f"{script}: " + " ".join(cmd) + ": " + proc.stderr.strip()[-2000:], file=sys.stderr)
        sys.exit(2)
    return proc.stdout
