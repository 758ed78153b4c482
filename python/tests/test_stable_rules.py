"""Stable rules from Python: the same rules as the CLI's; on the quantile grid when asked, and never more of
them than the learner's own."""
import json
import os
import subprocess

import pytest

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "data", "corpus"))


def test_stable_rules_match_the_cli(tmp_path):
    path = os.path.join(DATASETS, "diabetes.arff")
    df = candor.read_arff(path)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    plain = candor.CN2Unordered().fit(X, y)
    on_grid = candor.CN2Unordered(stable_resamples=10, stable_thresholds="quantiles").fit(X, y)
    assert 0 < len(on_grid.rules_) <= len(plain.rules_)
    model = json.loads(on_grid.to_json())
    assert model["learner"]["stable_resamples"] == 10
    assert model["learner"]["stable_thresholds"] == "quantiles"
    def on_the_grid(c):
        # the deciles of the data (rank ceil(k n / 10)) or an attribute's largest value
        values = X[c["attribute"]].dropna().sort_values().to_numpy()
        n = len(values)
        return c["value"] in {values[max(-(-k * n // 10), 1) - 1] for k in range(1, 10)} | {values[-1]}

    for rule in model["rules"]:
        for c in rule["conditions"]:
            assert on_the_grid(c), c
    # Searched thresholds (the default) cut where the resamples' searches cut, off the grid.
    searched = candor.CN2Unordered(stable_resamples=10).fit(X, y)
    assert 0 < len(searched.rules_) <= len(plain.rules_)
    searched_model = json.loads(searched.to_json())
    assert any(not on_the_grid(c) for rule in searched_model["rules"] for c in rule["conditions"])
    assert searched_model["learner"]["stable_thresholds"] == "searched"
    assert searched_model["learner"]["stable_size"] == "learner"
    # Each stable rule states the share of the 10 resamples that found it, in tenths, at least 0.5.
    shares = searched.rules_["stable_frequency"]
    assert ((shares >= 0.5) & (shares <= 1)).all()
    assert all(abs(10 * s - round(10 * s)) < 1e-9 for s in shares)
    assert "stable_frequency" not in plain.rules_.columns
    if not os.path.exists(CLI):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    for options, expected in (([], searched_model), (["--stable-thresholds", "quantiles"], model)):
        out = tmp_path / "m.json"
        subprocess.run([CLI, "fit", path, "-o", str(out), "--learner", "cn2-unordered", "--stable-resamples", "10",
                        *options], check=True, capture_output=True)
        assert json.loads(out.read_text())["rules"] == expected["rules"]


def test_stable_mode_says_which_learner_found_each_rule():
    # The stable mode's rules come from covering and from a one-condition gradient search; each is corrected
    # by its own search's EVC laws, and the rule table and model file say which.
    df = candor.read_arff(os.path.join(DATASETS, "credit-a.arff"))
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    model = candor.RuleLogistic(stable_resamples=10).fit(X, y)
    table = model.rules_
    assert set(table["additive"]) == {True, False}
    assert (table.loc[table["additive"], "rule"].str.count(" AND ") == 0).all()
    rules = json.loads(model.to_json())["rule_model"]
    assert rules["additive_evc"]["laws"] != rules["evc"]["laws"]
    assert all(len(laws) == 1 for laws in rules["additive_evc"]["laws"].values())
    assert "additive" not in candor.RuleLogistic().fit(X, y).rules_.columns
