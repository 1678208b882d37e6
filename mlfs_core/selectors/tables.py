"""Rankings as tidy tables: one ranking, two top-k lists side by side, selections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..columns import DATASET, FEATURES, FOLD, METHOD, REPEAT
from ._registry import Ranking

_POSITION = "position"
FEATURE_INDEX = "feature_index"
FEATURE = "feature"
_SCORE = "score"
RANKING_COLUMNS = [_POSITION, FEATURE_INDEX, FEATURE, _SCORE]


def ranking_frame(ranking: Ranking, feature_names: Sequence[str]) -> pd.DataFrame:
    """One ranking as a table, best feature first.

    Parameters
    ----------
    ranking : Ranking
        What :func:`mlfs_core.compute_ranking` returns.
    feature_names : sequence of str of length n_features
        Name of each feature column.

    Returns
    -------
    DataFrame
        One row per ranked feature with columns ``position`` (1-based),
        ``feature_index``, ``feature`` (name) and ``score``: the method's
        score (higher is better) or, for greedy methods, the criterion value
        ``J(f | S)`` of each feature when it was selected (``criterion_path``),
        not the position pseudo-score.

    Raises
    ------
    ValueError
        If ``feature_names`` does not name every scored feature.

    Examples
    --------
    >>> import numpy as np
    >>> r = Ranking(order=np.array([2, 0]), scores=np.array([0.5, 0.1, 0.9]))
    >>> ranking_frame(r, ["a", "b", "c"])
       position  feature_index feature  score
    0         1              2       c    0.9
    1         2              0       a    0.5
    """
    order = np.asarray(ranking.order, dtype=np.int64)
    scores = np.asarray(ranking.scores, dtype=np.float64)
    if len(feature_names) != scores.size:
        raise ValueError(
            f"feature_names has {len(feature_names)} names for {scores.size} features"
        )
    if ranking.criterion_path is not None:  # greedy: the real criterion values
        shown = np.asarray(ranking.criterion_path, dtype=np.float64)
    else:
        shown = scores[order]
    return pd.DataFrame(
        {
            _POSITION: np.arange(1, order.size + 1),
            FEATURE_INDEX: order,
            FEATURE: pd.Series([feature_names[i] for i in order], dtype=object),
            _SCORE: shown,
        },
        columns=RANKING_COLUMNS,
    )


def topk_side_by_side(
    a: pd.DataFrame, b: pd.DataFrame, k: int, names: tuple[str, str]
) -> tuple[pd.DataFrame, int]:
    """The top ``k`` features of two rankings side by side, and their overlap.

    Parameters
    ----------
    a, b : DataFrame
        Rankings as returned by :func:`ranking_frame` (best first).
    k : int
        Number of top features of each ranking to compare (0 gives an empty table).
    names : tuple of (str, str)
        Column titles of ``a`` and ``b``, usually the method names. Equal
        names get the suffixes `` (1)`` and `` (2)`` so no column is lost.

    Returns
    -------
    table : DataFrame
        Columns ``position``, ``names[0]`` (feature of ``a``), ``in
        names[1]`` (whether it is also in ``b``'s top k), ``names[1]`` and
        ``in names[0]``. If one ranking has fewer than ``k`` features its
        missing rows hold NaN and False.
    overlap : int
        Number of features in both top-``k`` lists.

    Examples
    --------
    >>> import numpy as np
    >>> feats = ["a", "b", "c", "d"]
    >>> a = ranking_frame(Ranking(np.array([0, 1]), np.array([4.0, 3, 2, 1])), feats)
    >>> b = ranking_frame(Ranking(np.array([2, 0]), np.array([3.0, 1, 4, 2])), feats)
    >>> table, overlap = topk_side_by_side(a, b, 2, ("A", "B"))
    >>> overlap
    1
    >>> table
       position  A   in B  B   in A
    0         1  a   True  c  False
    1         2  b  False  a   True
    """
    k = max(int(k), 0)
    first, second = names
    if first == second:  # equal titles would merge the two columns into one
        first, second = f"{first} (1)", f"{second} (2)"
    top_a = a.head(k).reset_index(drop=True)
    top_b = b.head(k).reset_index(drop=True)
    rows = pd.RangeIndex(max(len(top_a), len(top_b)))
    top_a, top_b = top_a.reindex(rows), top_b.reindex(rows)
    set_a = set(top_a[FEATURE_INDEX].dropna().astype(int))
    set_b = set(top_b[FEATURE_INDEX].dropna().astype(int))
    table = pd.DataFrame(
        {
            _POSITION: np.arange(1, len(rows) + 1),
            first: top_a[FEATURE].to_numpy(),
            f"in {second}": top_a[FEATURE_INDEX].isin(set_b).to_numpy(),
            second: top_b[FEATURE].to_numpy(),
            f"in {first}": top_b[FEATURE_INDEX].isin(set_a).to_numpy(),
        }
    )
    return table, len(set_a & set_b)


def selections_frame(dataset: str, orders: Mapping[str, ArrayLike]) -> pd.DataFrame:
    """Rankings of several methods as a one-fold selections table.

    This is the layout the experiment runner writes and the analysis
    functions (:func:`mlfs_core.analysis.recovery_table`,
    :func:`mlfs_core.analysis.similarity_matrix`) take.

    Parameters
    ----------
    dataset : str
        Name of the dataset the rankings were computed on.
    orders : mapping of str to array-like of int
        Method name -> feature indices, best first.

    Returns
    -------
    DataFrame
        One row per method with columns ``dataset``, ``method``, ``fold``
        (0), ``repeat`` (0) and ``features`` (an int ndarray).

    Examples
    --------
    >>> t = selections_frame("toy", {"MaxCS": [2, 0], "Random": []})
    >>> t[["method", "fold", "repeat"]].to_dict("list")
    {'method': ['MaxCS', 'Random'], 'fold': [0, 0], 'repeat': [0, 0]}
    >>> [f.tolist() for f in t["features"]]
    [[2, 0], []]
    """
    return pd.DataFrame(
        {
            DATASET: dataset,
            METHOD: list(orders),
            FOLD: 0,
            REPEAT: 0,
            FEATURES: [np.asarray(o, dtype=np.int64) for o in orders.values()],
        },
        columns=[DATASET, METHOD, FOLD, REPEAT, FEATURES],
    )
