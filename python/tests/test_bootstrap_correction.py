"""--correct bootstrap from Python: the same model as the CLI's, its shrinkage recorded, every probability
inside its interval and pulled from the rule's frequency towards its class's prior."""
import json
import os
import subprocess

import numpy as np
import pytest

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("CANDOR_CLI", os.path.join(ROOT, "build", "candor"))
DATASETS = os.environ.get("CANDOR_DATASETS", os.path.join(ROOT, "data", "corpus"))


def test_bootstrap_correction_matches_the_cli_and_shrinks_towards_the_prior(tmp_path):
    path = os.path.join(DATASETS, "credit-a.arff")
    df = candor.read_arff(path)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    est = candor.CN2Unordered(correct="bootstrap", bootstrap_resamples=10).fit(X, y)
    model = json.loads(est.to_json())
    assert model["learner"]["correct"] == "bootstrap"
    assert model["bootstrap"]["resamples"] == 10
    rules = est.rules_
    assert (rules["interval_low"] <= rules["probability"]).all()
    assert (rules["probability"] <= rules["interval_high"]).all()
    prior = dict(zip(est.classes_, np.asarray(model["training"]["class_counts"]) / sum(model["training"]["class_counts"])))
    classes = list(est.classes_)
    for _, r in rules.iterrows():
        f = r["training_counts"][classes.index(r["class"])] / r["training_covered"]
        p0 = prior[r["class"]]
        # Between the prior and the frequency (inclusive: m = 0 leaves a rule as it is).
        assert min(p0, f) - 1e-12 <= r["probability"] <= max(p0, f) + 1e-12
    # Threads never change the model.
    again = candor.CN2Unordered(correct="bootstrap", bootstrap_resamples=10, n_jobs=2).fit(X, y)
    assert again.to_json() == est.to_json()
    if not os.path.exists(CLI):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    out = tmp_path / "m.json"
    subprocess.run([CLI, "fit", path, "-o", str(out), "--learner", "cn2-unordered", "--correct", "bootstrap",
                    "--bootstrap-resamples", "10"], check=True, capture_output=True)
    cli = json.loads(out.read_text())
    assert [r["probability"] for r in cli["rules"]] == [r["probability"] for r in model["rules"]]
    assert cli["bootstrap"] == model["bootstrap"]


def test_bootstrap_resamples_is_checked():
    df = candor.read_arff(os.path.join(DATASETS, "iris.arff"))
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    with pytest.raises(ValueError, match="bootstrap_resamples must be at least 2, not 1"):
        candor.CN2Unordered(correct="bootstrap", bootstrap_resamples=1).fit(X, y)


def test_tree_leaves_shrunk_out_of_bag_match_the_cli(tmp_path):
    path = os.path.join(DATASETS, "soybean.arff")
    df = candor.read_arff(path)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    est = candor.Tree(leaf_estimate="bootstrap", bootstrap_resamples=5).fit(X, y)
    model = json.loads(est.to_json())
    assert model["leaf_shrinkage"]["resamples"] == 5 and model["leaf_shrinkage"]["m"] > 0
    proba = est.predict_proba(X)
    assert np.all(proba > 0)  # every class keeps a share in every leaf
    if not os.path.exists(CLI):
        pytest.skip(f"the candor CLI is not built at {CLI} (set CANDOR_CLI)")
    out = tmp_path / "t.json"
    subprocess.run([CLI, "fit", path, "-o", str(out), "--learner", "tree", "--leaf-estimate", "bootstrap",
                    "--bootstrap-resamples", "5"], check=True, capture_output=True)
    cli = json.loads(out.read_text())["leaf_shrinkage"]
    # Python orders the classes as sklearn does (sorted), the ARFF file as declared: the same tree with its
    # classes permuted, and sums taken in another order.
    assert cli["leaves"] == model["leaf_shrinkage"]["leaves"]
    assert cli["m"] == pytest.approx(model["leaf_shrinkage"]["m"], rel=1e-6)
