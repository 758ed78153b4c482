"""scikit-learn estimators over candor's C++ learners.

One class per learner of the C++ registry, generated from it: each class's parameters, their defaults and
their documentation come from the C++ parameter table (the table that also makes the CLI options and the
model file), so a parameter added there appears here at once. Nothing is fitted or predicted in Python.
"""
import inspect
import json
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_array, check_is_fitted, column_or_1d

from . import _core

_PARAMS = {p["name"]: p for p in _core.param_table()}
# C++ parameter names that are Python keywords get another name here (and only here).
_PY_NAME = {"lambda": "reg_lambda"}
_CPP_NAME = {v: k for k, v in _PY_NAME.items()}
_LEARNERS = _core.learner_table()


def _is_dataframe(X):
    return hasattr(X, "dtypes") and hasattr(X, "columns")


def _nominal_codes(col, known, column):
    """Codes of a nominal column against the list `known`; a missing value, and a value never seen in training
    (with a warning), becomes -1. Vectorised: only the column's distinct values are turned into text."""
    import pandas as pd

    series = col if isinstance(col, pd.Series) else pd.Series(np.asarray(col, dtype=object))
    if str(series.dtype) == "category" and [str(c) for c in series.cat.categories] == list(known):
        return series.cat.codes.to_numpy(dtype=np.int32)
    row_codes, distinct = pd.factorize(series)  # missing values (None, NaN, pd.NA) get -1
    text = [str(v) for v in distinct]
    lookup = np.append(pd.Categorical(text, categories=list(known)).codes.astype(np.int32), np.int32(-1))
    codes = lookup[row_codes]  # row code -1 reads the appended -1
    unseen = sorted(t for t, c in zip(text, lookup) if c < 0)
    if unseen:
        warnings.warn(f"column {column!r}: values not seen in training treated as missing: {unseen[:5]}")
    return codes


def _as_text(v):
    """A nominal cell as text, or None when missing (None, NaN, pandas NA)."""
    if v is None:
        return None
    try:
        if v != v:  # NaN, pd.NA raises TypeError
            return None
    except TypeError:
        return None
    return str(v)


