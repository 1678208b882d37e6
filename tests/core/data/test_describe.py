"""Tests of mlfs_core.data.describe (label frequencies and co-occurrences)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csc_array, csr_array

from mlfs_core.data import label_cooccurrence, label_frequency

# 4 samples, 3 labels; label "c" has no positive sample.
Y = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 0]], dtype=np.int8)
NAMES = ["a", "b", "c"]


@pytest.mark.parametrize("to_container", [np.asarray, csr_array, csc_array])
def test_label_frequency_counts_and_fractions_by_hand(to_container):
    """Check that counts and fractions match a hand count, dense and sparse."""
    out = label_frequency(to_container(Y), NAMES)
    assert list(out.columns) == ["label", "count", "fraction"]
    assert out["label"].tolist() == NAMES
    assert out["count"].tolist() == [3, 2, 0]
    assert out["fraction"].tolist() == pytest.approx([0.75, 0.5, 0.0])


def test_label_frequency_label_without_positive_is_zero_not_missing():
    """Check that a label with no positive sample keeps its row with count 0."""
    out = label_frequency(np.zeros((5, 2), dtype=int), ["x", "y"])
    assert out["count"].tolist() == [0, 0]
    assert out["fraction"].tolist() == [0.0, 0.0]


def test_label_frequency_no_samples_gives_zero_fractions():
    """Check that an empty label matrix gives fractions 0 rather than NaN."""
    out = label_frequency(np.zeros((0, 2), dtype=int), ["x", "y"])
    assert out["count"].tolist() == [0, 0]
    assert not out["fraction"].isna().any()


@pytest.mark.parametrize("to_container", [np.asarray, csr_array, csc_array])
def test_label_cooccurrence_matches_hand_counted_pairs(to_container):
    """Check that cell (a, b) counts samples with both labels (diagonal: counts)."""
    out = label_cooccurrence(to_container(Y), NAMES)
    assert list(out.index) == NAMES and list(out.columns) == NAMES
    expected = np.array([[3, 1, 0], [1, 2, 0], [0, 0, 0]])
    np.testing.assert_array_equal(out.to_numpy(), expected)
    assert out.to_numpy().dtype == np.int64


def test_label_cooccurrence_diagonal_equals_frequency():
    """Check that the co-occurrence diagonal equals the label frequencies."""
    rng = np.random.default_rng(0)
    Yr = (rng.random((30, 4)) < 0.3).astype(int)
    names = list("pqrs")
    co = label_cooccurrence(Yr, names)
    assert (
        np.diag(co.to_numpy()).tolist() == label_frequency(Yr, names)["count"].tolist()
    )
    np.testing.assert_array_equal(co.to_numpy(), co.to_numpy().T)


@pytest.mark.parametrize("func", [label_frequency, label_cooccurrence])
def test_wrong_number_of_label_names_raises(func):
    """Check that label_names of the wrong length raise a ValueError naming it."""
    with pytest.raises(ValueError, match="label_names has 2 names for 3 label"):
        func(Y, ["a", "b"])


@pytest.mark.parametrize("func", [label_frequency, label_cooccurrence])
def test_one_dimensional_labels_raise(func):
    """Check that a 1-D label vector is rejected with a message about Y."""
    with pytest.raises(ValueError, match="Y must be 2-D"):
        func(np.array([1, 0, 1]), ["a"])
