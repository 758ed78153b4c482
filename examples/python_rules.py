#!/usr/bin/env python3
"""A notebook in script form: candor from Python.

Fits an unordered CN2 rule set with extreme value correction on half of credit-a, prints its rules, plots each
rule's corrected probability against its accuracy on the other half, and compares the rule set and a logistic
regression over rules (candor's RuleLogistic) with scikit-learn's LogisticRegression.

    bash scripts/python.sh                                   # builds the package into build-python/venv
    build-python/venv/bin/python examples/python_rules.py    # writes out/python_rules.png
"""
import os

import numpy as np
import pandas as pd
from scipy.io import arff
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.compose import make_column_transformer
from sklearn.impute import SimpleImputer

import candor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data, meta = arff.loadarff(os.path.join(ROOT, "..", "shared", "datasets", "credit-a.arff"))
df = pd.DataFrame(data)
for name in df.columns:  # ARFF nominal values arrive as bytes; '?' is missing
    if df[name].dtype == object:
        df[name] = df[name].str.decode("utf-8").replace("?", np.nan).astype("category")
y = df.pop("class").astype(str).to_numpy()
X_train, X_test, y_train, y_test = train_test_split(df, y, test_size=0.5, stratify=y, random_state=1)

rules = candor.CN2Unordered(quality="evc").fit(X_train, y_train)
print(rules.rules_[["rule", "class", "covered", "probability"]].to_string(max_colwidth=70))

# Each rule's accuracy on the test half, among the test cases it fires on, against its corrected probability.
table = rules.rules_
fired = rules.explain(X_test)
accuracy = []
for k in range(len(table)):
    hits = [i for i, e in enumerate(fired) if str(k + 1) in e]
    accuracy.append(np.mean(y_test[hits] == table["class"][k]) if hits else np.nan)
table["test_accuracy"] = accuracy

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.figure(figsize=(4.5, 4.5))
    plt.scatter(table["probability"], table["test_accuracy"], s=12 + table["covered"] / 4, alpha=0.7)
    plt.plot([0, 1], [0, 1], "k--", lw=1)
    plt.xlabel("EVC-corrected probability (training)")
    plt.ylabel("accuracy on the test half")
    plt.title("credit-a: do the rules tell the truth?")
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    plt.savefig(os.path.join(ROOT, "out", "python_rules.png"), dpi=120, bbox_inches="tight")
    print("wrote out/python_rules.png")
except ImportError:
    print("matplotlib is not installed: no plot")

numeric = [c for c in df.columns if df[c].dtype != "category"]
nominal = [c for c in df.columns if df[c].dtype == "category"]
logistic = make_pipeline(
    make_column_transformer(
        (make_pipeline(SimpleImputer(), StandardScaler()), numeric),
        (make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")), nominal)),
    LogisticRegression(max_iter=1000))
for name, model in [("candor CN2-EVC rule set", rules),
                    ("candor RuleLogistic (the default)", candor.RuleLogistic().fit(X_train, y_train)),
                    ("candor RuleLogistic (LRRP-EVC)",
                     candor.RuleLogistic(features="rules+attributes", quality="evc").fit(X_train, y_train)),
                    ("scikit-learn LogisticRegression", logistic.fit(X_train, y_train))]:
    p = model.predict_proba(X_test)
    positive = list(model.classes_).index("+")
    print(f"{name:34s} accuracy {np.mean(model.predict(X_test) == y_test):.3f}  "
          f"AUC {roc_auc_score(y_test == '+', p[:, positive]):.3f}  log loss {log_loss(y_test, p, labels=model.classes_):.3f}")
