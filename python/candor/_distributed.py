"""One fit across Dask workers (docs/guide-distributed.md).

Each partition of X (with its labels and weights) becomes candor data on the worker that holds it, a _Part. The
fit itself runs in C++ in this process (candor/distributed.hpp): it asks the parts for samples of their rows and
for sums over them, and this module only carries its requests (MessagePack bytes) to the parts and their replies
back: through an actor per worker, which keeps its parts' scores (the gradient search's state), and, should an
actor be lost with its worker, through tasks whose scores are futures, each computed from the one before, so that
Dask makes a lost part and its scores good from that lineage and the model does not change (_Transport).
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
    return _Part(_core.PartRows(estimator._dataset(frame, False, codes, w, checked=True)))


def _answer(parts, scores, shared, requests):
    """The replies of one worker's parts to their requests (one task for the worker, not one for each part: each
    task costs the scheduler a few milliseconds, and a fit asks hundreds of times)."""
    shared = b"" if shared is None else shared
    scores = [None] * len(parts) if scores is None else scores
    return [p.rows().answer(r, shared, s) for p, s, r in zip(parts, scores, requests)]


def _update(parts, scores, shared, requests):
    shared = b"" if shared is None else shared
    scores = [None] * len(parts) if scores is None else scores
    return [p.rows().update(r, shared, s) for p, s, r in zip(parts, scores, requests)]


def _value(value):
    return value


class _Host:
    """A Dask actor on the worker that holds a group of parts: it answers their requests, called by this process
    directly rather than through the scheduler (a round trip of a few milliseconds where a task's is over ten),
    and keeps the group's scores and the value last shared. What it keeps is lost with its worker; the
    coordinator then carries on with tasks, from the parts' lineage (_Transport)."""

    def __init__(self, parts):
        self.parts, self.scores, self.shared = parts, None, None

    def ask(self, steps, requests):
        """Carries out the steps since the last call (("share", value), ("update", the group's requests) or
        ("end",)), in order, then answers `requests`."""
        for step in steps:
            if step[0] == "share":
                self.shared = step[1]
            elif step[0] == "update":
                self.scores = _update(self.parts, self.scores, self.shared, step[1])
            else:
                self.scores = None
        return _answer(self.parts, self.scores, self.shared, requests)


class _Transport:
    """The functions of candor's PartTransport over a Dask client. The parts are asked in groups, a group the
    parts one worker held when the fit began.

    Each group is first asked through an actor on its worker (_Host), which holds the group's scores: the steps
    that need no answer (updates, shares) wait in `pending` and go with the next request. Should any actor be
    lost with its worker, the fit goes on with tasks, one a group and request, whose scores are futures: the
    steps taken so far (`steps`) are replayed as tasks from the parts, so that Dask computes a lost part, and the
    scores from it, again elsewhere from their lineage. The answers do not depend on where a part is, so the
    model does not change."""

    def __init__(self, client, parts):
        self.client, self.parts = client, parts
        where = client.who_has(parts)
        groups = {}
        for i, part in enumerate(parts):
            groups.setdefault(min(where[part.key], default=""), []).append(i)
        self.groups = [groups[w] for w in sorted(groups)]
        self.steps, self.pending = [], []
        self.scores, self.shared = [None] * len(self.groups), None  # the task path's futures
        try:
            hosts = [client.submit(_Host, group, actor=True, pure=False, workers=[w] if w else None)
                     for group, w in zip(self._group_parts(), sorted(groups))]
            self.hosts = client.gather(hosts)
        except OSError:
            self.hosts = None

    def _per_group(self, requests):
        return [[requests[i] for i in group] for group in self.groups]

    def _group_parts(self):
        return [[self.parts[i] for i in group] for group in self.groups]

    def _in_part_order(self, group_replies):
        replies = [None] * len(self.parts)
        for group, answers in zip(self.groups, group_replies):
            for i, answer in zip(group, answers):
                replies[i] = answer
        return replies

    def _to_tasks(self):
        """The actors are lost: the steps taken so far, as tasks."""
        self.hosts, self.pending = None, []
        for step in self.steps:
            self._task_step(step)

    def _task_step(self, step):
        if step[0] == "share":
            # A task that returns the value, not scattered data: a worker lost with it computes it again from the
            # task, where a scattered value has no lineage and, once Dask's memory manager has cut its replicas
            # to one (ReduceReplicas, every 2 s), is lost with its worker, cancelling every request that reads it.
            self.shared = self.client.submit(_value, step[1], pure=False)
        elif step[0] == "update":
            # Not waited for: the next request that reads the scores waits on them.
            self.scores = self.client.map(_update, self._group_parts(), self.scores,
                                          [self.shared] * len(self.groups), step[1], pure=False)
        else:
            # No request reads the scores any more: their futures are let go, and with them the workers' arrays,
            # once the last updates have run (futures let go while their tasks run are cancelled under the
            # workers, which log it).
            from distributed import wait

            wait([s for s in self.scores if s is not None])
            self.scores = [None] * len(self.groups)

    def _step(self, step):
        self.steps.append(step)
        if self.hosts is not None:
            self.pending.append(step)
        else:
            self._task_step(step)

    def ask(self, requests):
        per_group = self._per_group(requests)
        if self.hosts is not None:
            try:
                # An actor whose worker Dask knows to be lost refuses the call (ValueError); one whose worker is
                # gone or goes during the call raises OSError. Neither is retried by Dask on an actor made again
                # elsewhere: its calls go to the address of the first.
                methods = [host.ask for host in self.hosts]
            except ValueError:
                methods = None
            if methods is not None:
                calls = [ask([(step[0], step[1][g]) if step[0] == "update" else step for step in self.pending], r)
                         for g, (ask, r) in enumerate(zip(methods, per_group))]
                try:
                    replies = [call.result() for call in calls]
                    self.pending = []
                    return self._in_part_order(replies)
                except OSError:
                    pass
            self._to_tasks()
        futures = self.client.map(_answer, self._group_parts(), self.scores, [self.shared] * len(self.groups),
                                  per_group, pure=False)
        return self._in_part_order(self.client.gather(futures))

    def update(self, requests):
        self._step(("update", self._per_group(requests)))

    def end_scores(self):
        self._step(("end",))

    def share(self, value):
        self._step(("share", value))


def _places(client, frame):
    """A worker for each partition of the persisted `frame`, its part's place: the worker that read it while that
    worker has fewer than its share (the partitions over the workers, rounded up), else the worker with fewest.
    Every request waits on the slowest worker, so a worker given three parts of four where the other has one
    would double the fit's time. A place is a preference (loose restriction): a part lost with its worker is made
    again elsewhere."""
    from distributed import futures_of

    workers = sorted(client.scheduler_info()["workers"])
    keys = frame.__dask_keys__()
    by_key = {str(f.key): f for f in futures_of(frame)}
    where = client.who_has([by_key[str(k)] for k in keys])
    share = -(-len(keys) // len(workers))
    count = dict.fromkeys(workers, 0)
    places = []
    for key in keys:
        held = [w for w in sorted(where.get(str(key), ())) if count.get(w, share) < share]
        places.append(held[0] if held else min(workers, key=lambda w: (count[w], w)))
        count[places[-1]] += 1
    return places


def _sorted_classes(values):
    import pandas as pd

    return np.sort(np.asarray(pd.Series(values).to_numpy()))


def _known_rows(a, what):
    if any(np.isnan(c) for c in a.chunks[0]):
        raise ValueError(f"{what} is a Dask array of chunks of unknown size: call {what}.compute_chunk_sizes() first")


def _as_frames(X, y, sample_weight):
    """Dask arrays as the Dask DataFrame and Series of the same blocks (each block of rows a partition; no row
    moves between workers for it): X's columns named x0, x1, ... as an array's are in one process, and y and
    sample_weight, where X is an array, cut into X's blocks of rows. Whether X was an array is the fourth value."""
    import dask.array as da
    import dask.dataframe as dd

    from ._estimators import _dask_rows

    rows = None
    if isinstance(X, da.Array):
        X = _dask_rows(X)
        _known_rows(X, "X")
        rows = X.chunks[0]
        X = dd.from_dask_array(X, columns=[f"x{j}" for j in range(X.shape[1])])

    def series(v, what):
        if not isinstance(v, da.Array):
            return v
        if v.ndim == 2 and v.shape[1] == 1:
            v = v[:, 0]
        if v.ndim != 1:
            raise ValueError(f"a Dask array {what} must have 1 dimension, not {v.ndim}")
        _known_rows(v, what)
        if rows is not None:
            if v.shape[0] != sum(rows):
                raise ValueError(f"X has {sum(rows)} rows but {what} has {v.shape[0]}")
            v = v.rechunk({0: rows})
        return dd.from_dask_array(v)

    return X, series(y, "y"), series(sample_weight, "sample_weight"), rows is not None


def fit_on_dask(estimator, X, y, sample_weight, client):
    """Fits `estimator` on the Dask DataFrame X with labels y (a Dask Series of the same partitions), without
    bringing the rows to this process."""
    import dask
    import dask.dataframe as dd
    import pandas as pd
    from . import _core

    X, y, sample_weight, from_array = _as_frames(X, y, sample_weight)
    if not isinstance(X, dd.DataFrame) or not isinstance(y, dd.Series):
        raise TypeError(f"{type(estimator).__name__}.fit on Dask: X must be a Dask DataFrame or a 2-d Dask array, "
                        "and y a Dask Series or a 1-d Dask array, of the same partitions")
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

    # The schema of all the rows (categories as declared, text columns' values collected from every partition, the
    # classes) and then the parts, from one read of the partitions: each is read once (from CSV files, two seconds
    # of a million rows) and kept on its worker until its part is made, its text columns as pandas categories of
    # the partition's own values (a byte or two a value, where text costs tens).
    meta = X._meta
    estimator._check_feature_names(meta, reset=True)
    estimator._check_n_features(meta, reset=True)
    if from_array and hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_  # an array's columns have no names, as in one process
    text = [name for name in meta.columns
            if str(meta[name].dtype) != "category" and (meta[name].dtype.kind == "O" or
                                                        str(meta[name].dtype) in ("string", "str"))]
    read = client.persist([X.astype({name: "category" for name in text}) if text else X, y.astype("category")] +
                          ([sample_weight] if sample_weight is not None else []))
    X_read, y_read, w_read = read[0], read[1], read[2] if sample_weight is not None else None
    *text_values, class_values = dask.compute(*[X_read[name].dropna().unique() for name in text],
                                              y_read.dropna().unique())
    text_values = dict(zip(text, text_values))
    names, nominal = [], []
    for name in meta.columns:
        col = meta[name]
        if str(col.dtype) == "category" and not X[name].cat.known:
            col = X_read[name].cat.as_known()._meta
        elif name in text_values:
            # The values themselves, as the column held them (a category's values are the partition's objects).
            col = pd.Series(np.asarray(text_values[name], dtype=object))
            col = col.astype(meta[name].dtype) if str(meta[name].dtype) in ("string", "str") else col
        names.append(str(name))
        nominal.append(estimator._nominal_values(col, True, str(name)))
    estimator._schema = (names, nominal)
    y_name = getattr(y, "name", None)
    estimator._class_name = str(y_name) if y_name is not None and str(y_name) != "" else "class"
    classes = _sorted_classes(np.asarray(class_values))
    if len(classes) < 2:
        raise ValueError(f"y has {len(classes)} classes; candor's learners need at least two")
    estimator.classes_ = classes

    weights = w_read.to_delayed() if w_read is not None else [None] * X.npartitions
    places = _places(client, X_read)
    parts = [client.compute(dask.delayed(_make_part)(xp, yp, wp, classes, estimator), workers=[place],
                            allow_other_workers=True)
             for xp, yp, wp, place in zip(X_read.to_delayed(), y_read.to_delayed(), weights, places)]
    part_rows = client.gather(client.map(len, parts, pure=False))
    # The partitions read are let go now that the parts hold their rows; a part lost with its worker is made again
    # from its lineage, reading its partition again.
    del read, X_read, y_read, w_read, weights
    if sum(part_rows) == 0:
        raise ValueError("Found array with 0 sample(s) while a minimum of 1 is required.")
    layout = estimator._dataset(meta.iloc[:0], False, np.zeros(0, dtype=np.int32), np.zeros(0), checked=True)
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
