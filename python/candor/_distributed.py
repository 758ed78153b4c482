"""One fit across Dask workers (docs/guide-distributed.md).

Each partition of X (with its labels and weights) becomes candor data on the worker that holds it, a _Part. The
fit itself runs in C++ in this process (candor/distributed.hpp): it asks the parts for samples of their rows and
for sums over them, and this module only carries its requests (MessagePack bytes) to the parts and their replies
back. The parts' scores (the gradient search's state) are futures, each computed from the one before by a task,
so that a worker lost during the fit is made good by Dask from that lineage and the model does not change.
"""
import numpy as np


class _Part:
    """One partition's rows as candor data (PartRows), made on the worker that holds the partition; the frame it
    was made from is not kept, so that a row costs the worker only candor's copy of it. Dask moves it between
    workers as the part's own bytes (PartRows.to_bytes) and recomputes a lost one from its partition."""

    def __init__(self, rows):
        self._rows = rows

    def __getstate__(self):
        return self._rows.to_bytes()

    def __setstate__(self, state):
        from . import _core

        self._rows = _core.PartRows.from_bytes(state)

    def rows(self):
        return self._rows

    def __len__(self):
        return self._rows.rows

    def __sizeof__(self):
        # What Dask weighs (dask.sizeof falls back to sys.getsizeof): a part's true size keeps its tasks on the
        # worker that holds it rather than copying it to an idle one, where the copy would stay.
        return self._rows.bytes


def _make_part(frame, y, weights, classes, estimator):
    """The part of one partition: labels coded by the classes of all partitions; rows of weight 0 dropped, as a
    fit in one process drops them."""
    import pandas as pd
    from . import _core

    y = pd.Series(np.asarray(y)) if not isinstance(y, pd.Series) else y.reset_index(drop=True)
    if len(y) != len(frame):
        raise ValueError(f"a partition of X has {len(frame)} rows and its partition of y {len(y)} labels: give X and "
                         "y with the same partitions (say, both columns of one Dask DataFrame)")
    if y.isna().any():
        raise ValueError("Input y contains NaN or None")
    codes = pd.Categorical(y, categories=classes).codes.astype(np.int32)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    if len(w) != len(y):
        raise ValueError("a partition of sample_weight is not as long as its partition of X")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("sample weights must be finite and non-negative")
    keep = w > 0
    if not keep.all():
        frame, codes, w = frame.loc[keep.tolist()] if hasattr(frame, "loc") else frame[keep], codes[keep], w[keep]
    return _Part(_core.PartRows(estimator._dataset(frame, False, codes, w)))


def _answer(part, scores, shared, request):
    return part.rows().answer(request, b"" if shared is None else shared, scores)


def _update(part, scores, shared, request):
    return part.rows().update(request, b"" if shared is None else shared, scores)


def _value(value):
    return value


class _Transport:
    """The functions of candor's PartTransport over a Dask client."""

    def __init__(self, client, parts):
        self.client, self.parts = client, parts
        self.scores = [None] * len(parts)
        self.shared = None

    def ask(self, requests):
        futures = [self.client.submit(_answer, p, s, self.shared, r, pure=False)
                   for p, s, r in zip(self.parts, self.scores, requests)]
        return self.client.gather(futures)

    def update(self, requests):
        # Not waited for: the next request that reads the scores waits on them.
        self.scores = [self.client.submit(_update, p, s, self.shared, r, pure=False)
                       for p, s, r in zip(self.parts, self.scores, requests)]

    def end_scores(self):
        # The search is over: the scores' futures are let go, and with them the workers' arrays, once the last
        # updates have run (futures let go while their tasks run are cancelled under the workers, which log it).
        from distributed import wait

        wait([s for s in self.scores if s is not None])
        self.scores = [None] * len(self.parts)

    def share(self, value):
        # A task that returns the value, not scattered data: a worker lost with it computes it again from the task,
        # where a scattered value has no lineage and, once Dask's memory manager has cut its replicas to one
        # (ReduceReplicas, every 2 s), is lost with its worker, cancelling every request that reads it.
        self.shared = self.client.submit(_value, value, pure=False)


