"""candor: rule learning whose rules tell the truth about themselves.

scikit-learn estimators over the C++ core, one per learner (see all_estimators()), and grid(), the
experiment grid runner, here or on a Dask cluster.
"""
from ._data import read_arff, read_data
from ._estimators import CandorClassifier, all_estimators
from ._grid import grid
from ._plot import plot_calibration

__version__ = "0.3.0"

for _cls in all_estimators():
    globals()[_cls.__name__] = _cls

__all__ = ["CandorClassifier", "all_estimators", "grid", "read_arff", "read_data", "plot_calibration"] + [c.__name__ for c in all_estimators()]
