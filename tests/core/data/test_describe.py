"""Tests of mlfs_core.data.describe (label frequencies and co-occurrences)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
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


def _messages(X, Y, names=None) -> list[str]:
    from mlfs_core.data.describe import data_warnings

    return data_warnings(X, Y, names)


def test_clean_sparse_text_data_gives_no_warning():
    """Check that sparse word counts with every label used give no warning."""
    X = sp.csr_matrix(np.eye(6))
    Y = np.array([[1, 0], [0, 1]] * 3)
    assert _messages(X, Y, ["a", "b"]) == []


@pytest.mark.parametrize("to_container", [np.asarray, sp.csr_matrix])
def test_dense_data_suggests_median_binarization(to_container):
    """Check that features non-zero in >= 95 % of samples trigger the dense warning."""
    rng = np.random.default_rng(0)
    X = rng.random((40, 10)) + 0.1  # numeric, never zero
    X[:, :4] = 0.0
    X[:3, :4] = 1.0  # 4 of 10 features sparse: 60 % dense
    Y = np.tile([[1, 0], [0, 1]], (20, 1))
    (message,) = _messages(to_container(X), Y)
    assert message.startswith("Dense data: 60% of the features")
    assert 'binarize = "median"' in message
    X[:, 5] = 0.0  # now 50 % dense: still at the threshold
    assert len(_messages(to_container(X), Y)) == 1
    X[:, 6] = 0.0  # 40 %: below
    assert _messages(to_container(X), Y) == []


def test_labels_never_and_always_positive_are_named():
    """Check that a label with no positive and one positive everywhere are named."""
    X = sp.csr_matrix(np.eye(4))
    Y = np.array([[0, 1, 1], [0, 1, 0], [0, 1, 1], [0, 1, 0]])
    messages = _messages(X, Y, ["none", "all", "ok"])
    assert messages[0].startswith("1 label is never positive: none.")
    assert messages[1].startswith("1 label is positive in every sample: all.")
    assert len(messages) == 2


def test_samples_without_labels_are_counted():
    """Check that all-zero label rows are counted with their share."""
    X = sp.csr_matrix(np.eye(4))
    Y = np.array([[1, 0], [0, 1], [0, 0], [0, 0]])
    (message,) = _messages(X, Y)
    assert message.startswith("2 samples carry no label: 50% of the data")


def test_single_sample_is_reported_alone():
    """Check that one row gives the single-sample warning (and no share warnings)."""
    messages = _messages(np.array([[1.0, 0.0]]), np.array([[1, 0]]), ["a", "b"])
    assert messages[0].startswith("A single sample")
    assert messages[1].startswith("1 label is never positive: b.")
    assert len(messages) == 2


def test_many_never_positive_labels_are_abbreviated():
    """Check that only the first five names are listed, with the number left out."""
    Y = np.zeros((3, 8), dtype=int)
    Y[:, 0] = 1
    (never, always) = _messages(sp.csr_matrix(np.eye(3)), Y)
    assert never.startswith("7 labels are never positive: label 1, label 2, label 3,")
    assert "label 5 and 2 more." in never
    assert always.startswith("1 label is positive in every sample: label 0.")
