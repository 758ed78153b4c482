"""bench/honesty_generated.py measures rules against their truth on data sets of the sizes it is given."""
import csv
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("CANDOR_CLI", str(ROOT / "build" / "candor"))
SCRIPT = ROOT / "bench" / "honesty_generated.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), "--candor", CLI, *args], capture_output=True, text=True)


def test_the_data_sets_take_the_sizes_given_in_turn(tmp_path):
    out = tmp_path / "points.csv"
    done = run("--sets", "3", "--sizes", "400,700", "--learner", "default=", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = {(int(p["set"]), int(p["rows"])) for p in csv.DictReader(open(out))}
    assert {(0, 400), (1, 700), (2, 400)} <= rows
    assert {n for _, n in rows} == {400, 700}
    assert "  400 rows:" in done.stdout and "  700 rows:" in done.stdout
    assert "300 rows" not in done.stdout


def test_sizes_that_are_not_row_counts_are_refused_with_the_reason():
    for sizes, reason in [("300,x", "give whole numbers of rows"), ("5", "at least 10 rows")]:
        done = run("--sizes", sizes)
        assert done.returncode == 2
        assert f"--sizes {sizes}: " in done.stderr and reason in done.stderr
