"""Fixtures the test modules share."""
import logging

import pytest


@pytest.fixture(scope="module")
def client():
    """A Dask client of a local cluster of two worker processes (one thread each), for one test module."""
    distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=logging.ERROR)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()
