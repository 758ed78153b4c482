"""candor: rule learning whose rules tell the truth about themselves.

scikit-learn estimators over the C++ core, one per learner (see all_estimators()).
"""
from ._estimators import CandorClassifier, all_estimators

for _cls in all_estimators():
    globals()[_cls.__name__] = _cls

__all__ = ["CandorClassifier", "all_estimators"] + [c.__name__ for c in all_estimators()]
