"""est.stability() reports what `candor evaluate --stability` reports, for the same data and options."""
import json
import os
import subprocess
from pathlib import Path

import pytest

import candor

CLI = os.environ.get("CANDOR_CLI", str(Path(__file__).resolve().parents[2] / "build" / "candor"))
DATA = Path(__file__).resolve().parents[2] / "data" / "corpus" / "credit-a.arff"


@pytest.mark.parametrize("resampling", ["subsample", "folds"])
@pytest.mark.parametrize("est, options", [(candor.CN2Unordered(), ["--learner", "cn2-unordered"]),
                                          (candor.Tree(), ["--learner", "tree"]),
                                          (candor.PrIL(), ["--learner", "pril"])])
def test_python_stability_is_the_cli_stability(est, options, resampling):
    df = candor.read_arff(str(DATA))
    X, y = df.drop(columns="class"), df["class"]
    got = est.stability(X, y, resamples=4, resampling=resampling)
    out = subprocess.run([CLI, "evaluate", str(DATA), "--folds", "2", "--stability", "4", "--resampling", resampling,
                          "--format", "json"] + options, check=True, capture_output=True, text=True).stdout
    want = json.loads(out)["stability"]
    for key in ("rule_set_stability", "rule_set_stability_sd", "prediction_agreement", "probability_spread",
                "mean_rules"):
        assert got[key] == pytest.approx(want[key], abs=1e-12), key
    assert list(got["rule_frequency"]) == pytest.approx(want["rule_frequency"], abs=1e-12)
    assert list(got["rule_frequency"].index) == list(est.fit(X, y).rules_.index)


def test_stability_needs_labels_and_two_resamples():
    X = [[1.0], [2.0], [3.0], [4.0]]
    with pytest.raises(ValueError):
        candor.Stump().stability(X, None)
    with pytest.raises(ValueError, match="at least 2 resamples"):
        candor.Stump().stability(X, ["a", "a", "b", "b"], resamples=1)


def test_rules_carry_the_frequency_a_model_file_records(tmp_path):
    model = tmp_path / "m.json"
    subprocess.run([CLI, "fit", str(DATA), "--learner", "cn2-unordered", "--stability", "3", "-o", str(model)],
                   check=True, capture_output=True)
    recorded = json.loads(model.read_text())["stability"]["rule_frequency"]
    est = candor.CN2Unordered.from_json(model.read_text())
    assert list(est.rules_["frequency"]) == recorded
    assert len(recorded) == len(est.rules_)
