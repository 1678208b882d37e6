"""A sparse-regression method (RFS, LLSF, MIFS), iteration by iteration.

:func:`sparse_steps` runs the engine's own fit
(:func:`mlfs_core.selectors.field.sparse.fit_sparse`) once with the chosen
options, recording the row norms of ``W`` after each iteration, and once per
value of a small grid of its sparsity penalty (``gamma`` for RFS and MIFS,
``beta`` for LLSF), keeping the final row norms. The tests check that the
last recorded iteration gives exactly :func:`mlfs_core.rank_features`'s
ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..aggregation import order_by_score
from ..selectors import get_method
from ..selectors.field.sparse import fit_sparse, prepared

_PENALTY = {"RFS": "gamma", "LLSF": "beta", "MIFS": "gamma"}
"""The option each method's sparsity penalty is, whose grid the page draws."""
_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
"""Multiples of the penalty's value in the shrinkage grid."""
_GRID_TOL = 1e-4
"""The grid's fits stop at a relative change of the objective below this (or
the method's own ``tol`` if larger): enough for the picture, at a fraction of
the iterations; the fit at the chosen value itself is the page's main fit."""
_MAX_RECORDED = 60
"""Most iterations whose row norms are kept (evenly spaced, first and last kept)."""


@dataclass(frozen=True)
class SparseSteps:
    """What :func:`sparse_steps` recorded.

    Attributes
    ----------
    method : str
    penalty : str
        The option of the shrinkage grid (``"gamma"`` or ``"beta"``).
    objective : DataFrame
        ``iteration``, ``objective``: the start (iteration 0), then each iteration.
    positions : DataFrame
        ``iteration``, ``feature``, ``position`` (1 = best), ``norm``: the final
        top features at each recorded iteration.
    shrinkage : DataFrame
        ``penalty``, ``feature``, ``norm``: the final row norms of the same
        features for each penalty value of the grid.
    top : list of int
        The final top features, best first.
    """

    method: str
    penalty: str
    objective: pd.DataFrame
    positions: pd.DataFrame
    shrinkage: pd.DataFrame
    top: list[int]


def _recorded(n_iterations: int) -> set[int]:
    keep = np.linspace(0, n_iterations, min(_MAX_RECORDED, n_iterations + 1))
    return {int(round(t)) for t in keep}


def _positions(norms: np.ndarray, features: np.ndarray) -> np.ndarray:
    """1-based positions of ``features`` in the ranking by ``norms``."""
    rank = np.empty(norms.size, dtype=np.int64)
    rank[order_by_score(norms)] = np.arange(1, norms.size + 1)
    return rank[features]


def sparse_steps(
    X, Y, method: str, *, top: int = 10, grid: tuple[float, ...] = _GRID, **options
) -> SparseSteps:
    """Run ``method`` recording its objective, its ranking over iterations and
    its row norms over a grid of its penalty.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    method : {"RFS", "LLSF", "MIFS"}
    top : int
        How many of the final best features to follow.
    grid : tuple of float
        Multiples of the penalty's value (``_PENALTY``) to fit again
        (stopping at a tolerance of at least 1e-4, ``_GRID_TOL``; the
        multiple 1 is the main fit).
    **options
        The method's options (checked by its spec; defaults filled).

    Returns
    -------
    SparseSteps
    """
    params = get_method(method).resolve(options)
    scaling = params.pop("scaling")
    Xs = prepared(X, scaling)
    seen: dict[int, np.ndarray] = {}
    planned = _recorded(params["max_iter"])
    fit = fit_sparse(
        method, Xs, Y, scaling="none", observe=_keeper(seen, planned), **params
    )
    n_iter = fit.objective_path.size - 1
    seen[n_iter] = fit.scores  # the last iteration, wherever the fit stopped
    keep = {t for t in planned if t < n_iter} | {n_iter}
    best = order_by_score(fit.scores)[: min(top, Xs.shape[1])]
    rows = [
        (t, int(j), int(p), float(seen[t][j]))
        for t in sorted(keep)
        for j, p in zip(best, _positions(seen[t], best), strict=True)
    ]
    return SparseSteps(
        method=method,
        penalty=_PENALTY[method],
        objective=pd.DataFrame(
            {"iteration": np.arange(n_iter + 1), "objective": fit.objective_path}
        ),
        positions=pd.DataFrame(
            rows, columns=["iteration", "feature", "position", "norm"]
        ),
        shrinkage=_shrinkage(method, Xs, Y, params, best, grid, fit.scores),
        top=[int(j) for j in best],
    )


def _keeper(seen: dict[int, np.ndarray], planned: set[int]):
    """An observer keeping the row norms of the ``planned`` iterations only."""
    from ..selectors.field.sparse import row_norms

    def observe(t: int, W: np.ndarray) -> None:
        if t in planned:
            seen[t] = row_norms(W)

    return observe


def _shrinkage(method, Xs, Y, params, best, grid, scores) -> pd.DataFrame:
    """The final row norms of ``best`` for each multiple of the penalty."""
    name = _PENALTY[method]
    quick = {**params, "tol": max(params["tol"], _GRID_TOL)}
    frames = []
    for factor in grid:  # a handful of penalty values
        value = float(params[name]) * factor
        if factor != 1.0:
            fit = fit_sparse(method, Xs, Y, scaling="none", **{**quick, name: value})
            scores_at = fit.scores
        else:
            scores_at = scores
        frames.append(
            pd.DataFrame({"penalty": value, "feature": best, "norm": scores_at[best]})
        )
    return pd.concat(frames, ignore_index=True)
