"""Experiment grids from Python: the runner of `candor experiment grid`, here or on a Dask cluster."""
import json
import os
import threading

from . import _core

__all__ = ["grid"]


def _config_text(config):
    """The grid as JSON text and the name its errors cite: a dict, a JSON string or a JSON file's path."""
    if isinstance(config, dict):
        return json.dumps(config), "<grid dict>"
    if isinstance(config, (str, os.PathLike)):
        text = os.fspath(config)
        if text.lstrip().startswith("{"):
            return text, "<grid JSON>"
        with open(text, encoding="utf-8") as f:
            return f.read(), text
    raise ValueError("a grid is a dict, a JSON string or the path of a JSON file, not %r" % type(config).__name__)


# One cell runner per worker process and grid: each data set is read once per process, not once per cell.
_RUNNERS = {}
_RUNNERS_LOCK = threading.Lock()


def _run_cell(config_json, source, datasets_dir, cell):
    """Runs one (data set, learner, repeat, fold, stability) cell on a worker; returns (stability, line): a
    line of results.csv, or of stability.csv for a stability cell."""
    key = (config_json, source, datasets_dir)
    with _RUNNERS_LOCK:
        runner = _RUNNERS.get(key)
        if runner is None:
            runner = _RUNNERS[key] = _core.GridCellRunner(config_json, source, datasets_dir)
    dataset, learner, repeat, fold, stability = cell
    return stability, runner.run(dataset, learner, repeat, fold, stability, threads=1)


def grid(config, client=None, *, out, datasets_dir=None, threads=0, plots=False, progress=False):
    """Runs an experiment grid and returns its results.csv as a pandas DataFrame.

    ``config`` is what ``candor experiment grid --config`` reads (a dict, JSON text or a JSON file's path:
    learners, datasets, resampling, seed, metrics, control, alpha, stability). Every (data set, learner,
    repeat, fold) cell appends one line to ``out/results.csv``; with ``"stability": {"resamples": B}`` every
    (data set, candor learner) pair also gets a stability cell (B resample fits of the whole data set), a line
    of ``out/stability.csv``. Cells already written are skipped, so an interrupted grid resumes where it
    stopped, from Python or from the CLI, with the same folder. When every cell is done the learners are
    compared (``out/summary.md``, means, Friedman tests, stability means, and CD diagrams when ``plots``).

    With ``client=None`` the cells run here on ``threads`` threads (0: all cores), exactly as the CLI runs
    them. With a ``dask.distributed.Client`` each cell is a task on the cluster (one thread per cell); lines
    are written here as tasks finish. The splits depend only on the seed, the data set and the repeat, and
    the learners are deterministic, so every column but fit_seconds and predict_seconds (of either file) is
    identical to a local run. Workers read the data themselves: give paths (and ``datasets_dir``) that the workers see.
    ``datasets_dir`` (where data sets named without a path are found) defaults to $CANDOR_DATASETS_DIR or
    the folder the package was built with.
    """
    import pandas as pd

    text, source = _config_text(config)
    if datasets_dir is None:
        datasets_dir = os.environ.get("CANDOR_DATASETS_DIR", _core.default_datasets_dir)
    datasets_dir = os.path.abspath(datasets_dir)
    out = os.path.abspath(os.fspath(out))
    if client is None:
        _core.run_grid(text, source, out, datasets_dir, threads=threads, plots=plots, progress=progress)
    else:
        from distributed import as_completed

        runner = _core.GridCellRunner(text, source, datasets_dir)
        pending = runner.prepare(out, progress=progress)
        futures = [client.submit(_run_cell, text, source, datasets_dir, cell, pure=False) for cell in pending]
        try:
            for n, future in enumerate(as_completed(futures), 1):
                stability, line = future.result()
                _core.append_grid_result(out, line, stability)
                if progress:
                    print("grid: %d/%d cells run on the cluster" % (n, len(futures)), flush=True)
        except BaseException:
            # The lines written so far stay: rerunning the grid resumes after them.
            client.cancel(futures)
            raise
        runner.summarise(out, plots=plots, progress=progress)
    return pd.read_csv(os.path.join(out, "results.csv"))
