"""Stable rules from Python: the same rules as the CLI's, each numeric threshold on the quantile grid."""
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
    est = candor.CN2Unordered(stable_resamples=10, stable_frequency=0.5).fit(X, y)
    plain = candor.CN2Unordered().fit(X, y)
    assert 0 < len(est.rules_) < len(plain.rules_)
    model = json.loads(est.to_json())
    assert model["learner"]["stable_resamples"] == 10
    # Thresholds lie on the deciles of the data (rank ceil(k n / 10)) or at an attribute's largest value.
    for rule in model["rules"]:
        for c in rule["conditions"]:
            values = X[c["attribute"]].dropna().sort_values().to_numpy()
            n = len(values)
            grid = {values[max(-(-k * n // 10), 1) - 1] for k in range(1, 10)} | {values[-1]}
            assert c["value"] in grid, c
    if not os.path.exists(CLI):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    out = tmp_path / "m.json"
    subprocess.run([CLI, "fit", path, "-o", str(out), "--learner", "cn2-unordered", "--stable-resamples", "10"],
                   check=True, capture_output=True)
    assert json.loads(out.read_text())["rules"] == model["rules"]
