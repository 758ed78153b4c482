"""candor.grid: the experiment grid runner here and on a Dask cluster of separate worker processes."""
import json
import os
import subprocess

import pandas as pd
import pytest

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "data", "corpus"))

# Three learners x twelve data sets x ten folds: 360 cells.
CONFIG = {
    "learners": {
        "cn2": "",
        "tree": "--learner tree",
        "kbs": "--learner boost --iterations 10",
    },
    "datasets": ["iris", "breast-cancer", "heart-c", "heart-statlog", "labor", "lymph", "glass", "ecoli", "vote",
                 "hepatitis", "promoters", "ionosphere"],
    "resampling": {"kind": "cv", "folds": 10},
    "seed": 3,
}
# Debian's tornado warns that distributed 2022.12 starts its event loop the old way.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

KEY = ["dataset", "learner", "repeat", "fold"]
TIMINGS = ["fit_seconds", "predict_seconds"]


def result_columns(frame):
    """Every column but the timings, one row per cell in cell order: what must not depend on where cells ran."""
    return frame.drop(columns=TIMINGS).sort_values(KEY).reset_index(drop=True)


def result_text(path):
    """results.csv's lines without the timing columns, sorted: the byte-level comparison."""
    with open(path, encoding="utf-8") as f:
        header, *lines = f.read().splitlines()
    names = header.split(",")
    keep = [i for i, n in enumerate(names) if n not in TIMINGS]
    return sorted(",".join(line.split(",")[i] for i in keep) for line in lines)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("local")
    return out, candor.grid(CONFIG, out=out, datasets_dir=DATASETS, threads=2)


def test_local_grid_runs_every_cell(local_run):
    out, frame = local_run
    assert len(frame) == 3 * 12 * 10
    assert set(frame["learner"]) == {"cn2", "tree", "kbs"}
    assert frame.groupby(["dataset", "learner"]).size().eq(10).all()
    # Each data set's folds cover it exactly once.
    iris = frame[(frame["dataset"] == "iris") & (frame["learner"] == "tree")]
    assert iris["test_rows"].sum() == 150
    assert frame["accuracy"].between(0, 1).all() and frame["accuracy"].mean() > 0.7
    assert (out / "summary.md").exists()


def test_local_grid_equals_the_cli(local_run, tmp_path):
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    out, _ = local_run
    config = tmp_path / "grid.json"
    config.write_text(json.dumps(CONFIG))
    subprocess.run([CLI, "experiment", "grid", "--config", str(config), "--out", str(tmp_path / "cli"),
                    "--datasets-dir", DATASETS, "--no-plots"], check=True, capture_output=True)
    assert result_text(tmp_path / "cli" / "results.csv") == result_text(out / "results.csv")


def test_dask_grid_equals_local_grid(local_run, client, tmp_path):
    out, local = local_run
    remote = candor.grid(CONFIG, client, out=tmp_path / "dask", datasets_dir=DATASETS)
    # Both worker processes ran cells (each holds a cell runner for the grid), and this process none.
    assert list(client.run(lambda: len(candor._grid._RUNNERS)).values()) == [1, 1]
    assert not candor._grid._RUNNERS
    assert result_text(tmp_path / "dask" / "results.csv") == result_text(out / "results.csv")
    pd.testing.assert_frame_equal(result_columns(remote), result_columns(local))
    assert (tmp_path / "dask" / "summary.md").exists()