def _sorted_classes(values):
    import pandas as pd

    return np.sort(np.asarray(pd.Series(values).to_numpy()))


def fit_on_dask(estimator, X, y, sample_weight, client):
    """Fits `estimator` on the Dask DataFrame X with labels y (a Dask Series of the same partitions), without
    bringing the rows to this process."""
    import dask
    import dask.dataframe as dd
    from . import _core

    if not isinstance(X, dd.DataFrame) or not isinstance(y, dd.Series):
        raise TypeError(f"{type(estimator).__name__}.fit on Dask: X must be a Dask DataFrame and y a Dask Series "
                        "of the same partitions")
    if X.npartitions != y.npartitions:
        raise ValueError(f"X has {X.npartitions} partitions and y {y.npartitions}: give them the same partitions")
    if sample_weight is not None and (not isinstance(sample_weight, dd.Series) or
                                      sample_weight.npartitions != X.npartitions):
        raise ValueError("sample_weight with a Dask X must be a Dask Series of X's partitions")
    if estimator.class_weight is not None:
        raise ValueError("class_weight is not supported for a fit on Dask: give the weights as sample_weight")
    why = _core.refuses_parts(estimator._params_json())
    if why:
        raise ValueError(f"{type(estimator).__name__}.fit on Dask: {why}")
    if client is None:
        from distributed import default_client

        client = default_client()

    # The schema of all the rows: categories as declared, text columns' values collected from every partition, in
    # one pass over the partitions with the classes (each pass reads every partition: from CSV files, a second of
    # a million rows).
    meta = X._meta
    estimator._check_feature_names(meta, reset=True)
    estimator._check_n_features(meta, reset=True)
    text = [name for name in meta.columns
            if str(meta[name].dtype) != "category" and (meta[name].dtype.kind == "O" or
                                                        str(meta[name].dtype) in ("string", "str"))]
    *text_values, class_values = dask.compute(*[X[name].dropna().unique() for name in text], y.dropna().unique())
    text_values = dict(zip(text, text_values))
    names, nominal = [], []
    for name in meta.columns:
        col = meta[name]
        if str(col.dtype) == "category" and not X[name].cat.known:
            col = X[name].cat.as_known()._meta
        elif name in text_values:
            col = text_values[name]
            col = col.astype(meta[name].dtype) if str(meta[name].dtype) in ("string", "str") else col
        names.append(str(name))
        nominal.append(estimator._nominal_values(col, True, str(name)))
    estimator._schema = (names, nominal)
    y_name = getattr(y, "name", None)
    estimator._class_name = str(y_name) if y_name is not None and str(y_name) != "" else "class"
    classes = _sorted_classes(class_values)
    if len(classes) < 2:
        raise ValueError(f"y has {len(classes)} classes; candor's learners need at least two")
    estimator.classes_ = classes

    weights = sample_weight.to_delayed() if sample_weight is not None else [None] * X.npartitions
    parts = [dask.delayed(_make_part)(xp, yp, wp, classes, estimator)
             for xp, yp, wp in zip(X.to_delayed(), y.to_delayed(), weights)]
    parts = client.compute(parts)
    part_rows = client.gather(client.map(len, parts, pure=False))
    if sum(part_rows) == 0:
        raise ValueError("Found array with 0 sample(s) while a minimum of 1 is required.")
    layout = estimator._dataset(meta.iloc[:0], False, np.zeros(0, dtype=np.int32), np.zeros(0))
    transport = _Transport(client, parts)
    _core.set_progress(bool(estimator.verbose))  # the fit's rounds, past 2 seconds, as in one process
    try:
        model, requests, sent = _core.Model.fit_on_parts(layout, [int(n) for n in part_rows], transport.ask,
                                                         transport.update, transport.share, transport.end_scores,
                                                         estimator._params_json(), int(estimator.n_jobs))
    finally:
        _core.set_progress(False)
    estimator.model_ = model
    estimator.distributed_fit_ = {"parts": len(parts), "rows": int(sum(part_rows)), "requests": int(requests),
                                  "bytes": int(sent)}
    return estimator
