"""The Dataset container: validation, stats, hashing, split and subsets."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.data import Dataset
from mlfs_core.errors import DatasetError

from ...fresh import run_fresh


def _toy(**overrides) -> Dataset:
    fields = {
        "X": [[1, 0, 2], [0, 0, 3], [4, 5, 0]],
        "Y": [[1, 0], [1, 0], [0, 0]],
        "feature_names": ["a", "b", "c"],
        "label_names": ["p", "q"],
        "name": "toy",
    }
    fields.update(overrides)
    return Dataset(**fields)


def test_storage_types():
    """Check that X is canonical CSR float64 and Y a dense int8 array."""
    ds = _toy(X=sp.coo_matrix(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 2]])))
    assert sp.isspmatrix_csr(ds.X) and ds.X.dtype == np.float64 and ds.X.nnz == 2
    assert ds.Y.dtype == np.int8 and isinstance(ds.Y, np.ndarray)


def test_stats_with_empty_label_set():
    """Check that LC, LD and DC count the empty label set as a distinct set."""
    assert _toy().stats() == {"N": 3, "M": 3, "q": 2, "LC": 2 / 3, "LD": 1 / 3, "DC": 2}


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        ({"Y": [[1, 0], [1, 0]]}, "rows"),
        ({"Y": [[2, 0], [1, 0], [0, 0]]}, "only 0 and 1"),
        ({"feature_names": ["a"]}, "feature names"),
        ({"label_names": ["p"]}, "label names"),
        ({"split": [0, 1]}, "split"),
        ({"split": [0, 2, 1]}, "split"),
        ({"X": [[np.nan, 0, 0]] * 3}, "NaN"),
    ],
)
def test_inconsistent_dataset_raises(overrides, match):
    """Check that inconsistent fields raise DatasetError."""
    with pytest.raises(DatasetError, match=match):
        _toy(**overrides)


def test_content_hash_depends_on_content_only():
    """Check that the hash ignores name/source and changes with values and names."""
    base = _toy().content_hash()
    assert _toy(name="other").content_hash() == base
    assert _toy(X=[[1, 0, 2], [0, 0, 3], [4, 5, 1]]).content_hash() != base
    assert _toy(label_names=["p", "r"]).content_hash() != base


def test_content_hash_is_stable_across_processes():
    """Check that a fresh interpreter computes the same hash."""
    code = (
        "from mlfs_core.data import Dataset; print(Dataset([[1, 0, 2], [0, 0, 3], "
        "[4, 5, 0]], [[1, 0], [1, 0], [0, 0]], ['a', 'b', 'c'], ['p', 'q'])"
        ".content_hash())"
    )
    assert run_fresh(code) == _toy().content_hash()


def test_subset_keeps_rows_names_and_split():
    """Check that subset() selects rows by index or mask and carries the split."""
    ds = _toy(split=[0, 0, 1])
    sub = ds.subset([2, 0])
    assert sub.X.toarray().tolist() == [[4, 5, 0], [1, 0, 2]]
    assert sub.split.tolist() == [1, 0] and sub.feature_names == ds.feature_names
    assert ds.subset(np.array([False, True, False])).Y.tolist() == [[1, 0]]


def test_train_test_indices():
    """Check that train_test() returns the index arrays of the own split."""
    train, test = _toy(split=[1, 0, 0]).train_test()
    assert train.tolist() == [1, 2] and test.tolist() == [0]
