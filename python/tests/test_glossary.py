"""docs/glossary.md defines every field name the CLI writes: the rule table of every model kind, the model
files' keys, `candor evaluate --format json` (folds, confusion matrix, stability) and an experiment grid's CSV
columns. The names are collected from real fits, so a field added without its definition fails here."""
import csv
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("CANDOR_CLI", str(ROOT / "build" / "candor"))
DATA = ROOT / "data" / "corpus"
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
NAME = r"`([A-Za-z_][A-Za-z0-9_]*)`"

# One model of every kind and option that adds fields of its own.
FITS = {
    "default": ["credit-a"],
    "rule-set": ["credit-a", "--learner", "cn2-unordered", "--stability", "3"],
    "decision-list": ["credit-a", "--learner", "cn2-ordered"],
    "evc": ["iris", "--learner", "cn2-unordered", "--quality", "evc"],
    "best-rule-set": ["vote", "--learner", "cn2-unordered", "--max-rules", "1", "--target", "republican"],
    "rule-logistic": ["credit-a", "--learner", "rule-logistic", "--features", "rules+attributes"],
    "tree": ["credit-a", "--learner", "tree"],
    "stump": ["credit-a", "--learner", "stump"],
    "kbs": ["credit-a", "--learner", "boost", "--base", "tree", "--iterations", "2"],
    "kbs-one-vs-rest": ["iris", "--learner", "boost", "--base", "tree", "--iterations", "2", "--calibrate", "smoothing"],
    "adaboost": ["credit-a", "--learner", "boost", "--boosting", "adaboost-m1", "--iterations", "2",
                 "--calibrate", "temperature"],
    "logitboost": ["iris", "--learner", "boost", "--boosting", "logitboost", "--iterations", "2",
                   "--calibrate", "discount"],
    "pril": ["credit-a", "--learner", "pril"],
    "relaxed": ["iris", "--rule-penalty", "relaxed", "--lambda-folds", "2"],
}


def run(*args):
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def data_file(name):
    path = DATA / f"{name}.arff"
    return path if path.exists() else ROOT / "data" / f"{name}.arff"


def entry_heads():
    """The names an entry defines: the backticked names before the first colon of each list item."""
    items = re.findall(r"^- (.*(?:\n  .*)*)", GLOSSARY, re.M)  # an item and its indented continuation lines
    return {name for item in items for name in re.findall(NAME, item.split(": ")[0])}


def mentioned():
    return set(re.findall(NAME, GLOSSARY))


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("glossary")
    out = {}
    for name, (data, *options) in FITS.items():
        path = folder / f"{name}.json"
        run("fit", data_file(data), "-o", path, *options)
        out[name] = path
    return out


def test_the_glossary_reads_its_entries():
    heads = entry_heads()
    # A parser that found nothing would make every check below pass.
    assert {"covered", "training_covered", "probability", "log_loss", "temperature"} <= heads
    assert "source" not in heads  # a sub-key, defined inside its parent's entry


def test_every_rule_table_column_is_defined(models):
    heads = entry_heads()
    columns = set()
    for name, path in models.items():
        table = json.loads(run("rules", path, "--format", "json"))
        assert table["rules"], name
        columns |= set(table)
        for row in table["rules"]:
            columns |= set(row)
    assert {"vote_weight", "lifts", "lift_ratio", "response", "reliability", "frequency", "gamma"} <= columns
    assert columns - heads == set()


def test_every_model_file_key_is_defined(models):
    heads, anywhere = entry_heads(), mentioned()
    top, inner = set(), set()
    for path in models.values():
        model = json.loads(path.read_text())
        top |= set(model)
        inner |= set(model["training"])
        for rule in model.get("rules", []):
            inner |= set(rule)
        for member in model.get("members", []):
            inner |= set(member)
        inner |= set(model.get("lambda_search", {}))
        for branch in model.get("branches", []):
            for rule_set in branch["sets"]:
                inner |= set(rule_set)
                for rule in rule_set["rules"]:
                    inner |= set(rule)
    assert {"temperature", "lift_prior_weight", "member_discount", "evc", "stability", "cuts"} <= top
    assert {"on", "folds", "grid", "log_loss", "gamma_log_loss"} <= inner  # a relaxed model's lambda search
    assert top - heads == set()
    assert inner - anywhere == set()


def test_every_evaluation_field_is_defined(tmp_path):
    heads, anywhere = entry_heads(), mentioned()
    names, inner = set(), set()
    for options in (["--learner", "cn2-unordered", "--stability", "3"], ["--learner", "pril"]):
        result = json.loads(run("evaluate", data_file("iris"), "--folds", "3", "--format", "json", *options))
        names |= set(result)
        for fold in result["folds"]:
            names |= set(fold)
        inner |= set(result["confusion"]) | set(result["confusion"]["per_class"][0])
        names |= set(result.get("stability", {}))
    assert {"rule_set_stability", "adjusted_accuracy", "kappa"} <= names | inner
    assert names - heads == set()
    assert inner - anywhere == set()

    run("experiment", "grid", "--learner", "s=--learner stump", "--learner", "p=--learner pril",
        "--datasets-dir", DATA, "--datasets", "iris", "--folds", "2", "--out", tmp_path / "grid")
    with open(tmp_path / "grid" / "results.csv") as f:
        header = set(next(csv.reader(f)))
    assert "conditions" in header
    assert header - heads == set()
