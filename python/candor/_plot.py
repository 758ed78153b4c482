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


def plot_calibration(model, X, y, axes=None, labels=20):
    """Draws two panels for a fitted candor estimator on data X, y (ideally not the training data): left, the
    reliability diagram of the top-label probability (10 equal bins, each point sized and labelled by its
    rows); right, each rule that states a probability against the share of its class among the rows of X it
    decides, with its 95% interval as a horizontal line, sized by those rows, the `labels` rules deciding most
    labelled by their rule id (the index of rules_). These are the points of `candor evaluate --plot` and of
    the report page (Model::rule_points): for rule-logistic every rule a row has, for a tree its leaves, for
    PrIL its deciding rule. Points below the diagonal promised more than they delivered; an ensemble's leaves
    state no probability, so its right panel stays empty. Returns the matplotlib Figure."""
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
    rules = model.model_.rule_points(model._dataset(X, False, model._label_codes(y)))
    if rules:
        prob = np.array([r["probability"] for r in rules])
        share = np.array([r["share"] for r in rules])
        decided = np.array([r["decided"] for r in rules])
        low = np.array([r["low"] for r in rules])
        high = np.array([r["high"] for r in rules])
        has = np.isfinite(low) & np.isfinite(high)
        ax.hlines(share[has], low[has], high[has], color="tab:orange", alpha=0.35, linewidth=1)
        ax.scatter(prob, share, s=10 + 190 * decided / decided.max(), color="tab:orange", alpha=0.7)
        for k in np.argsort(-decided, kind="stable")[:labels]:
            if rules[k]["rule"] > 0:
                ax.annotate(str(rules[k]["rule"]), (prob[k], share[k]), textcoords="offset points", xytext=(3, 3),
                            fontsize=7)
    ax.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="rule probability",
           title="Rules: promised against delivered")
    ax.set_ylabel("share of its class among the rows it decides")
    fig.tight_layout()
    return fig
