"""Plots of how honest a fitted model is on data: the reliability diagram of its predictions and each rule's
probability against its share on the data (as `candor evaluate --plot` draws them). matplotlib is needed."""
import numpy as np


def _reliability(proba, y_index, bins=10):
    top = proba.max(axis=1)
    right = proba.argmax(axis=1) == y_index
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(top, edges[1:-1], right=True), 0, bins - 1)
    out = []
    for b in range(bins):
        mask = which == b
        if mask.any():
            out.append((top[mask].mean(), right[mask].mean(), int(mask.sum())))
    return out


def plot_calibration(model, X, y, axes=None):
    """Draws two panels for a fitted candor estimator on data X, y (ideally not the training data): left, the
    reliability diagram of the top-label probability (10 equal bins, each point sized and labelled by its
    rows); right, for a rule model, each rule's probability against the share of its class among the rows it
    fires on, sized by those rows and labelled by its rule id (the index of rules_). Points below the diagonal
    promised more than they delivered. Returns the matplotlib Figure."""
    import matplotlib.pyplot as plt

    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    else:
        fig = axes[0].figure
    y = np.asarray(y)
    classes = list(model.classes_)
    y_index = np.array([classes.index(v) if v in classes else -1 for v in y])
    proba = np.asarray(model.predict_proba(X))
    points = _reliability(proba[y_index >= 0], y_index[y_index >= 0])
    ax = axes[0]
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8)
    if points:
        p, acc, n = (np.array(v) for v in zip(*points))
        ax.scatter(p, acc, s=20 + 200 * n / n.max())
        for pi, ai, ni in zip(p, acc, n):
            ax.annotate(str(ni), (pi, ai), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="mean predicted probability (top label)", ylabel="observed accuracy",
           title="Reliability of the predictions")
    ax = axes[1]
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8)
    rules = model.rules_
    if {"class", "probability"} <= set(rules.columns):
        fired = model.explain(X)
        for rule_id, row in rules.iterrows():
            hits = [i for i, e in enumerate(fired) if str(rule_id) in e and y_index[i] >= 0]
            if not hits:
                continue
            share = float(np.mean([y[i] == row["class"] for i in hits]))
            ax.scatter(row["probability"], share, s=10 + 3 * len(hits), alpha=0.7)
            ax.annotate(str(rule_id), (row["probability"], share), textcoords="offset points", xytext=(3, 3), fontsize=7)
    ax.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="rule probability", ylabel="share of its class where it fires",
           title="Rules: promised against delivered")
    fig.tight_layout()
    return fig