class CandorClassifier(ClassifierMixin, BaseEstimator):
    """Base of the generated estimators; `_learner` names the C++ learner."""

    _learner = None
    _param_names = ()

    # ---- data -----------------------------------------------------------------------------------------
    def _columns(self, X, fitting):
        """X as candor columns: (names, nominal value lists or None, arrays). Fitting decides the schema;
        prediction reads X against it."""
        if _is_dataframe(X):
            self._check_feature_names(X, reset=fitting)
            if fitting:
                # sklearn's own check, for 1-d input, empty data and the like.
                if X.shape[0] == 0:
                    raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
            self._check_n_features(X, reset=fitting)
            cols = [(str(name), X[name]) for name in X.columns]
            series = True
        else:
            X = check_array(X, dtype=None, force_all_finite="allow-nan", accept_sparse=False)
            self._check_n_features(X, reset=fitting)
            if fitting and hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            cols = [(f"x{j}", X[:, j]) for j in range(X.shape[1])]
            series = False
        if fitting:
            names, nominal = [], []
            for name, col in cols:
                names.append(name)
                nominal.append(self._nominal_values(col, series, name))
            self._schema = (names, nominal)
        names, nominal = self._schema
        arrays = []
        for (name, col), values in zip(cols, nominal):
            if values is None:
                try:
                    if hasattr(col, "to_numpy"):  # pandas' nullable dtypes hold pd.NA: missing, as NaN
                        a = col.to_numpy(dtype=np.float64, na_value=np.nan)
                    else:
                        a = np.asarray(col, dtype=np.float64)
                except (TypeError, ValueError):
                    for row, v in enumerate(list(col)):
                        try:
                            float(v)
                        except (TypeError, ValueError):
                            raise ValueError(f"column {name!r}, row {row}: {v!r} is not a number (the column was "
                                             f"numeric in training)") from None
                    raise
                if np.isinf(a).any():
                    row = int(np.flatnonzero(np.isinf(a))[0])
                    raise ValueError(f"column {name!r}, row {row}: infinite value")
                arrays.append(a)
            else:
                arrays.append(_nominal_codes(col, values, name))
        return names, nominal, arrays

    @staticmethod
    def _nominal_values(col, series, name):
        """The declared values of a nominal column, or None for a numeric one."""
        if series:
            dtype = col.dtype
            if str(dtype) == "category":
                return [str(c) for c in col.cat.categories]
            # bool and nullable boolean before the numbers: a bool is a kind of integer to numpy.
            if dtype.kind == "b" or str(dtype) == "boolean":
                return ["False", "True"]
            if dtype.kind in "mM" or "datetime" in str(dtype) or "period" in str(dtype):
                raise TypeError(f"column {name!r}: {dtype} values are not supported; convert them to numbers "
                                f"(say, days since a date) or to text")
            if dtype.kind in "iuf":  # numpy numbers and pandas' nullable Int64, Float64 and the like
                return None
        else:
            if np.asarray(col).dtype.kind in "mM":
                raise TypeError(f"column {name!r}: datetime values are not supported; convert them to numbers "
                                f"(say, days since a date) or to text")
            if np.asarray(col).dtype.kind in "biuf":
                return None
            # An object column of numbers is numeric; one of strings (and missing values) nominal; anything
            # else is an error.
            try:
                np.asarray(col, dtype=np.float64)
                return None
            except (TypeError, ValueError):
                bad = [v for v in list(col) if _as_text(v) is not None and not isinstance(v, (str, bool, np.str_, np.bool_))]
                if bad:
                    raise TypeError(f"column {name!r}: argument must be a string or a number, not "
                                    f"{type(bad[0]).__name__} ({bad[0]!r})") from None
        import pandas as pd

        series = col if isinstance(col, pd.Series) else pd.Series(np.asarray(col, dtype=object))
        return sorted({str(v) for v in series.dropna().unique()})

    def _dataset(self, X, fitting, y_codes=None, sample_weight=None):
        names, nominal, arrays = self._columns(X, fitting)
        n = len(arrays[0]) if arrays else (X.shape[0] if hasattr(X, "shape") else len(X))
        y = np.full(n, -1, dtype=np.int32) if y_codes is None else np.asarray(y_codes, dtype=np.int32)
        w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        return _core.Dataset(names, nominal, arrays, [str(c) for c in self.classes_], y, w)

    # ---- the estimator --------------------------------------------------------------------------------
    def _params_json(self):
        params = {"learner": self._learner}
        for name in self._param_names:
            params[_CPP_NAME.get(name, name)] = getattr(self, name)
        return json.dumps(params)

    def fit(self, X, y, sample_weight=None):
        """Fits the learner on X (array or DataFrame; pandas category, string and bool columns are nominal,
        NaN/None missing) and class labels y, with optional non-negative sample weights."""
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None.")
        y = column_or_1d(y, warn=True)
        if y.dtype.kind in "fc":  # numbers that may be continuous (or NaN): scikit-learn's check
            check_classification_targets(y)
        if not _is_dataframe(X):
            X = check_array(X, dtype=None, force_all_finite="allow-nan")
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
        if len(y) == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        sample_weight = _check_sample_weight(sample_weight, np.empty(len(y)))
        if (sample_weight == 0).any():
            # A row of weight 0 is a row that is not there (scikit-learn's convention): the C++ learners would
            # still count it as a covered row, and its class as a class.
            keep = sample_weight > 0
            if not keep.any():
                raise ValueError("every sample weight is 0")
            X = X[keep] if not _is_dataframe(X) else X.loc[keep]
            y, sample_weight = y[keep], sample_weight[keep]
        import pandas as pd

        if y.dtype.kind == "O" and pd.isna(y).any():
            raise ValueError("Input y contains NaN or None")

        y_codes, classes = pd.factorize(y, sort=True)  # hashing: np.unique's sort of strings costs more
        classes = np.asarray(classes, dtype=y.dtype if y.dtype.kind != "O" else object)
        if len(classes) < 2:
            raise ValueError(f"y has one class ({classes[0]!r}); candor's learners need at least two")
        self.classes_ = classes
        data = self._dataset(X, True, y_codes, sample_weight)
        self.model_ = _core.Model.fit(data, self._params_json(), int(self.n_jobs))
        return self

    def predict_proba(self, X):
        """Class probabilities, columns in the order of classes_."""
        check_is_fitted(self, "model_")
        return self.model_.predict_proba(self._dataset(X, False))

    def predict(self, X):
        """The most probable class of each row (for PrIL also of rows it leaves undecided: see decides)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def decides(self, X):
        """Whether the model decides each row (False: PrIL leaves it undecided)."""
        check_is_fitted(self, "model_")
        return self.model_.decides(self._dataset(X, False))

    def explain(self, X):
        """What decided each prediction: rule numbers, features with their effect, leaves or members."""
        check_is_fitted(self, "model_")
        return self.model_.explain(self._dataset(X, False))

    @property
    def rules_(self):
        """The model's rules as a pandas DataFrame (conditions as text, class, covered, ... and the
        learner's own columns)."""
        check_is_fitted(self, "model_")
        import pandas as pd

        table = pd.DataFrame(json.loads(self.model_.rule_table()))
        first = [c for c in ("member", "rule", "class", "covered", "class_counts", "probability") if c in table.columns]
        return table[first + [c for c in table.columns if c not in first]]

    def rules_text(self):
        """The model as `candor rules` prints it."""
        check_is_fitted(self, "model_")
        return self.model_.text()

    def to_json(self):
        """The model file `candor fit` writes: `candor predict` reads it."""
        check_is_fitted(self, "model_")
        return self.model_.to_json()

    @classmethod
    def from_json(cls, text):
        """An estimator fitted from a candor model file's text (classes are its class values, as strings)."""
        model = _core.Model.from_json(text)
        learner = json.loads(model.params_json)["learner"]
        est_class = next(c for c in all_estimators() if c._learner == learner)
        stored = json.loads(model.params_json)
        est = est_class(**{_PY_NAME.get(k, k): v for k, v in stored.items() if _PY_NAME.get(k, k) in est_class._param_names})
        est.model_ = model
        est.classes_ = np.array(model.class_values, dtype=object)
        est._schema = (list(model.attribute_names), list(model.nominal_values))
        est.n_features_in_ = len(est._schema[0])
        return est

    def __getstate__(self):
        state = self.__dict__.copy()
        if "model_" in state:
            state["model_"] = self.model_.to_json()
        return state

    def __setstate__(self, state):
        if "model_" in state:
            state["model_"] = _core.Model.from_json(state["model_"])
        self.__dict__.update(state)

    def _more_tags(self):
        # Stumps and single rules are weak learners: sklearn's accuracy checks do not apply to them.
        tags = {"allow_nan": True, "poor_score": self._learner in ("stump", "rule")}
        if self._learner == "rule-logistic":
            tags["_xfail_checks"] = {
                "check_sample_weights_invariance": "the lambda search cross-validates on seeded folds that follow "
                "the row order, and the check shuffles the rows it keeps"}
        if self._learner in ("stump", "rule"):
            tags["_xfail_checks"] = {
                "check_classifiers_classes": "a stump (two leaves and a missing-value branch) or a single rule "
                "cannot predict every class of a three-class problem"}
        return tags


