"""Similarity of selected feature subsets: Kuncheva's consistency index (Table 6)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from .._validation import budget_from_percent
from ..columns import DATASET, FEATURES, FOLD, METHOD, N_FEATURES, REPEAT
from ._blocks import all_features_references
from ._cells import check_rankings


def kuncheva_index(a, b, n_features: int) -> float:
    """Kuncheva's consistency index of two feature subsets of equal size.

    KI = (r M - k^2) / (k (M - k)) with k the subset size, M = ``n_features``
    and r the size of the intersection; 1 for identical subsets, about 0 for
    the overlap expected by chance, down to -1.

    Parameters
    ----------
    a, b : array-like of int
        Feature indices (order is ignored), both of size k with 0 < k < M.
    n_features : int
        Total number of features M.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the subsets differ in size, hold duplicates, or k is 0 or M.

    References
    ----------
    Kuncheva (2007), "A stability index for feature selection", AIA.

    Examples
    --------
    >>> kuncheva_index([0, 1], [1, 2], 4)
    0.0
    >>> kuncheva_index([0, 1], [0, 1], 4)
    1.0
    """
    raw_a, raw_b = np.ravel(a), np.ravel(b)
    # sort + neighbour test: numpy 2's hash-based np.unique is ~20x slower here,
    # and a study page computes thousands of these indices
    a, b = np.sort(raw_a), np.sort(raw_b)
    distinct = not (np.any(a[1:] == a[:-1]) or np.any(b[1:] == b[:-1]))
    if not distinct or a.size != b.size:
        raise ValueError(
            "kuncheva_index needs two subsets of equal size without duplicates, "
            f"got sizes {raw_a.size} and {raw_b.size}"
        )
    k, m = a.size, int(n_features)
    if not 0 < k < m:
        raise ValueError(
            f"kuncheva_index is defined for 0 < k < n_features, got k={k}, "
            f"n_features={m}"
        )
    r = np.intersect1d(a, b, assume_unique=True).size
    return float((r * m - k * k) / (k * (m - k)))


def similarity_matrix(
    selections: pd.DataFrame,
    *,
    budget: int | None = None,
    budget_pct: float | None = None,
    repeat: int = 0,
    methods: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Kuncheva index between methods at one budget, averaged over folds and datasets.

    Parameters
    ----------
    selections : DataFrame
        The runner's selections table: ``dataset, method, fold, repeat,
        n_features, features`` (ranked feature indices, best first).
    budget : int, optional
        Subset size k (the top k of each ranking).
    budget_pct : float, optional
        Subset size as a percentage of each dataset's features (rounded to
        nearest, at least 1); give exactly one of ``budget`` and ``budget_pct``.
    repeat : int, default=0
        Which run of stochastic methods to use (Spolaôr and Tsoumakas (2013)
        use one run).
    methods : sequence of str, optional
        Methods to compare (default all whose rankings hold at least k
        features, with k below M).
    exclude : sequence of str, optional
        Methods never compared. Default: the registered all-features
        baselines (keeping every feature is no selection; see
        :func:`~mlfs_core.analysis.all_features_references`).

    Returns
    -------
    DataFrame
        Square, indexed and labelled by method; the diagonal is 1.

    Notes
    -----
    For each (dataset, fold) the index is computed for every pair of methods
    on their top-k subsets; the matrix entry is the mean over all (dataset,
    fold) pairs in which both methods appear. A ranking (dataset, method,
    fold, repeat) given twice with the same features counts once; with
    different features the table is refused
    (:class:`~mlfs_core.errors.ConflictingCellsError` names the rankings).
    """
    table = selections[~selections[METHOD].isin(all_features_references(exclude))]
    table = check_rankings(table, "similarity_matrix")
    pairs = _pairwise(table, budget, budget_pct, repeat, methods)
    if pairs.empty:
        return pd.DataFrame(dtype=float)
    mean = pairs.groupby(["a", "b"])["ki"].mean()
    names = sorted(set(pairs["a"]) | set(pairs["b"]), key=_order_key(selections))
    pos = {m: i for i, m in enumerate(names)}
    values = np.full((len(names), len(names)), np.nan)
    for (a, b), v in mean.items():
        values[pos[a], pos[b]] = values[pos[b], pos[a]] = v
    np.fill_diagonal(values, 1.0)
    return pd.DataFrame(values, index=pd.Index(names, name=METHOD), columns=names)


def _order_key(selections: pd.DataFrame):
    order = {m: i for i, m in enumerate(pd.unique(selections[METHOD]))}
    return lambda m: order.get(m, len(order))


def _top_k(row, budget, budget_pct) -> np.ndarray | None:
    m = int(row[N_FEATURES])
    k = budget if budget is not None else budget_from_percent(budget_pct, m)
    features = np.asarray(row[FEATURES])
    if not 0 < k < m or features.size < k:
        return None
    return features[:k]


def _pairwise(selections, budget, budget_pct, repeat, methods) -> pd.DataFrame:
    if (budget is None) == (budget_pct is None):
        raise ValueError("give exactly one of budget and budget_pct")
    table = selections[selections[REPEAT] == repeat]
    if methods is not None:
        table = table[table[METHOD].isin(list(methods))]
    names_a: list[str] = []
    names_b: list[str] = []
    values: list[np.ndarray] = []
    for _, group in table.groupby([DATASET, FOLD], sort=True):
        subsets = {}
        for method, m, features in zip(
            group[METHOD], group[N_FEATURES], group[FEATURES], strict=True
        ):
            top = _top_k({N_FEATURES: m, FEATURES: features}, budget, budget_pct)
            if top is not None:
                subsets[method] = (top, int(m))
        if len(subsets) < 2:
            continue
        names = list(subsets)
        ki = _group_indices([subsets[n] for n in names])
        first, second = np.triu_indices(len(names), k=1)  # combinations' order
        names_a += [names[i] for i in first]
        names_b += [names[j] for j in second]
        values.append(ki[first, second])
    ki = np.concatenate(values) if values else np.array([], dtype=float)
    return pd.DataFrame({"a": names_a, "b": names_b, "ki": ki})


def _group_indices(subsets: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """Kuncheva index of every pair of ``(top_k, M)`` subsets, as a square array.

    One membership matrix gives all intersection sizes at once (a study page
    compares thousands of pairs of subsets of thousands of features). The
    same formula in the same float arithmetic as :func:`kuncheva_index`, so
    the values are identical; subsets it would refuse (duplicates, unequal
    sizes, an index outside the features) go through it pair by pair for
    its error.
    """
    sizes = {top.size for top, _ in subsets}
    widths = {m for _, m in subsets}
    regular = len(sizes) == 1 and len(widths) == 1
    if regular:
        (k,), (m,) = sizes, widths
        tops = np.stack([top for top, _ in subsets])
        regular = bool(tops.size) and tops.min() >= 0 and tops.max() < m
    if regular:  # 0/1 rows in float64: exact counts from one BLAS product
        member = np.zeros((len(subsets), m))
        member[np.arange(len(subsets))[:, None], tops] = 1.0
        regular = bool((member.sum(axis=1) == k).all())  # no duplicates
    if not regular:
        n = len(subsets)
        out = np.full((n, n), np.nan)
        for i, j in combinations(range(n), 2):
            (a, m_a), (b, _) = subsets[i], subsets[j]
            out[i, j] = kuncheva_index(a, b, m_a)
        return out
    r = np.rint(member @ member.T).astype(np.int64)
    return (r * m - k * k) / (k * (m - k))
