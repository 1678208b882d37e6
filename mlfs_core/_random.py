"""The one place where random generators are created."""

from __future__ import annotations

import numpy as np

from ._validation import is_int

RandomState = "int | np.random.Generator | np.random.RandomState | None"


def check_rng(
    seed: int | np.random.Generator | np.random.RandomState | None = None,
) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` for ``seed``.

    Parameters
    ----------
    seed : int, numpy.random.Generator, numpy.random.RandomState or None
        ``None`` gives fresh OS entropy, an int a reproducible generator, and a
        generator is returned unchanged (so callers can share one stream). A
        legacy ``RandomState`` (scikit-learn's convention) seeds a new
        generator with one draw, so it advances as sklearn estimators do.

    Returns
    -------
    numpy.random.Generator

    Examples
    --------
    >>> a = check_rng(0).integers(100, size=3)
    >>> b = check_rng(0).integers(100, size=3)
    >>> bool((a == b).all())
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        # scikit-learn's convention: a RandomState is a stream to draw from.
        return np.random.default_rng(int(seed.randint(0, 2**63 - 1, dtype=np.int64)))
    if seed is None:
        return np.random.default_rng()
    if is_int(seed):
        if seed < 0:
            raise ValueError(f"random_state must be a non-negative int, got {seed}")
        return np.random.default_rng(int(seed))
    raise ValueError(
        "random_state must be None, an int, a numpy Generator or RandomState, "
        f"got {type(seed).__name__}"
    )


def derive_seed(rng: np.random.Generator) -> int:
    """Draw an int seed from ``rng`` for APIs that want an int (e.g. sklearn)."""
    return int(rng.integers(2**32 - 1))
