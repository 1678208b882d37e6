"""Helpers of the field methods' tests."""

from __future__ import annotations

import numpy as np


def assert_same_ranking(order, scores, expected, *, rtol, atol):
    """The engine's scores match the oracle's (``rtol``, ``atol``) and its
    order agrees with them up to ties within ``rtol``."""
    np.testing.assert_allclose(scores, expected, rtol=rtol, atol=atol)
    position = {f: p for p, f in enumerate(order)}
    for a in range(expected.size):
        for b in range(expected.size):
            if expected[a] > expected[b] + rtol:
                assert position[a] < position[b]
