"""scikit-learn estimators over candor's C++ learners.

One class per learner of the C++ registry, generated from it: each class's parameters, their defaults and
their documentation come from the C++ parameter table (the table that also makes the CLI options and the
model file), so a parameter added there appears here at once. Nothing is fitted or predicted in Python.
"""
import hashlib
import inspect
import json
import os
import re
import sys
import tempfile
import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_array, check_is_fitted, column_or_1d

from . import _core

_PARAMS = {p["name"]: p for p in _core.param_table()}
# C++ parameter names that are Python keywords, or that scikit-learn spells otherwise, get another name here
# (and only here): the seed of every random step is scikit-learn's random_state.
_PY_NAME = {"lambda": "reg_lambda", "seed": "random_state"}
_CPP_NAME = {v: k for k, v in _PY_NAME.items()}


def _python_names(message):
    """A C++ message about options, in the names an estimator takes: `--beam-width` becomes `beam_width`
    (`--lambda` reg_lambda); a flag that is no parameter, as `--learner`, is left as it is."""
    def name(match):
        cpp = match.group(1).replace("-", "_")
        return _PY_NAME.get(cpp, cpp) if cpp in _PARAMS and cpp != "learner" else match.group(0)

    return re.sub(r"--([a-z][a-z0-9-]*)", name, message)
_LEARNERS = _core.learner_table()
# Parameters whose C++ default stands for "the learner's own choice" (an empty text, or these numbers): in
# Python their default is None, and None is sent as nothing, so that the C++ learner decides.
_LEARNER_CHOOSES = {"m": "22.466, or m = m_scale x sqrt(N) for the CN2 learners",
                    "m_scale": "1 for the CN2 learners (m = sqrt(N)), 0 (m as given) otherwise",
                    "max_rule_length": "5 for CN2, no limit for laplace-covering and decision-list",
                    "lambda": "0.01 for a rules-only model, else chosen by the lambda search"}
_PY_TYPE = {"str": "str", "float": "float", "int": "int", "bool": "bool"}


def _python_default(cpp_name):
    p = _PARAMS[cpp_name]
    if cpp_name in _LEARNER_CHOOSES or (p["type"] == "str" and p["default"] == ""):
        return None
    if cpp_name == "reliability":
        return float(p["default"])
    return p["default"]


def _is_dataframe(X):
    return hasattr(X, "dtypes") and hasattr(X, "columns")


def _is_dask(X):
    """A Dask collection (DataFrame, Series, Array): its rows are partitions held by a scheduler's workers."""
    return hasattr(X, "__dask_graph__")


def _dask_rows(X):
    """A Dask array X, checked to be 2-d, as one block of columns a block of rows (what a fit makes a part of,
    and each block's prediction reads); a Dask DataFrame as it is."""
    if hasattr(X, "map_partitions"):
        return X
    if X.ndim != 2:
        raise ValueError(f"a Dask array X must have 2 dimensions (rows, columns), not {X.ndim}")
    return X.rechunk({1: -1})


def _block_proba(block, estimator):
    return np.asarray(estimator.predict_proba(block), dtype=np.float64)


def _block_predict(block, estimator, undecided):
    return np.asarray(estimator.predict(block, undecided=undecided))


def _block_decides(block, estimator):
    return np.asarray(estimator.decides(block), dtype=bool)


def _partition_proba(part, estimator):
    import pandas as pd

    return pd.DataFrame(estimator.predict_proba(part), index=part.index, columns=list(estimator.classes_))


def _partition_predict(part, estimator, undecided):
    import pandas as pd

    return pd.Series(estimator.predict(part, undecided=undecided), index=part.index)


def _partition_decides(part, estimator):
    import pandas as pd

    return pd.Series(np.asarray(estimator.decides(part), dtype=bool), index=part.index)


