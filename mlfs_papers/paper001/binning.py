"""The edge rule of scikit-learn <= 1.0 as a registered discretization strategy.

Paper 001's published code discretized with scikit-learn's
``KBinsDiscretizer(strategy="uniform")`` of its time: up to version 1.0 it
added ``1e-8 + 1e-5 |x|`` to each value before binning, so a value lying just
below an inner edge (by at most that much) went to the upper bin
(METHODS.md section 4). The engine's ``"uniform"`` follows scikit-learn 1.9
(a value goes to the upper bin only at or above the edge).

Registered with :func:`mlfs_core.measures.binning.register_binning` when
imported (the package's entry point ``paper001-conventions`` imports it
through :mod:`.conventions`), the way a user's package adds a strategy:
``discretize = "uniform-sklearn-1.0"`` selects it for any
information-theoretic method (equal-width edges, the engine's
:func:`~mlfs_core.measures.binning.uniform_edges`).
"""

from __future__ import annotations

import numpy as np

from mlfs_core.measures.binning import register_binning, uniform_edges

NAME = "uniform-sklearn-1.0"
"""The ``discretize`` value of the old edge rule."""

ATOL = 1.0e-8
RTOL = 1.0e-5
"""scikit-learn <= 1.0 shifted each value by ``ATOL + RTOL * |x|`` before
``np.digitize``."""


def nudge(values: np.ndarray) -> np.ndarray:
    """Each value shifted up by ``1e-8 + 1e-5 |x|``, as scikit-learn <= 1.0 did.

    Examples
    --------
    >>> nudge(np.array([0.0, -1.0])).tolist()
    [1e-08, -0.99998999]
    """
    return values + (ATOL + RTOL * np.abs(values))


STRATEGY = register_binning(
    NAME,
    uniform_edges,
    values=nudge,
    description="Equal-width bins with scikit-learn <= 1.0's edge rule: a value "
    "just below an inner edge (by at most 1e-8 + 1e-5 |x|) goes to the upper bin.",
)
