"""What the spectral methods share: the memory bound, the ranking rule."""

from __future__ import annotations

import numpy as np

from ....errors import ConfigError
from ..._spec import Ranking

DENSE_BOUND_BYTES = 2 * 1024**3
"""Largest working memory (2 GiB) a spectral method's dense matrices may take,
by the estimate each method states; above it the method refuses."""


def check_memory(method: str, need: float, what: str) -> None:
    """Refuse with the estimate when ``need`` bytes pass :data:`DENSE_BOUND_BYTES`.

    Raises
    ------
    ConfigError
        Naming the method, what needs the memory and the estimate in GiB.
    """
    if need > DENSE_BOUND_BYTES:
        raise ConfigError(
            f"method {method!r}: {what} needs an estimated {need / 1024**3:.2f} "
            f"GiB, above the {DENSE_BOUND_BYTES / 1024**3:.0f} GiB bound of the "
            "spectral methods; use fewer samples (or features)"
        )


def ranking_from_scores(scores: np.ndarray, defined: np.ndarray, k: int) -> Ranking:
    """The :class:`Ranking` of ``scores``: descending, ties by the lowest index.

    A feature whose score is undefined (``defined`` False) ranks after every
    feature with a score, in index order, and stores the lowest defined score
    minus 1 (-1 when none is defined), so the stored scores stay finite and
    sort like the order.
    """
    scores = np.asarray(scores, dtype=np.float64)
    defined = np.asarray(defined, dtype=bool) & np.isfinite(scores)
    floor = scores[defined].min() - 1.0 if defined.any() else -1.0
    stored = np.where(defined, scores, floor)
    order = np.lexsort((np.arange(stored.size), -stored, ~defined))
    return Ranking(order=order[:k], scores=stored)
