"""The bench scripts write every file through bench/bench_files.py: whole, through a temporary file renamed over
the target, keeping the target's mode, and leaving the old file in place when the writing fails."""
import os
import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_files  # noqa: E402


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_gets_the_mode_open_gives_and_no_temporary_file_stays(tmp_path):
    umask = os.umask(0o022)
    try:
        target = tmp_path / "table.md"
        bench_files.write_text(str(target), "| a |\n")
    finally:
        os.umask(umask)
    assert target.read_text() == "| a |\n"
    assert mode(target) == 0o644  # not the 0600 of the temporary file it was written to
    assert os.listdir(tmp_path) == ["table.md"]


@pytest.mark.parametrize("kept", [0o640, 0o755, 0o600])
def test_an_existing_file_keeps_its_mode(tmp_path, kept):
    target = tmp_path / "peers.csv"
    target.write_text("old\n")
    os.chmod(target, kept)
    bench_files.write_csv(str(target), [{"dataset": "iris", "accuracy": 0.94}])
    assert target.read_text() == "dataset,accuracy\niris,0.94\n"
    assert mode(target) == kept
    assert os.listdir(tmp_path) == ["peers.csv"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "data.arff"
    target.write_text("@relation old\n")
    with pytest.raises(KeyboardInterrupt):
        with bench_files.replaced(str(target)) as f:
            f.write("@relation new\n")
            raise KeyboardInterrupt  # an interrupted run
    assert target.read_text() == "@relation old\n"
    assert os.listdir(tmp_path) == ["data.arff"]


def test_rows_that_cannot_be_written_leave_the_old_table(tmp_path):
    target = tmp_path / "peers.csv"
    target.write_text("dataset,accuracy\nvote,0.96\n")
    with pytest.raises(ValueError):
        bench_files.write_csv(str(target), [{"dataset": "iris"}, {"dataset": "wine", "unknown": 1}])
    assert target.read_text() == "dataset,accuracy\nvote,0.96\n"
    assert os.listdir(tmp_path) == ["peers.csv"]
