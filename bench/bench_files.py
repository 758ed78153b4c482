"""Files the bench scripts write: whole, through a temporary file renamed over the target, so that an
interrupted run never leaves half a table where a finished one stood (DESIGN.md, section 6)."""
import csv
import os


def write_csv(path, rows, fieldnames=None):
    """Writes `rows` (dicts) to the CSV file `path`, with `fieldnames` or the first row's keys as its header."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames or rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)
