"""RF-ML for one reference instance: its neighbours and how it moves the weights.

Replays :mod:`mlfs_core.selectors.field.relief` with the engine's own
functions: the reference's k nearest neighbours (Manhattan distance over the
scaled features, the reference itself excluded, ties to the lowest index),
each neighbour's feature and label distance, and every feature's weight
computed from every reference but this one ("before") and from all of them
("after", exactly the weights :func:`mlfs_core.rank_features` ranks by with
``n_samples = 0``). The difference is this instance's contribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_XY
from ..errors import ConfigError
from ..selectors.field._scaling import scale
from ..selectors.field.relief import (
    Neighbours,
    ReliefSums,
    label_distance,
    nearest_neighbours,
    relief_sums,
)

_MAX_POINTS = 2000
"""Most instances a :attr:`ReliefSteps.points` table holds: every neighbour,
then the others evenly spaced in distance order."""


@dataclass(frozen=True)
class ReliefSteps:
    """One reference instance of RF-ML, recorded.

    Attributes
    ----------
    reference : int
        The reference instance.
    k : int
        Neighbours per reference (``n_neighbors``, at most n - 1).
    neighbours : DataFrame
        One row per neighbour, nearest first: ``rank`` (1..k), ``instance``,
        ``feature_distance`` (Manhattan, scaled features) and
        ``label_distance`` (Hamming / q).
    points : DataFrame
        The other instances (at most :func:`relief_steps`'s ``max_points``):
        ``instance``, ``feature_distance``, ``label_distance``, ``neighbour``
        (bool).
    n_points : int
        How many other instances there are (n - 1).
    weights : DataFrame
        One row per feature, by weight after, descending (ties: lowest index):
        ``feature``, ``before`` (every reference but this one), ``after``
        (all references), ``change``, ``difference`` (the mean of
        ``|x_r - x_j|`` over the neighbours j) and ``label_weighted`` (the
        mean of ``d_Y(r, j) |x_r - x_j|``).
    n_y : tuple of float
        ``N_Y`` before and after.
    """

    reference: int
    k: int
    neighbours: pd.DataFrame
    points: pd.DataFrame
    n_points: int
    weights: pd.DataFrame
    n_y: tuple[float, float]


def relief_totals(X, Y, *, n_neighbors: int = 10, scaling: str = "minmax"):
    """RF-ML's sums over every reference (the expensive part, computed once).

    Returns
    -------
    ReliefSums
        With ``m = n``; :meth:`~ReliefSums.weights` are RF-ML's scores.

    Raises
    ------
    ConfigError
        With fewer than two instances (no neighbour to compare with).
    """
    X, Y = check_XY(X, Y)
    n = X.shape[0]
    if n < 2:
        raise ConfigError("RF-ML needs at least two instances to find neighbours")
    Xs = scale(X, scaling)
    found = nearest_neighbours(Xs, np.arange(n), min(int(n_neighbors), n - 1))
    return relief_sums(Xs, np.asarray(Y), found)


def _points(Xs, Y, reference: int, k: int, limit: int) -> pd.DataFrame:
    n = Xs.shape[0]
    everyone = nearest_neighbours(Xs, np.array([reference]), n - 1)
    others = everyone.index[0]
    keep = np.arange(others.size)
    if others.size > limit:  # all neighbours, then evenly spaced in distance order
        rest = np.linspace(k, others.size - 1, max(limit - k, 1)).round()
        keep = np.unique(np.concatenate([np.arange(k), rest.astype(np.int64)]))
    chosen = others[keep]
    return pd.DataFrame(
        {
            "instance": chosen,
            "feature_distance": everyone.distance[0][keep],
            "label_distance": label_distance(
                Y, np.full(chosen.size, reference), chosen
            ),
            "neighbour": keep < k,
        }
    )


def relief_steps(
    X,
    Y,
    reference: int,
    *,
    n_neighbors: int = 10,
    scaling: str = "minmax",
    total: ReliefSums | None = None,
    max_points: int = _MAX_POINTS,
) -> ReliefSteps:
    """The neighbours of one reference instance and its effect on every weight.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    reference : int
        The reference instance, in ``[0, n_samples)``.
    n_neighbors : int, default=10
        RF-ML's k (at most n - 1 are used).
    scaling : {"minmax", "standard", "none"}, default="minmax"
    total : ReliefSums, optional
        :func:`relief_totals` of the same data and options (computed if not
        given; the app caches it apart, as it does not depend on the
        reference).
    max_points : int, default=2000
        Most other instances in :attr:`ReliefSteps.points`.

    Raises
    ------
    ConfigError
        For a reference out of range, or fewer than two instances.
    """
    X, Y = check_XY(X, Y)
    Y = np.asarray(Y)
    n = X.shape[0]
    if not 0 <= int(reference) < n:
        raise ConfigError(f"reference must be an instance in [0, {n}), got {reference}")
    reference = int(reference)
    if total is None:
        total = relief_totals(X, Y, n_neighbors=n_neighbors, scaling=scaling)
    Xs = scale(X, scaling)
    k = min(int(n_neighbors), n - 1)
    own = nearest_neighbours(Xs, np.array([reference]), k)
    part = relief_sums(Xs, Y, own)
    return ReliefSteps(
        reference=reference,
        k=k,
        neighbours=_neighbour_table(Y, own),
        points=_points(Xs, Y, reference, k, max_points),
        n_points=n - 1,
        weights=_weight_table(total, part),
        n_y=(float((total - part).n_y), float(total.n_y)),
    )


def _neighbour_table(Y, own: Neighbours) -> pd.DataFrame:
    index = own.index[0]
    return pd.DataFrame(
        {
            "rank": np.arange(1, index.size + 1),
            "instance": index,
            "feature_distance": own.distance[0],
            "label_distance": label_distance(Y, np.repeat(own.rows, index.size), index),
        }
    )


def _weight_table(total: ReliefSums, part: ReliefSums) -> pd.DataFrame:
    after = total.weights()
    before = (total - part).weights()
    table = pd.DataFrame(
        {
            "feature": np.arange(after.size),
            "before": before,
            "after": after,
            "change": after - before,
            "difference": part.n_f,
            "label_weighted": part.n_yf,
        }
    )
    order = np.argsort(-after, kind="stable")
    return table.iloc[order].reset_index(drop=True)
