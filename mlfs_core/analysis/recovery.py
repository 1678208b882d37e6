"""Planted-truth recovery: how many of the top k features are truly informative."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import is_int
from ..columns import DATASET, FEATURES, FOLD, METHOD, PRECISION, REPEAT, K
from ..errors import MLFSError


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
    """Read the planted informative feature indices of a synthetic dataset.

    Parameters
    ----------
    path : str, path-like or file object
        A JSON file in one of these layouts (the first match wins):

        - an object with ``"all_informative"``: a flat list of indices, the
          union over labels (the layout of ``sample_data/planted_truth.json``);
        - an object with ``"informative"`` (or ``"informative_features"``):
          a flat list, or a mapping label -> list whose union is taken;
        - a bare JSON list of indices.

    Returns
    -------
    list of int
        The indices, in file order for a flat list, sorted for a union.

    Raises
    ------
    MLFSError
        If the file is not JSON, holds none of the layouts above, or an index
        is not a non-negative integer; the message names the file.

    Examples
    --------
    >>> import io
    >>> text = '{"informative": {"l0": [4, 2], "l1": [2, 9]}}'
    >>> load_planted_truth(io.StringIO(text))
    [2, 4, 9]
    >>> load_planted_truth(io.StringIO("[5, 1]"))
    [5, 1]
    """
    name = _file_name(path)
    try:
        if hasattr(path, "read"):
            data = json.load(path)
        else:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MLFSError(f"{name} is not a readable JSON file: {exc}") from None
    if isinstance(data, dict):
        data = _truth_entry(data, name)
    if isinstance(data, dict):
        data = sorted({i for values in data.values() for i in _indices(values, name)})
    return _indices(data, name)


_TRUTH_KEYS = ("all_informative", "informative", "informative_features")


def _truth_entry(data: dict, name: str):
    for key in _TRUTH_KEYS:
        if key in data:
            return data[key]
    raise MLFSError(
        f"{name}: no informative indices in the planted truth "
        f"(expected one of the keys {', '.join(_TRUTH_KEYS)})"
    )


def _indices(values, name: str) -> list[int]:
    """``values`` as a list of non-negative ints; MLFSError naming ``name`` else."""
    if not isinstance(values, list) or not all(is_int(v) and v >= 0 for v in values):
        raise MLFSError(
            f"{name}: informative features must be lists of non-negative "
            f"integer indices, got {str(values)[:60]}"
        )
    return [int(v) for v in values]


def _file_name(path) -> str:
    if hasattr(path, "read"):
        return Path(str(getattr(path, "name", "<stream>"))).name
    return Path(path).name
