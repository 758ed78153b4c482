"""Prediction on Dask DataFrames: each partition predicted on the worker that holds it, the result the one a
pandas DataFrame of the same rows gets (fits across workers: test_dask_fit.py)."""
import os

import numpy as np
import pytest

import candor

dd = pytest.importorskip("dask.dataframe", reason="python3-dask is not installed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "data", "corpus"))
# Debian's tornado warns that distributed 2022.12 starts its event loop the old way.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def credit():
    df = candor.read_arff(os.path.join(DATASETS, "credit-a.arff"))  # nominal, numeric and missing values
    return df.drop(columns="class"), df["class"]


@pytest.mark.parametrize("make", [lambda: candor.CN2Unordered(evc_permutations=10),
                                  lambda: candor.RuleLogistic(evc_permutations=10),
                                  lambda: candor.PrIL()])
def test_dask_predictions_are_the_pandas_ones(client, credit, make):
    X, y = credit
    model = make().fit(X, y)
    dX = dd.from_pandas(X, npartitions=4)
    proba = model.predict_proba(dX)
    assert list(proba.columns) == list(model.classes_)
    got = proba.compute()
    assert list(got.index) == list(X.index)
    assert np.array_equal(got.to_numpy(), model.predict_proba(X))
    assert list(model.predict(dX).compute()) == list(model.predict(X))
    assert list(model.decides(dX).compute()) == list(np.asarray(model.decides(X), dtype=bool))
    marked = model.predict(dX, undecided="undecided").compute()
    assert list(marked) == list(model.predict(X, undecided="undecided"))
