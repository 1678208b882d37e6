"""Tests of mlfs_core.evaluation.splits."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import (
    SparseLabelWarning,
    check_n_folds,
    holdout_split,
    own_split,
    stratified_kfold,
)


@pytest.fixture
def Y(rng):
    Y = (rng.random((47, 5)) < 0.3).astype(np.int8)
    Y[:5] = 0  # some empty label sets
    return Y


def test_folds_are_disjoint_and_cover_every_sample(Y):
    """Check that test folds are disjoint, cover all samples and train = complement."""
    folds = stratified_kfold(Y, n_folds=4, random_state=0)
    assert len(folds) == 4
    tests = np.concatenate([te for _, te in folds])
    assert np.array_equal(np.sort(tests), np.arange(Y.shape[0]))
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == Y.shape[0]


def test_folds_reproducible_by_seed(Y):
    """Check that a seed reproduces the folds and another seed changes them."""
    a = stratified_kfold(Y, n_folds=3, random_state=7)
    b = stratified_kfold(Y, n_folds=3, random_state=7)
    c = stratified_kfold(Y, n_folds=3, random_state=8)
    assert all(np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert not all(np.array_equal(x[1], y[1]) for x, y in zip(a, c))


def test_folds_are_stratified(rng):
    """Check that each label's positives are spread evenly over the folds."""
    Y = (rng.random((200, 3)) < 0.3).astype(int)
    folds = stratified_kfold(Y, n_folds=5, random_state=0)
    per_fold = np.array([Y[te].sum(axis=0) for _, te in folds])
    assert (per_fold.max(axis=0) - per_fold.min(axis=0)).max() <= 2


def test_holdout_split_sizes_and_seed(Y):
    """Check that the hold-out split is 60/40, disjoint and seeded."""
    train, test = holdout_split(Y, test_size=0.4, random_state=1)
    assert test.size == round(0.4 * Y.shape[0])
    assert np.intersect1d(train, test).size == 0
    assert np.array_equal(test, holdout_split(Y, random_state=1)[1])


def test_own_split_from_marker():
    """Check that a 0/1 split marker becomes train and test indices."""
    train, test = own_split(np.array([0, 1, 0, 1, 1], dtype=np.int8))
    assert train.tolist() == [0, 2] and test.tolist() == [1, 3, 4]
    with pytest.raises(ConfigError):
        own_split(np.zeros(3))


def test_check_n_folds_errors_and_warnings():
    """Check that too many folds raise and labels sparser than folds warn or raise."""
    Y = np.array([[1, 1]] * 3 + [[0, 1]] * 3)
    with pytest.raises(ConfigError, match="larger than the number of samples"):
        check_n_folds(Y, 7)
    with pytest.raises(ConfigError, match="at least 2"):
        check_n_folds(Y, 1)
    with pytest.warns(SparseLabelWarning, match="1 of 2 labels"):
        check_n_folds(Y, 4)
    with pytest.raises(ConfigError, match="fewer positive"):
        check_n_folds(Y, 4, on_sparse_label="error")
    check_n_folds(Y, 3, on_sparse_label="error")  # 3 positives, 3 folds: fine