def _write_atomic(path, text):
    """Writes text to path through a temporary file in the same folder renamed into place, so that a crash
    leaves the old file or the new one, never half of one."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".candor-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _nominal_codes(col, known, column):
    """Codes of a nominal column against the list `known`: a missing value becomes -1; a value never seen in
    training (with a warning) becomes len(known), as the CLI reads it: it equals none of the known values, so
    `A = v` fails and `A != v` holds. Vectorised: only the column's distinct values are turned into text."""
    import pandas as pd

    series = col if isinstance(col, pd.Series) else pd.Series(np.asarray(col, dtype=object))
    if str(series.dtype) == "category" and [str(c) for c in series.cat.categories] == list(known):
        return series.cat.codes.to_numpy(dtype=np.int32)
    with warnings.catch_warnings():
        # pandas 1.5 warns that a later version will stop inferring numbers in an object Index: the values are
        # turned into text right below, so the inference does not matter here.
        warnings.simplefilter("ignore", FutureWarning)
        row_codes, distinct = pd.factorize(series)  # missing values (None, NaN, pd.NA) get -1
    text = [str(v) for v in distinct]
    found = pd.Categorical(text, categories=list(known)).codes.astype(np.int32)
    unseen = sorted(t for t, c in zip(text, found) if c < 0)
    found[found < 0] = len(known)
    lookup = np.append(found, np.int32(-1))
    codes = lookup[row_codes]  # row code -1 (missing) reads the appended -1
    if unseen:
        warnings.warn(f"column {column!r}: values not seen in training equal none of its values (A = v fails, "
                      f"A != v holds): {unseen[:5]}")
    return codes


def _nominal_value_list(col):
    """The sorted texts of a column's non-missing values."""
    import pandas as pd

    series = col if isinstance(col, pd.Series) else pd.Series(np.asarray(col, dtype=object))
    return sorted({str(v) for v in series.dropna().unique()})


