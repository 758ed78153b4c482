"""The candor Python package: scikit-learn's estimator checks on every estimator, pandas data with nominal
columns and missing values, rules out, model files shared with the CLI, pickling and sklearn's tools."""
import json
import os
import pickle
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "..", "shared", "datasets"))


def quick(cls):
    """An instance that fits fast (fewer EVC permutations where the learner reads them)."""
    if "evc_permutations" in cls._param_names and cls.__name__ != "Boost":
        return cls(evc_permutations=10)
    return cls()


@parametrize_with_checks([quick(cls) for cls in candor.all_estimators()])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_every_learner_is_an_estimator():
    names = {c._learner for c in candor.all_estimators()}
    assert {"cn2-unordered", "cn2-ordered", "laplace-covering", "decision-list", "rule-logistic", "tree", "stump",
            "boost", "pril", "rule"} <= names
    # Parameters and docstrings come from the C++ table.
    assert "reliability" in candor.PrIL().get_params()
    assert "quality" in candor.CN2Unordered().get_params()
    assert "reg_lambda" in candor.RuleLogistic().get_params()  # `lambda` is a Python keyword
    assert "minimum reliability" in candor.PrIL.__doc__


def frame():
    rng = np.random.default_rng(1)
    n = 300
    colour = rng.choice(["red", "green", "blue"], size=n)
    size = rng.normal(size=n)
    y = np.where((colour == "red") & (size > 0), "yes", "no")
    df = pd.DataFrame({"colour": pd.Categorical(colour), "size": size, "shape": rng.choice(["a", "b"], size=n)})
    df.loc[::17, "size"] = np.nan
    df.loc[::23, "colour"] = np.nan
    return df, y


def test_pandas_nominal_columns_missing_values_and_feature_names():
    df, y = frame()
    m = candor.CN2Unordered().fit(df, y)
    assert list(m.feature_names_in_) == ["colour", "size", "shape"]
    rules = m.rules_
    assert {"rule", "class", "covered", "class_counts", "probability", "quality"} <= set(rules.columns)
    assert rules["rule"].str.contains("colour = red").any()  # a nominal attribute, not one-hot columns
    assert m.score(df, y) > 0.9
    # A value never seen in training is treated as missing, with a warning naming the column.
    other = df.copy()
    other["shape"] = "z"
    with pytest.warns(UserWarning, match="shape"):
        m.predict(other)
    # A non-number in a numeric column is a clear error naming the column.
    bad = df.copy().astype({"size": object})
    bad.loc[3, "size"] = "big"
    with pytest.raises(ValueError, match="column 'size', row 3: 'big' is not a number"):
        m.predict(bad)


def test_explain_decides_and_learner_columns():
    df, y = frame()
    p = candor.PrIL(reliability="0.8").fit(df, y)
    d = p.decides(df)
    assert d.dtype == bool and (~d).any()
    assert all(e == ["undecided"] for e, ok in zip(p.explain(df), d) if not ok)
    assert {"reliability", "confidence"} <= set(p.rules_.columns)
    b = candor.Boost(boosting="kbs", base="tree", iterations=3).fit(df, y)
    assert b.explain(df[:1])[0][0].startswith("member ")
    assert "lifts" in b.rules_.columns


def test_model_files_are_shared_with_the_cli(tmp_path):
    df, y = frame()
    m = candor.Tree().fit(df, y)
    path = tmp_path / "tree.json"
    path.write_text(m.to_json())
    data = tmp_path / "data.csv"
    df.assign(**{"class": y}).to_csv(data, index=False)  # the class column under the model's class name
    if not os.path.exists(CLI):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    out = subprocess.run([CLI, "predict", str(path), str(data), "--proba"], capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()[1:]
    cli_proba = np.array([[float(x) for x in line.split(",")[3:]] for line in lines])
    assert np.allclose(cli_proba, m.predict_proba(df), atol=1e-6)
    # The reverse: a model the CLI fitted, read in Python.
    fitted = tmp_path / "cli.json"
    subprocess.run([CLI, "fit", os.path.join(DATASETS, "vote.arff"), "-o", str(fitted), "--learner", "tree"],
                   check=True, capture_output=True)
    back = candor.CandorClassifier.from_json(fitted.read_text())
    assert isinstance(back, candor.Tree)
    assert list(back.classes_) == ["democrat", "republican"]
    assert json.loads(back.to_json())["model"] == "tree"


def test_pickle_pipeline_cross_validation_and_grid_search():
    df, y = frame()
    m = candor.CN2Unordered().fit(df, y)
    again = pickle.loads(pickle.dumps(m))
    assert (again.predict_proba(df) == m.predict_proba(df)).all()
    X = np.nan_to_num(df[["size"]].to_numpy()) + (df["colour"] == "red").to_numpy()[:, None]
    pipe = make_pipeline(FunctionTransformer(), candor.Tree())
    assert cross_val_score(pipe, X, y, cv=3).mean() > 0.6
    grid = GridSearchCV(candor.Tree(), {"confidence": [0.1, 0.25]}, cv=3, n_jobs=2).fit(X, y)
    assert grid.best_params_["confidence"] in (0.1, 0.25)
