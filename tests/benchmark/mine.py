"""A user's method as a plug-in file: the sum over labels of |Pearson r| (a filter).

``mlfs benchmark --plugin tests/benchmark/mine.py --method MineSumPearson ...``
loads it; the tests also import it and register it in-process.
"""

from __future__ import annotations

import numpy as np

from mlfs_core.errors import ConfigError
from mlfs_core.selectors import MethodSpec, Ranking, get_method, register


def _sum_abs_pearson(X, Y, *, k, random_state, **params):
    X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    Xc = X - X.mean(axis=0)
    Yc = Y - Y.mean(axis=0)
    xs = np.sqrt((Xc**2).sum(axis=0))
    ys = np.sqrt((Yc**2).sum(axis=0))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (Xc.T @ Yc) / np.outer(xs, ys)
    scores = np.nan_to_num(np.abs(r), nan=0.0).sum(axis=1)
    order = np.lexsort((np.arange(scores.size), -scores))
    n = scores.size if k is None else min(int(k), scores.size)
    return Ranking(order=order[:n].astype(np.int64), scores=scores)


SPEC = MethodSpec(
    name="MineSumPearson",
    family="extra",
    rank=_sum_abs_pearson,
    description="Sum over labels of the absolute Pearson correlation.",
)
try:  # imported twice (a test and the plug-in loader): registered once
    get_method(SPEC.name)
except ConfigError:
    register(SPEC)