def _object_column_values(col, name):
    """The type of a column of Python objects, by the rule of the CLI's CSV reader: numeric (None) when every
    non-missing value is a number (or a text that is one), else nominal (its value list). A column of at least
    90% numbers with some text is nominal with the CLI's warning; bools are nominal; other objects are an
    error."""
    import pandas as pd

    values = list(col)
    numbers = others = 0
    first_other = None
    for row, v in enumerate(values):
        if _as_text(v) is None:
            continue
        if isinstance(v, (bool, np.bool_)):
            others += 1
            first_other = first_other or (row, v)
            continue
        if isinstance(v, (int, float, np.integer, np.floating)):
            numbers += 1
            continue
        if not isinstance(v, (str, np.str_)):
            # scikit-learn's wording (its estimator checks look for it), with the column and row.
            raise TypeError(f"column {name!r}, row {row}: argument must be a string or a number, not "
                            f"{type(v).__name__} ({v!r})")
        try:
            float(v)
            numbers += 1
        except ValueError:
            others += 1
            if first_other is None:
                first_other = (row, v)
    if others == 0:
        return None if numbers > 0 else []
    if numbers >= 9 * others:
        row, v = first_other
        warnings.warn(f"column {name!r} is read as nominal because {str(v)[:40]!r} (row {row}) is not a number "
                      f"({numbers} of its {numbers + others} values are); fix the value or make it missing (NaN)")
    series = col if isinstance(col, pd.Series) else pd.Series(np.asarray(col, dtype=object))
    return sorted({str(v) for v in series.dropna().unique()})


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
    """Base of the generated estimators; `_learner` names the C++ learner. Not an estimator itself: use
    RuleLogistic (`candor fit`'s default) or another class of all_estimators()."""

    _learner = None
    _param_names = ()

    def __init__(self):
        # Each learner's class has its own __init__; the base has no learner to fit, and would otherwise fail
        # later, inside fit or sklearn's tools, with an AttributeError that names no cause.
        if self._learner is None:
            raise TypeError("candor.CandorClassifier is the base of candor's estimators, not one of them: use "
                            "candor.RuleLogistic() (candor fit's default learner) or another class of "
                            "candor.all_estimators()")

    # ---- data -----------------------------------------------------------------------------------------
    def _columns(self, X, fitting, checked=False):
        """X as candor columns: (names, nominal value lists or None, arrays). Fitting decides the schema;
        prediction reads X against it. `checked`: X is a partition of data whose columns were checked as a
        whole (a fit on Dask, where an array's partitions are frames of columns x0, x1, ...)."""
        if _is_dataframe(X):
            if not checked:
                self._check_feature_names(X, reset=fitting)
                if fitting:
                    # sklearn's own check, for 1-d input, empty data and the like.
                    if X.shape[0] == 0:
                        raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is "
                                         "required.")
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
                    # An object column: numbers, numeric text and missing cells (None, NaN, pd.NA) mixed.
                    a = np.empty(len(col), dtype=np.float64)
                    for row, v in enumerate(list(col)):
                        try:
                            a[row] = np.nan if _as_text(v) is None else float(v)
                        except (TypeError, ValueError):
                            raise ValueError(f"column {name!r}, row {row}: {v!r} is not a number (the column was "
                                             f"numeric in training)") from None
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
            if str(dtype) in ("string", "str"):  # pandas' own text dtype: text, whatever it holds
                return _nominal_value_list(col)
            if dtype.kind == "O":
                return _object_column_values(col, name)
        else:
            if np.asarray(col).dtype.kind in "mM":
                raise TypeError(f"column {name!r}: datetime values are not supported; convert them to numbers "
                                f"(say, days since a date) or to text")
            if np.asarray(col).dtype.kind in "iuf":
                return None
            if np.asarray(col).dtype.kind == "b":
                return ["False", "True"]
            if np.asarray(col).dtype.kind in "OUS":
                return _object_column_values(col, name)
        return _nominal_value_list(col)

    def _dataset(self, X, fitting, y_codes=None, sample_weight=None, checked=False):
        names, nominal, arrays = self._columns(X, fitting, checked)
        n = len(arrays[0]) if arrays else (X.shape[0] if hasattr(X, "shape") else len(X))
        y = np.full(n, -1, dtype=np.int32) if y_codes is None else np.asarray(y_codes, dtype=np.int32)
        w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        return _core.Dataset(names, nominal, arrays, [str(c) for c in self.classes_], y, w,
                             getattr(self, "_class_name", "class"))

    # ---- the estimator --------------------------------------------------------------------------------
    def _params_json(self):
        params = {"learner": self._learner}
        for name in self._param_names:
            value = getattr(self, name)
            if value is None:
                continue  # the learner's own default
            if name == "random_state" and not isinstance(value, (int, np.integer)):
                # scikit-learn's convention: a RandomState draws the seed, anew at each fit.
                value = int(check_random_state(value).randint(np.iinfo(np.int32).max))
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, (list, tuple)):  # PrIL's reliabilities per class
                value = ",".join(str(v) for v in value)
            params[_CPP_NAME.get(name, name)] = value
        return json.dumps(params)

    def fit(self, X, y, sample_weight=None):
        """Fits the learner on X (array or DataFrame; pandas category, string and bool columns are nominal,
        NaN/None missing) and class labels y, with optional non-negative sample weights. A Dask DataFrame X
        with a Dask Series y of the same partitions (and sample_weight likewise), or a 2-d Dask array X with
        1-d Dask arrays, is fitted across the workers of the default Dask client, its rows left where they lie
        (docs/guide-distributed.md); learners that need every row in one process refuse it."""
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None.")
        if _is_dask(X) or _is_dask(y):
            # One fit across the workers of the default Dask client, the rows left where they are.
            from ._distributed import fit_on_dask

            try:
                return fit_on_dask(self, X, y, sample_weight, None)
            except ValueError as e:
                raise ValueError(_python_names(str(e))) from None
        # The rules name the class as the target does (THEN decision = buy); an unnamed target is "class".
        y_name = getattr(y, "name", None)
        self._class_name = str(y_name) if y_name is not None and str(y_name) != "" else "class"
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
        if self.class_weight is not None:
            # scikit-learn's class_weight: "balanced" weighs class c by n / (classes x n_c); a dict by label.
            sample_weight = sample_weight * compute_sample_weight(self.class_weight, y)
        import pandas as pd

        if y.dtype.kind == "O" and pd.isna(y).any():
            raise ValueError("Input y contains NaN or None")

        y_codes, classes = pd.factorize(y, sort=True)  # hashing: np.unique's sort of strings costs more
        classes = np.asarray(classes, dtype=y.dtype if y.dtype.kind != "O" else object)
        if len(classes) < 2:
            raise ValueError(f"y has one class ({classes[0]!r}); candor's learners need at least two")
        self.classes_ = classes
        data = self._dataset(X, True, y_codes, sample_weight)
        start = time.monotonic()
        if self.verbose:
            print(f"{type(self).__name__}: fitting {len(y)} rows, {len(self._schema[0])} attributes, "
                  f"{len(classes)} classes", file=sys.stderr, flush=True)
        _core.set_progress(bool(self.verbose))  # the fit's own progress lines, past 2 seconds
        try:
            self.model_ = _core.Model.fit(data, self._params_json(), int(self.n_jobs))
        except ValueError as e:
            raise ValueError(_python_names(str(e))) from None
        finally:
            _core.set_progress(False)
        if self.verbose:
            rules = len(json.loads(self.model_.rule_table()))
            print(f"{type(self).__name__}: fitted in {time.monotonic() - start:.1f} s, {rules} rules",
                  file=sys.stderr, flush=True)
        return self

    @property
    def feature_importances_(self):
        """Each attribute's share of the model's importance, in the order of the columns of X (they sum to 1;
        all 0 for a model without rules). A rule's importance is shared equally by the attributes it tests: for
        rule-logistic, |weight| x the standard deviation of the rule's 0/1 feature in training (the order
        `candor rules` lists them in), plus an attribute column's |weight| x its standard deviation; for the
        other models, the share of training weight the rule covers times |its probability - its class's
        prior| (boost members' cells and PrIL rules: the covered share alone)."""
        check_is_fitted(self, "model_")
        return np.asarray(self.model_.attribute_importances(), dtype=np.float64)

    def predict_proba(self, X):
        """Class probabilities, columns in the order of classes_. For a Dask DataFrame, a Dask DataFrame with
        a column per class (named by classes_), each partition computed where it lies; for a Dask array, a Dask
        array of the same blocks of rows."""
        check_is_fitted(self, "model_")
        if _is_dask(X):
            import pandas as pd

            X = _dask_rows(X)
            if not hasattr(X, "map_partitions"):
                return X.map_blocks(_block_proba, self, dtype=np.float64,
                                    chunks=(X.chunks[0], (len(self.classes_),)))
            meta = pd.DataFrame({c: pd.Series(dtype=np.float64) for c in self.classes_}, columns=list(self.classes_))
            return X.map_partitions(_partition_proba, self, meta=meta)
        return self.model_.predict_proba(self._dataset(X, False))

    def predict(self, X, undecided=None):
        """The most probable class of each row. PrIL leaves the rows that no rule reliable enough covers
        undecided (see decides): they get their most probable class too, unless `undecided` is given: then
        they get that value (e.g. predict(X, undecided="undecided"); the result is an object array). For a Dask
        DataFrame, a Dask Series, each partition predicted where it lies; for a Dask array, a Dask array of its
        blocks of rows."""
        if _is_dask(X):
            import pandas as pd

            check_is_fitted(self, "model_")
            dtype = self.classes_.dtype if undecided is None else object
            X = _dask_rows(X)
            if not hasattr(X, "map_partitions"):
                return X.map_blocks(_block_predict, self, undecided, dtype=dtype, drop_axis=1)
            return X.map_partitions(_partition_predict, self, undecided, meta=pd.Series(dtype=dtype))
        proba = self.predict_proba(X)
        predicted = self.classes_[np.argmax(proba, axis=1)]
        if undecided is None:
            return predicted
        decided = np.asarray(self.decides(X), dtype=bool)
        out = predicted.astype(object)
        out[~decided] = undecided
        return out

    def score(self, X, y, sample_weight=None, undecided="predicted"):
        """Accuracy: the share (sample-weighted when weights are given) of rows whose predict(X) equals y, as
        `candor evaluate` reports `accuracy`. A row PrIL leaves undecided counts by its most probable class
        (undecided="predicted", the default, what scikit-learn's model selection sees), or as wrong
        (undecided="wrong": `candor evaluate`'s adjusted_accuracy). Other models decide every row, and the two
        are the same."""
        from sklearn.metrics import accuracy_score

        if undecided not in ("predicted", "wrong"):
            raise ValueError(f"undecided must be 'predicted' or 'wrong', not {undecided!r}")
        predicted = self.predict(X)
        right = np.asarray(predicted == np.asarray(y), dtype=bool)
        if undecided == "wrong":
            right &= np.asarray(self.decides(X), dtype=bool)
        return accuracy_score(np.ones(len(right), dtype=bool), right, sample_weight=sample_weight)

    def decides(self, X):
        """Whether the model decides each row (False: PrIL leaves it undecided); for a Dask DataFrame, a Dask
        Series; for a Dask array, a Dask array."""
        check_is_fitted(self, "model_")
        if _is_dask(X):
            import pandas as pd

            X = _dask_rows(X)
            if not hasattr(X, "map_partitions"):
                return X.map_blocks(_block_decides, self, dtype=bool, drop_axis=1)
            return X.map_partitions(_partition_decides, self, meta=pd.Series(dtype=bool))
        return self.model_.decides(self._dataset(X, False))

    def explain(self, X):
        """What decided each prediction, one list of texts per row, as `candor predict --explain` writes it:
        a rule model's deciding rule ids (int(id) indexes rules_), a logistic model's five features that
        moved the logit most with their effect toward the predicted class ('rule 3 +1.20': positive pushes
        toward it; a rule of another class that fires shows its weight with the opposite sign), a tree's
        leaves, an ensemble's five most influential members; ['default'] where nothing fired, as the CLI
        writes it."""
        check_is_fitted(self, "model_")
        return [parts if parts else ["default"] for parts in self.model_.explain(self._dataset(X, False))]

    @property
    def rules_(self):
        """The model's rules as a pandas DataFrame indexed by rule id (1, 2, ...: the numbers of `candor
        rules`, explain() and `candor predict --explain`): rule (the conditions as text), class (as in
        classes_), covered and class_counts (the examples the rule was learned from, as in the model file),
        training_covered and training_counts (every training row it covers), probability with interval_low
        and interval_high, quality, the learner's own columns (weight: what the rule adds to the logit of
        its class), frequency (the share of resamples holding the rule) where the model file records its
        stability (`candor fit --stability B`), stable_frequency (the share of the stable-rule resamples
        that found the rule) for stable rules (stable_resamples), and additive (whether covering+additive's
        one-condition gradient search found the rule, rather than covering) for candidates="covering+additive"."""
        check_is_fitted(self, "model_")
        import pandas as pd

        # The table and its column order are `candor rules --format csv`'s (model.hpp, numbered_rule_table).
        table = pd.DataFrame(json.loads(self.model_.rule_table()), columns=self.model_.rule_table_columns() or ["id"])
        table = table.set_index("id")
        if "class" in table.columns:
            # The class as the labels of y are (classes_), not as the text the C++ model keeps.
            by_text = {str(c): c for c in self.classes_}
            table["class"] = [by_text.get(c, c) for c in table["class"]]
        return table

    def __str__(self):
        """The fitted model as `candor rules` prints it; the estimator's parameters before fit."""
        if hasattr(self, "model_"):
            return self.model_.text()
        return repr(self)

    def _repr_html_(self):
        """A notebook's view: once fitted, the report's compact form (learner, classes with their priors, the
        first ten rules; report() gives the whole page); scikit-learn's diagram before."""
        if not hasattr(self, "model_"):
            return self._repr_html_inner()
        return self.model_.summary_html(10)

    def _repr_mimebundle_(self, **kwargs):
        if not hasattr(self, "model_"):
            return super()._repr_mimebundle_(**kwargs)
        return {"text/plain": repr(self), "text/html": self.model_.summary_html(10)}

    def stability(self, X, y, resamples=20, resampling="bootstrap", quantiles=10):
        """How stable this learner's rules and predictions are on X, y, as `candor evaluate --stability` reports
        it: the learner (with this estimator's parameters, its random_state drawing the resamples) is fitted on
        `resamples` bootstrap resamples (or, with resampling="subsample", halves of the rows; with
        resampling="folds", the training sets of a stratified `resamples`-fold cross-validation, as SIRUS
        measures stability) and once on all of X. Returns a dict: rule_set_stability and rule_set_stability_sd (mean and s.d. over pairs of
        resamples of the Dice-Sorensen overlap of their rule sets, thresholds snapped to the data's
        `quantiles`-quantiles), prediction_agreement (share of pairs predicting a row's class alike),
        probability_spread (s.d. of a row's probabilities across resamples), mean_rules, and rule_frequency:
        a pandas Series, indexed by rule id as rules_ of a fit on all of X, of the share of resamples holding
        each rule. The estimator itself is left as it is."""
        import pandas as pd

        if y is None:
            raise ValueError("stability() requires y")
        probe = type(self)(**self.get_params()).fit(X, y)
        data = probe._dataset(X, False, probe._label_codes(y))
        out = json.loads(_core.measure_stability(data, probe._params_json(), int(resamples), str(resampling),
                                                 int(quantiles), int(self.n_jobs)))
        out["rule_frequency"] = pd.Series(out["rule_frequency"], index=pd.RangeIndex(1, len(out["rule_frequency"]) + 1,
                                                                                     name="id"), name="frequency")
        return out

    def _label_codes(self, y):
        """Each label's index in classes_; -1 for a missing label (None or NaN). A label the model never saw
        is an error, as it would be in `candor report`."""
        import pandas as pd

        y = np.asarray(y, dtype=object)
        codes = np.full(len(y), -1, dtype=np.int32)
        index = {c: k for k, c in enumerate(self.classes_.tolist())}
        for i, label in enumerate(y):
            if pd.isna(label):
                continue
            key = label.item() if isinstance(label, np.generic) else label
            if key not in index:
                raise ValueError(f"y[{i}] = {label!r} is not one of the classes the model was fitted on: "
                                 f"{list(self.classes_)}")
            codes[i] = index[key]
        return codes

    def report(self, X=None, y=None, path=None, title=None, max_rows=100000):
        """The page `candor report` writes, as HTML text: the learner and its options, the class priors and the
        rules as a sortable, filterable table; given X (and y), the rows with the rules that fired for each and,
        for labelled rows, the evaluation with its reliability and rule plots. y may hold None or NaN for rows
        without a label. With `path`, the page is also written there (a temporary file renamed into place).
        The view holds the first `max_rows` rows; the evaluation uses all."""
        check_is_fitted(self, "model_")
        from . import __version__
        data = None
        if X is not None:
            data = self._dataset(X, False, None if y is None else self._label_codes(y))
        elif y is not None:
            raise ValueError("report(): y given without X")
        digest = hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()
        html = self.model_.report(data, title or f"candor report: {type(self).__name__}",
                                  f"(fitted in Python: {type(self).__name__})", digest, __version__,
                                  "the data given to report()" if X is not None else "", int(max_rows))
        if path is not None:
            _write_atomic(os.fspath(path), html)
        return html

    def rules_text(self):
        """The model as `candor rules` prints it."""
        check_is_fitted(self, "model_")
        return self.model_.text()

    def export(self, format, table="data", key=(), prefix="candor"):
        """The model as code that runs without candor, as `candor export` writes it: format "sql" (one query over
        `table`, the `key` columns passed through first), "python" (a module with predict_proba(row: dict)) or
        "c" (a header-only function; names start with `prefix`). It names the SHA-256 of to_json()'s text."""
        check_is_fitted(self, "model_")
        from . import __version__
        keys = [key] if isinstance(key, str) else list(key)
        digest = hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()
        return self.model_.export(format, table, keys, prefix, f"(fitted in Python: {type(self).__name__})", digest,
                                  __version__)

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
        # Weak learners (stumps, single rules; LearnerInfo::weak): sklearn's accuracy checks do not apply to them.
        tags = {"allow_nan": True, "poor_score": self._weak}
        if self._learner == "rule-logistic":
            tags["_xfail_checks"] = {
                "check_sample_weights_invariance": "the lambda search cross-validates on seeded folds that follow "
                "the row order, and the check shuffles the rows it keeps"}
        if self._learner in ("stump", "rule"):
            tags["_xfail_checks"] = {
                "check_classifiers_classes": "a stump (two leaves and a missing-value branch) or a single rule "
                "cannot predict every class of a three-class problem"}
        return tags


