"""The registry of discretization strategies (mlfs_core.measures.binning)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.runner.identity import code_identity, task_key
from mlfs_core.measures.binning import (
    BUILT_IN,
    binning_identity,
    binning_names,
    binning_option,
    register_binning,
    uniform_edges,
    unregister_binning,
)
from mlfs_core.measures.discretize import Discretizer


def _halves(X, bins):
    """One inner edge per feature at half its maximum (a test strategy)."""
    X = X.toarray() if sp.issparse(X) else X
    return (X.max(axis=0) / 2.0)[:, None]


def _negate(values):
    return -values


@pytest.fixture
def halves():
    register_binning("halves", _halves, description="edge at max / 2")
    yield "halves"
    unregister_binning("halves")


def _oracle(train, test, edge_of_column, mapped=None):
    """Codes written plainly: per entry, the number of edges the value reaches."""
    out = np.zeros(test.shape, dtype=int)
    for i in range(test.shape[0]):
        for j in range(test.shape[1]):
            value = test[i, j] if mapped is None else mapped(test[i, j])
            out[i, j] = sum(value >= e for e in edge_of_column(train[:, j]))
    return out


def test_a_registered_strategy_bins_dense_sparse_and_stored_values_alike(halves, rng):
    """Check a registered strategy's edges code every entry, dense or sparse
    (implicit zeros included), as a plainly written loop does."""
    X = rng.poisson(0.8, size=(30, 5)).astype(float)
    X[:, 4] = 0.0  # max 0: the edge 0 puts every value in bin 1
    expected = _oracle(X, X, lambda c: [c.max() / 2.0])
    dense = Discretizer(strategy="halves").fit(X)
    np.testing.assert_array_equal(dense.transform(X), expected)
    sparse = Discretizer(strategy="halves").fit(sp.csr_matrix(X))
    np.testing.assert_array_equal(sparse.transform(sp.csr_matrix(X)), expected)
    codes, zero = sparse.transform_stored(sp.csr_matrix(X))
    full = np.where(X != 0, codes.toarray(), zero[None, :])
    np.testing.assert_array_equal(full, expected)
    assert dense.n_bins_.tolist() == [2] * 5


def test_a_strategy_s_value_map_applies_before_the_edges(rng):
    """Check ``values`` maps every value (zeros included) before binning."""
    X = rng.normal(size=(20, 3))
    register_binning("negated", uniform_edges, values=_negate)
    try:
        got = Discretizer(3, strategy="negated").fit(X).transform(X)
    finally:
        unregister_binning("negated")

    def edges(column):
        return np.linspace(column.min(), column.max(), 4)[1:-1]

    np.testing.assert_array_equal(got, _oracle(X, X, edges, mapped=_negate))


def test_names_options_and_errors(halves):
    """Check the names (built-ins first), the live option, and each refusal."""
    assert binning_names()[:3] == BUILT_IN and "halves" in binning_names()
    option = binning_option()
    assert "halves" in option.choices and option.check("halves") == "halves"
    with pytest.raises(ConfigError, match="discretize must be one of uniform"):
        option.check("kmeans")
    with pytest.raises(ConfigError, match="called 'halves' exists"):
        register_binning("halves", _halves)
    with pytest.raises(ConfigError, match="edges must be a function"):
        register_binning("other", 3)
    with pytest.raises(ConfigError, match="built in"):
        unregister_binning("uniform")
    register_binning("flat", lambda X, bins: np.zeros(X.shape[1]))
    try:
        with pytest.raises(ConfigError, match=r"'flat': its edges must have shape"):
            Discretizer(strategy="flat").fit(np.ones((3, 2)))
    finally:
        unregister_binning("flat")


def test_a_registered_strategy_is_part_of_a_task_key(halves):
    """Check a task naming a registered strategy is keyed by its code; a
    built-in one's key is the description's hash alone."""
    assert binning_identity("uniform") is None
    assert binning_identity("kmeans") is None and binning_identity(True) is None
    ident = binning_identity("halves")
    assert ident["binning"] == "halves"
    assert ident["edges"].startswith(f"{__name__}._halves:")
    described = {"method": "PMU", "params": {"bins": 3, "discretize": "halves"}}
    assert code_identity(described)["binning"] == ident
    plain = {"method": "PMU", "params": {"bins": 3, "discretize": "uniform"}}
    assert "binning" not in code_identity(plain)
    assert task_key(described) != task_key({**described, "params": {"bins": 3}})