def _class_name(learner):
    special = {"cn2-unordered": "CN2Unordered", "cn2-ordered": "CN2Ordered", "pril": "PrIL", "rule": "BestRule"}
    if learner in special:
        return special[learner]
    return "".join(part.capitalize() for part in learner.split("-"))


def _make_class(info):
    names = tuple(_PY_NAME.get(p, p) for p in info["params"])
    defaults = {_PY_NAME.get(p, p): _PARAMS[p]["default"] for p in info["params"]}
    defaults["n_jobs"] = 1
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for name in names + ("n_jobs",):
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name]))

    def __init__(self, **kwargs):
        for name in names + ("n_jobs",):
            setattr(self, name, kwargs.pop(name, defaults[name]))
        if kwargs:
            raise TypeError(f"unexpected parameters {sorted(kwargs)}")

    __init__.__signature__ = inspect.Signature(parameters)
    doc = [f"candor's `{info['name']}` learner: {info['description']}.", "", "Parameters", "----------"]
    for cpp in info["params"]:
        p, name = _PARAMS[cpp], _PY_NAME.get(cpp, cpp)
        doc.append(f"{name} : {p['type']}, default={p['default']!r}")
        doc.append(f"    {p['help']}")
    doc.append("n_jobs : int, default=1")
    doc.append("    threads for the C++ fit (0: every core); never changes the model")
    cls = type(_class_name(info["name"]), (CandorClassifier,),
               {"__init__": __init__, "_learner": info["name"], "_param_names": names, "__doc__": "\n".join(doc),
                "__module__": "candor"})
    return cls


_CLASSES = [_make_class(info) for info in _LEARNERS]


def all_estimators():
    """Every candor estimator class, one per learner."""
    return list(_CLASSES)
