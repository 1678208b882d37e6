"""Fixtures for runner tests: tiny in-memory datasets and a spy ranking method."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.data import Dataset
from mlfs_core.selectors import (
    METHODS,
    MethodSpec,
    Ranking,
    register,
    unregister,
)


def _make_dataset(rng, *, n=36, m=10, q=3, name="toy", split=None, row_ids=False):
    """A small count dataset whose label 0 depends on feature 1.

    With ``row_ids`` feature 0 holds the row number + 1, so a method can tell
    which rows it was given.
    """
    X = rng.poisson(0.8, size=(n, m)).astype(float)
    if row_ids:
        X[:, 0] = np.arange(1, n + 1)
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    Y[:, 0] = X[:, 1] > 0
    return Dataset(
        X=X,
        Y=Y,
        feature_names=[f"f{i}" for i in range(m)],
        label_names=[f"l{j}" for j in range(q)],
        name=name,
        split=split,
    )


@pytest.fixture
def make_dataset():
    """Factory of small in-memory datasets: ``make_dataset(rng, **options)``."""
    return _make_dataset


@pytest.fixture
def toy(rng):
    return _make_dataset(rng)


@pytest.fixture
def spy():
    """Register a method "Spy" that ranks like MaxCS and records what it saw."""
    calls: list[dict] = []
    inner = METHODS["MaxCS"].rank

    def rank(X, Y, *, k, random_state, **params) -> Ranking:
        calls.append({"X": X.copy(), "n": X.shape[0], "k": k})
        return inner(X, Y, k=k, rng=random_state)

    register(MethodSpec(name="Spy", family="baseline", rank=rank))
    yield calls
    unregister("Spy")
