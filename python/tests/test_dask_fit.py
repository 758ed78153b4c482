"""One fit across Dask workers: each partition stays on its worker, the fit asks the workers for samples and sums,
and the model is the one a fit on the same rows in this process gives, byte for byte (rows of unit weight); a
worker killed during the fit leaves the model unchanged. The learners that need every row in one process refuse,
by name: all but the default, gradient-rules and cn2-unordered."""
import os
import signal
import time

import numpy as np
import pandas as pd
import pytest

import candor
from candor import _distributed

dd = pytest.importorskip("dask.dataframe", reason="python3-dask is not installed")
distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "data", "corpus"))
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def credit():
    df = candor.read_arff(os.path.join(DATASETS, "credit-a.arff"))  # nominal, numeric and missing values
    X = df.drop(columns="class")
    X["A1"] = X["A1"].astype(object)  # a text column: its values are collected from every partition
    return X, df["class"]


def dask_of(X, y, partitions):
    return dd.from_pandas(X, npartitions=partitions), dd.from_pandas(y, npartitions=partitions)


@pytest.mark.parametrize("make", [lambda: candor.RuleLogistic(), lambda: candor.GradientRules(gradient_rounds=20),
                                  lambda: candor.CN2Unordered()])
def test_a_fit_across_workers_is_the_fit_in_one_process(client, credit, make):
    X, y = credit
    local = make().fit(X, y)
    dX, dy = dask_of(X, y, 3)
    spread = make().fit(dX, dy)
    assert spread.model_.to_json() == local.model_.to_json()
    assert list(spread.classes_) == list(local.classes_)
    assert spread.distributed_fit_["parts"] == 3 and spread.distributed_fit_["rows"] == len(X)
    assert spread.distributed_fit_["requests"] > 20
    assert np.array_equal(spread.predict_proba(X), local.predict_proba(X))
    assert len(local.rules_) >= 5


