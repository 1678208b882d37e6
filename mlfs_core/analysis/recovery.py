"""Planted-truth recovery: how many of the top k features are truly informative."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .._constants import DATASET, FEATURES, FOLD, METHOD, PRECISION, REPEAT, K


def precision_at_k(order, truth, k: int) -> float:
    """Fraction of the first ``k`` ranked features that are in ``truth``.

    Parameters
    ----------
    order : array-like of int
        Feature indices, best first (at least ``k`` of them).
    truth : array-like of int
        Indices of the planted informative features.
    k : int
        Number of top features to inspect, at least 1.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> precision_at_k([3, 0, 5, 1], [0, 1, 2], 2)
    0.5
    """
    order = np.asarray(order)
    if k < 1 or k > order.size:
        raise ValueError(f"k must lie in [1, {order.size}], got {k}")
    return float(np.isin(order[:k], np.asarray(truth)).mean())


def recovery_table(
    selections: pd.DataFrame, truth: Iterable[int], *, ks: Sequence[int] | None = None
) -> pd.DataFrame:
    """Precision at k of every ranking in a selections table.

    Parameters
    ----------
    selections : DataFrame
        ``dataset, method, fold, repeat, features`` (one dataset's rankings).
    truth : iterable of int
        Planted informative feature indices of that dataset.
    ks : sequence of int, optional
        Values of k (default 1 .. number of planted features); values beyond a
        ranking's length are skipped.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, fold, repeat, k, precision``.
    """
    truth = np.asarray(sorted({int(t) for t in truth}))
    ks = list(ks) if ks is not None else list(range(1, truth.size + 1))
    rows = []
    for _, row in selections.iterrows():
        order = np.asarray(row[FEATURES])
        for k in ks:
            if 1 <= k <= order.size:
                rows.append(
                    {
                        DATASET: row[DATASET],
                        METHOD: row[METHOD],
                        FOLD: row[FOLD],
                        REPEAT: row[REPEAT],
                        K: k,
                        PRECISION: precision_at_k(order, truth, k),
                    }
                )
    return pd.DataFrame(rows, columns=[DATASET, METHOD, FOLD, REPEAT, K, PRECISION])


def load_planted_truth(path) -> list[int]:
    """Read the informative feature indices from a ``planted_truth.json`` file.

    The file holds a JSON object with the indices under ``"all_informative"``
    or ``"informative"`` (a list, or a mapping label -> list whose union is
    taken), or is a bare JSON list of indices.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        for key in ("all_informative", "informative", "informative_features"):
            if key in data:
                data = data[key]
                break
        else:
            raise ValueError(f"{path}: no 'informative' list in the planted truth")
    if isinstance(data, dict):
        data = sorted({int(i) for values in data.values() for i in values})
    return [int(i) for i in data]