_CN2 = ["P. Clark and R. Boswell. Rule induction with CN2: some recent improvements. EWSL 1991.",
        "P. Clark and T. Niblett. The CN2 induction algorithm. Machine Learning 3, 1989."]
_EVC = ("M. Mozina, J. Demsar, I. Bratko and J. Zabkar. Extreme value correction: a method for correcting "
        "optimistic estimations in rule learning. Machine Learning 108, 2019 (paper 000, docs/papers.md).")
_REFERENCES = {
    "cn2-unordered": _CN2[:1] + [_EVC],
    "cn2-ordered": _CN2[1:] + [_EVC],
    "rule-logistic": [_EVC + " Section 4.3.3."],
    "laplace-covering": ["J. R. Quinlan and R. M. Cameron-Jones. Oversearching and layered search in empirical "
                         "learning. IJCAI 1995 (paper 002)."],
    "decision-list": ["J. Stecher, F. Janssen and J. Fuernkranz. Separating rule refinement and rule selection "
                      "heuristics in inductive rule learning. ECML PKDD 2014 (paper 003)."],
    "rule": ["M. Scholz. Comparing knowledge-based sampling to boosting. Technical Report 2005/26, University "
             "of Dortmund, 2005 (paper 001)."],
    "stump": ["W. Iba and P. Langley. Induction of one-level decision trees. ICML 1992."],
    "tree": ["J. R. Quinlan. C4.5: Programs for Machine Learning. Morgan Kaufmann, 1993."],
    "boost": ["M. Scholz. Comparing knowledge-based sampling to boosting. Technical Report 2005/26, University "
              "of Dortmund, 2005 (paper 001).",
              "Y. Freund and R. E. Schapire. Experiments with a new boosting algorithm. ICML 1996.",
              "J. Friedman, T. Hastie and R. Tibshirani. Additive logistic regression: a statistical view of "
              "boosting. Annals of Statistics 28, 2000."],
    "pril": ["F. O. Gur Ali and W. A. Wallace. Are we losing accuracy while gaining confidence in induced rules: "
             "an assessment of PrIL. KDD-96 (paper 004)."],
}