def test_dask_arrays_are_fitted_and_predicted_as_numpy_arrays_are(client, credit):
    # A numeric array of blocks of rows: the model of the same numpy array in one process (columns x0, x1, ...,
    # no feature names), y cut into X's blocks whatever its own chunks, predictions a Dask array of X's blocks.
    X, y = credit
    A = X.select_dtypes("number").to_numpy()
    labels = y.to_numpy().astype(str)
    w = np.tile([1.0, 2.0, 3.0], len(A) // 3 + 1)[:len(A)]
    local = candor.RuleLogistic().fit(A, labels, sample_weight=w)
    da = pytest.importorskip("dask.array")
    dA = da.from_array(A, chunks=(200, 2))  # columns in blocks too: each block of rows is made one
    spread = candor.RuleLogistic().fit(dA, da.from_array(labels, chunks=150), sample_weight=da.from_array(w, 300))
    assert spread.distributed_fit_["parts"] == len(dA.chunks[0]) == 4
    assert not hasattr(spread, "feature_names_in_") and spread.n_features_in_ == A.shape[1]
    assert list(spread.rules_["rule"]) == list(local.rules_["rule"])
    assert np.allclose(spread.predict_proba(A), local.predict_proba(A), rtol=0, atol=1e-9)
    proba = spread.predict_proba(dA)
    assert isinstance(proba, da.Array) and proba.chunks[0] == dA.chunks[0]
    assert np.array_equal(proba.compute(), spread.predict_proba(A))
    assert np.array_equal(spread.predict(dA).compute(), spread.predict(A))
    assert np.array_equal(spread.decides(dA).compute(), spread.decides(A))
    # Unit weights: the same model file.
    assert candor.RuleLogistic().fit(dA, da.from_array(labels, 100)).model_.to_json() == \
        candor.RuleLogistic().fit(A, labels).model_.to_json()
    # An object array of text, numbers and None (every column of credit-a): its text columns nominal, its numbers
    # numeric, as a numpy object array's are in one process.
    O = X.astype(object).where(X.notna(), None).to_numpy()
    local = candor.RuleLogistic().fit(O, labels)
    spread = candor.RuleLogistic().fit(da.from_array(O, chunks=(200, -1)), da.from_array(labels, chunks=200))
    assert spread._schema == local._schema and local._schema[1][0] == ["a", "b"] and local._schema[1][1] is None
    assert spread.model_.to_json() == local.model_.to_json()
    assert np.array_equal(spread.predict_proba(da.from_array(O, chunks=(300, -1))).compute(), local.predict_proba(O))


def test_dask_arrays_that_cannot_be_parts_are_refused(client, credit):
    X, y = credit
    da = pytest.importorskip("dask.array")
    A = da.from_array(X.select_dtypes("number").to_numpy(), chunks=(200, -1))
    labels = da.from_array(y.to_numpy().astype(str), chunks=200)
    with pytest.raises(ValueError, match="X has 690 rows but y has 689"):
        candor.RuleLogistic().fit(A, labels[:-1])
    with pytest.raises(ValueError, match="must have 2 dimensions"):
        candor.RuleLogistic().fit(A[:, 0], labels)
    unknown = A[A[:, 0] > 30]  # a filter's blocks have sizes Dask does not know
    with pytest.raises(ValueError, match="unknown size: call X.compute_chunk_sizes"):
        candor.RuleLogistic().fit(unknown, labels)
    with pytest.raises(TypeError, match="or a 2-d Dask array, and y a Dask Series or a 1-d Dask array"):
        candor.RuleLogistic().fit(A, y.to_numpy())


def test_columns_of_every_kind_of_text_and_labels_that_are_numbers(client, credit):
    # The partitions are read once, their text columns kept as categories of each partition's own values until the
    # parts are made: a column of pandas' string dtype, an object column of numbers written as text (numeric, as
    # in one process) and labels that are numbers give the model of the fit in one process.
    X, y = credit
    X = X.copy()
    X["A4"] = X["A4"].astype("string")
    X["A2"] = X["A2"].map(lambda v: None if v != v else repr(float(v))).astype(object)
    y = pd.Series(np.where(y == y.iloc[0], 7, 3), name="approved")
    local = candor.RuleLogistic().fit(X, y)
    assert local._schema[1][list(X.columns).index("A2")] is None  # numbers as text are a numeric column
    dX, dy = dask_of(X, y, 3)
    spread = candor.RuleLogistic().fit(dX, dy)
    assert spread.model_.to_json() == local.model_.to_json()
    assert list(spread.classes_) == [3, 7]


def test_the_parts_are_spread_evenly_over_the_workers(client, credit):
    # Partitions all read on one worker: the first two stay there, the other two go to the other worker (every
    # request waits on the slowest worker), whichever worker read them.
    X, _ = credit
    workers = sorted(client.scheduler_info()["workers"])
    for reader, other in (workers, workers[::-1]):
        # Frames of their own (a frame's keys are its contents' hash: the same frame would be the one read).
        read = client.persist(dd.from_pandas(X.assign(reader=reader), npartitions=4), workers=[reader])
        distributed.wait(read)
        assert all(list(holders) == [reader] for holders in client.who_has(distributed.futures_of(read)).values())
        assert _distributed._places(client, read) == [reader, reader, other, other]


def test_weights_and_rows_of_weight_zero(client, credit):
    X, y = credit
    w = np.tile([1.0, 0.0, 2.5, 0.5], len(X) // 4 + 1)[:len(X)]
    local = candor.RuleLogistic().fit(X, y, sample_weight=w)
    dX, dy = dask_of(X, y, 2)
    dw = dd.from_pandas(pd.Series(w, index=X.index), npartitions=2)
    spread = candor.RuleLogistic().fit(dX, dy, sample_weight=dw)
    assert spread.distributed_fit_["rows"] == int((w > 0).sum())
    a, b = local.rules_, spread.rules_
    assert list(a["rule"]) == list(b["rule"])
    # Each part's row patterns sum their own weights: the logistic weights agree to 1e-9.
    assert np.allclose(local.predict_proba(X), spread.predict_proba(X), rtol=0, atol=1e-9)


def test_a_worker_killed_during_the_fit_leaves_the_model_unchanged(client, credit, monkeypatch):
    X, y = credit
    local = candor.RuleLogistic().fit(X, y)
    asked = {"n": 0}
    ask = _distributed._Transport.ask

    def ask_then_kill(self, requests):
        asked["n"] += 1
        if asked["n"] == 40:
            # The worker of the first group's actor dies, with its parts, their scores and the values shared so
            # far: the fit goes on with tasks, which replay the steps taken from the parts' lineage.
            assert self.hosts is not None
            holder = self.hosts[0]._address
            pid = self.client.run(os.getpid, workers=[holder])[holder]
            os.kill(pid, signal.SIGKILL)
            for _ in range(100):  # until the scheduler knows, and may have made the actor again elsewhere
                if holder not in self.client.scheduler_info()["workers"]:
                    break
                time.sleep(0.1)
        if asked["n"] == 60:
            # On tasks now, a worker holding the shared value dies: computed again from its task (a value
            # scattered to the workers would be lost once Dask keeps one copy of it). Dask's memory manager keeps
            # one copy of a value every worker read (within about 2 s): that one.
            assert self.hosts is None
            for _ in range(100):
                holders = next(iter(self.client.who_has([self.shared]).values()))
                if len(holders) == 1:
                    break
                time.sleep(0.1)
            holder = holders[0]
            pid = self.client.run(os.getpid, workers=[holder])[holder]
            os.kill(pid, signal.SIGKILL)
        return ask(self, requests)

    monkeypatch.setattr(_distributed._Transport, "ask", ask_then_kill)
    dX, dy = dask_of(X, y, 4)
    spread = candor.RuleLogistic().fit(dX, dy)
    assert asked["n"] > 60
    assert spread.model_.to_json() == local.model_.to_json()


def test_what_needs_every_row_in_one_process_is_refused(client, credit):
    X, y = credit
    dX, dy = dask_of(X, y, 2)
    with pytest.raises(ValueError, match="cn2-ordered needs every row in one process"):
        candor.CN2Ordered().fit(dX, dy)
    with pytest.raises(ValueError, match="cn2-unordered with covering probabilistic needs every row"):
        candor.CN2Unordered(covering="probabilistic").fit(dX, dy)
    with pytest.raises(ValueError, match="features rules\\+attributes needs every row in one process"):
        candor.RuleLogistic(features="rules+attributes").fit(dX, dy)
    with pytest.raises(ValueError, match="numeric_bins 0"):
        candor.RuleLogistic(numeric_bins=0).fit(dX, dy)
    with pytest.raises(TypeError, match="X must be a Dask DataFrame or a 2-d Dask array, and y a Dask Series"):
        candor.RuleLogistic().fit(dX, y)
    with pytest.raises(ValueError, match="class_weight"):
        candor.RuleLogistic(class_weight="balanced").fit(dX, dy)
