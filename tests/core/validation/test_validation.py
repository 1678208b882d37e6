"""The one "an int, not a bool" check (mlfs_core._validation) and its callers."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core._validation import check_int, check_k, is_int
from mlfs_core.analysis.recovery import _indices
from mlfs_core.errors import ConfigError, MLFSError
from mlfs_core.evaluation.splits import stratified_kfold
from mlfs_core.measures.discretize import Discretizer


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, True), (np.int8(3), True), (np.uint64(3), True), (True, False),
     (np.bool_(True), False), (3.0, False), ("3", False), (None, False)],
)  # fmt: skip
def test_is_int(value, expected):
    assert is_int(value) is expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "n must be an int, got True"),
        ({"low": 2}, "n must be an int >= 2, got True"),
        ({"high": 9}, "n must be an int <= 9, got True"),
        ({"low": 2, "high": 9}, r"n must be an int in \[2, 9\], got True"),
    ],
)
def test_check_int_names_the_range(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        check_int(True, "n", **kwargs)
    assert check_int(np.int16(5), "n", **kwargs) == 5
    assert type(check_int(np.int16(5), "n", **kwargs)) is int


@pytest.mark.parametrize(
    "call",
    [
        lambda: check_k(True, 5),
        lambda: check_rng(True),
        lambda: Discretizer(bins=True).fit(np.ones((3, 1))),
        lambda: stratified_kfold(np.eye(4, dtype=int), n_folds=True),
        lambda: _indices([1, True], "truth.json"),
    ],
)
def test_every_caller_refuses_a_bool(call):
    with pytest.raises((ValueError, MLFSError)):
        call()