def test_dask_grid_resumes_an_interrupted_results_file(local_run, client, tmp_path):
    out, _ = local_run
    folder = tmp_path / "resumed"
    # A run cut off after 100 cells, the last line half written.
    with open(out / "results.csv", encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    folder.mkdir()
    (folder / "results.csv").write_text("".join(lines[:101]) + lines[101][:20])
    (folder / "grid.json").write_text((out / "grid.json").read_text())
    candor.grid(CONFIG, client, out=folder, datasets_dir=DATASETS)
    after = result_text(folder / "results.csv")
    assert len(after) == 360
    assert after == result_text(out / "results.csv")
    # The 100 cells already there were kept, not run again: their timing columns are the old ones.
    with open(folder / "results.csv", encoding="utf-8") as f:
        assert f.read().splitlines()[1:101] == [line.rstrip("\n") for line in lines[1:101]]


def test_a_grid_started_on_dask_finishes_locally(client, tmp_path):
    small = dict(CONFIG, datasets=["iris", "labor"])
    config = tmp_path / "small.json"
    config.write_text(json.dumps(small))
    candor.grid(str(config), client, out=tmp_path / "g", datasets_dir=DATASETS)
    # The same folder with a learner added: only the new learner's cells run, here.
    bigger = dict(small, learners=dict(small["learners"], stump="--learner stump"))
    frame = candor.grid(bigger, out=tmp_path / "g", datasets_dir=DATASETS)
    assert len(frame) == 4 * 2 * 10
    assert frame[frame["learner"] == "stump"].shape[0] == 20


def test_grid_errors_are_value_errors(client, tmp_path):
    with pytest.raises(ValueError, match="no-such-set"):
        candor.grid(dict(CONFIG, datasets=["no-such-set"]), client, out=tmp_path / "a", datasets_dir=DATASETS)
    with pytest.raises(ValueError, match="unknown key 'learner'"):
        candor.grid({"learner": {}}, out=tmp_path / "b", datasets_dir=DATASETS)
    with pytest.raises(ValueError, match="another learner named 'cn2'"):
        candor.grid(dict(CONFIG, datasets=["iris"]), out=tmp_path / "c", datasets_dir=DATASETS)
        candor.grid(dict(CONFIG, datasets=["iris"], learners={"cn2": "--quality laplace"}), client,
                    out=tmp_path / "c", datasets_dir=DATASETS)
    with pytest.raises(ValueError, match="a grid is a dict"):
        candor.grid(42, out=tmp_path / "d")


def test_a_cell_is_one_results_line():
    runner = candor._core.GridCellRunner(json.dumps(CONFIG), "test", os.path.abspath(DATASETS))
    cells = runner.cells()
    assert len(cells) == 360 and cells[0] == ("iris", "cn2", 0, 0, False)
    line = runner.run("iris", "tree", 0, 3)
    assert line.startswith("iris,tree,0,3,135,15,") and line.endswith("\n") and line.count("\n") == 1
    with pytest.raises(ValueError, match="no repeat 0, fold 10"):
        runner.run("iris", "tree", 0, 10)
    with pytest.raises(ValueError, match="not a learner of the grid"):
        runner.run("iris", "j48", 0, 0)


def stability_text(path):
    """stability.csv's lines without fit_seconds, sorted."""
    with open(path, encoding="utf-8") as f:
        header, *lines = f.read().splitlines()
    assert header.endswith(",mean_rules,fit_seconds")
    return sorted(line.rsplit(",", 1)[0] for line in lines)


def test_stability_cells_on_dask_equal_the_local_ones(client, tmp_path):
    config = {
        "learners": {"cn2": "", "tree": "--learner tree", "j48": "weka:weka.classifiers.trees.J48"},
        "datasets": ["iris", "labor", "vote"],
        "resampling": {"kind": "cv", "folds": 2},
        "seed": 4,
        "stability": {"resamples": 5},
    }
    runner = candor._core.GridCellRunner(json.dumps(config), "test", os.path.abspath(DATASETS))
    cells = runner.cells()
    # Per data set: 2 folds x 3 learners, then a stability cell per candor learner (Weka's J48 has none).
    assert [c for c in cells if c[4]] == [(d, l, 0, 0, True) for d in config["datasets"] for l in ("cn2", "tree")]
    line = runner.run("labor", "tree", 0, 0, True)
    assert line.startswith("labor,tree,5,bootstrap,10,") and line.count(",") == 10
    with pytest.raises(ValueError, match="Weka classifier"):
        runner.run("labor", "j48", 0, 0, True)

    local_config = dict(config, learners={k: v for k, v in config["learners"].items() if k != "j48"})
    candor.grid(local_config, out=tmp_path / "local", datasets_dir=DATASETS, threads=2)
    candor.grid(local_config, client, out=tmp_path / "dask", datasets_dir=DATASETS)
    local = stability_text(tmp_path / "local" / "stability.csv")
    assert len(local) == 6
    assert stability_text(tmp_path / "dask" / "stability.csv") == local
    assert result_text(tmp_path / "dask" / "results.csv") == result_text(tmp_path / "local" / "results.csv")
    frame = pd.read_csv(tmp_path / "dask" / "stability.csv")
    assert frame["rule_set_stability"].between(0, 1).all() and frame["prediction_agreement"].between(0.5, 1).all()
    assert (frame["mean_rules"] > 0).all()
    assert "## Stability" in (tmp_path / "dask" / "summary.md").read_text()


def test_shared_calibration_on_dask_equals_candor_evaluate(client, tmp_path):
    """"evc_calibration": "shared" on separate worker processes: each computes the data set's one
    calibration itself, and every cell is that fold of `candor evaluate --evc-calibration shared`. (evaluate's
    --seed seeds both the folds and the learner's permutations; a grid's seed only the folds, the learners
    keep their own, 1: so seed 1 here.)"""
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    config = {"learners": {"default": "", "cn2": "--learner cn2-unordered"}, "datasets": ["labor", "iris"],
              "resampling": {"kind": "cv", "folds": 4, "evc_calibration": "shared"}, "seed": 1}
    remote = candor.grid(config, client, out=tmp_path / "dask", datasets_dir=DATASETS)
    assert len(remote) == 16
    remote = remote[remote["learner"] == "default"]
    for name in ["labor", "iris"]:
        for mode, same in [("shared", True), ("per-fold", False)]:
            out = subprocess.run([CLI, "evaluate", os.path.join(DATASETS, name + ".arff"), "--folds", "4",
                                  "--seed", "1", "--evc-calibration", mode, "--format", "json"],
                                 check=True, capture_output=True, text=True).stdout
            folds = json.loads(out)["folds"]
            cells = remote[remote["dataset"] == name].sort_values("fold")
            matches = [abs(f["log_loss"] - c) < 1e-6 for f, c in zip(folds, cells["log_loss"])]
            assert all(matches) if same else not all(matches), (name, mode)