def _class_name(learner):
    special = {"cn2-unordered": "CN2Unordered", "cn2-ordered": "CN2Ordered", "pril": "PrIL", "rule": "BestRule"}
    if learner in special:
        return special[learner]
    return "".join(part.capitalize() for part in learner.split("-"))


def _make_class(info):
    names = tuple(_PY_NAME.get(p, p) for p in info["params"])
    defaults = {_PY_NAME.get(p, p): _python_default(p) for p in info["params"]}
    python_only = ("n_jobs", "class_weight", "verbose")
    defaults.update(n_jobs=1, class_weight=None, verbose=0)
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for name in names + python_only:
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name]))

    def __init__(self, **kwargs):
        if "seed" in kwargs and "seed" not in names:
            raise TypeError("the seed is scikit-learn's random_state here: pass random_state=" + repr(kwargs["seed"]))
        for name in names + python_only:
            setattr(self, name, kwargs.pop(name, defaults[name]))
        if kwargs:
            raise TypeError(f"unexpected parameters {sorted(kwargs)}")

    __init__.__signature__ = inspect.Signature(parameters)
    doc = [f"candor's `{info['name']}` learner: {info['description']}.", "", "Parameters", "----------"]
    for cpp in info["params"]:
        p, name = _PARAMS[cpp], _PY_NAME.get(cpp, cpp)
        default = defaults[name]
        kind = "float, str or list of float" if cpp == "reliability" else _PY_TYPE.get(p["type"], p["type"])
        if default is None:
            doc.append(f"{name} : {kind} or None, default=None")
            doc.append(f"    None: the learner's default ({_LEARNER_CHOOSES.get(cpp, 'see below')}).")
        else:
            doc.append(f"{name} : {kind}, default={default!r}")
        doc.append(f"    {p['help']}")
        if p.get("values"):
            doc.append(f"    Values: {p['values']}.")
    doc.append("n_jobs : int, default=1")
    doc.append("    threads for the C++ fit (0: every core); never changes the model")
    doc.append("class_weight : dict, 'balanced' or None, default=None")
    doc.append("    weights of the classes, multiplying sample_weight: a dict {label: weight}, or 'balanced' (class c")
    doc.append("    weighs n / (classes x n_c), scikit-learn's compute_sample_weight); None: every row weighs its")
    doc.append("    sample_weight. See the Python guide on imbalanced classes.")
    doc.append("verbose : int, default=0")
    doc.append("    above 0: fit says on stderr what it fits, how far it is past 2 seconds (rounds, permutations)")
    doc.append("    and, at the end, its time and rules")
    doc += ["", "Attributes", "----------",
            "classes_ : ndarray of shape (n_classes,)", "    The class labels, in the order of predict_proba's columns.",
            "n_features_in_ : int", "    Number of features seen in fit.",
            "feature_names_in_ : ndarray of shape (n_features_in_,)",
            "    Names of the features seen in fit, when X was a DataFrame with string column names.",
            "feature_importances_ : ndarray of shape (n_features_in_,)",
            "    Each attribute's share of the rules' importance (see the property's documentation); sums to 1.",
            "model_ : candor._core.Model", "    The fitted C++ model (the model file `candor fit` writes: to_json()).",
            "rules_ : pandas.DataFrame",
            "    The model's rules (or leaves, members), one row each, indexed by the rule id that `candor rules`,",
            "    explain() and `candor predict --explain` use. covered and class_counts count the examples the rule",
            "    was learned from, training_covered and training_counts every training row it covers;",
            "    probability is the rule's estimate, interval_low and interval_high its 95% interval.",
            "", "Examples", "--------",
            ">>> import candor",
            ">>> from sklearn.datasets import load_iris",
            ">>> X, y = load_iris(return_X_y=True, as_frame=True)",
            f">>> model = candor.{_class_name(info['name'])}().fit(X, y)",
            ">>> print(model)  # the rules, as `candor rules` prints them  # doctest: +SKIP",
            ">>> proba = model.predict_proba(X)",
            "", "References", "----------"]
    doc += _REFERENCES.get(info["name"], _REFERENCES["cn2-unordered"])
    cls = type(_class_name(info["name"]), (CandorClassifier,),
               {"__init__": __init__, "_learner": info["name"], "_weak": info["weak"], "_param_names": names, "__doc__": "\n".join(doc),
                "__module__": "candor"})
    return cls


_CLASSES = [_make_class(info) for info in _LEARNERS]


def all_estimators():
    """Every candor estimator class, one per learner."""
    return list(_CLASSES)
