"""Tests of the Discretizer: scikit-learn equality, edge rules, sparse input."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.preprocessing import KBinsDiscretizer

from mlfs_core.measures.discretize import Discretizer, discretize


def _sklearn_codes(train, test, bins, strategy="uniform"):
    extra = (
        {"quantile_method": "averaged_inverted_cdf"} if strategy == "quantile" else {}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant-feature warnings
        ref = KBinsDiscretizer(
            n_bins=bins, encode="ordinal", strategy=strategy, **extra
        )
        return ref.fit(train).transform(test).astype(int)


@pytest.fixture
def values(rng):
    """Mixed data: continuous, counts, a constant and values on the edges."""
    X = np.column_stack(
        [
            rng.normal(size=80),
            rng.poisson(1.5, size=80).astype(float),
            np.full(80, 4.2),
            np.tile([0.0, 1.0, 2.0, 3.0], 20),  # 0, 1, 2, 3 with edges at 1 and 2
        ]
    )
    return X


@pytest.mark.parametrize("bins", [2, 3, 5])
@pytest.mark.parametrize("to_container", [np.asarray, sp.csr_matrix, sp.csc_matrix])
def test_uniform_equals_sklearn(values, bins, to_container):
    """Check that equal-width codes equal KBinsDiscretizer(uniform, ordinal)."""
    train, test = values[:50], values
    expected = _sklearn_codes(train, test, bins)
    got = Discretizer(bins).fit(to_container(train)).transform(to_container(test))
    np.testing.assert_array_equal(got, expected)


@pytest.mark.skipif(
    "quantile_method" not in inspect.signature(KBinsDiscretizer).parameters,
    reason="KBinsDiscretizer's quantile_method (the reference) needs scikit-learn "
    ">= 1.7; the engine itself does not",
)
@pytest.mark.parametrize("bins", [2, 3, 4])
def test_quantile_equals_sklearn(values, bins):
    """Check that equal-frequency codes equal KBinsDiscretizer(quantile)."""
    expected = _sklearn_codes(values, values, bins, "quantile")
    got = Discretizer(bins, strategy="quantile").fit_transform(values)
    np.testing.assert_array_equal(got, expected)


def test_value_on_inner_edge_goes_to_upper_bin():
    """Check that a value equal to an inner edge gets the upper bin."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])  # edges 0, 1, 2, 3
    assert Discretizer(3).fit_transform(X).ravel().tolist() == [0, 1, 2, 2]


def test_out_of_range_values_go_to_first_and_last_bin():
    """Check that test values outside the fitted range clip to bins 0 and bins-1."""
    disc = Discretizer(4).fit(np.array([[0.0], [8.0]]))
    assert disc.transform(np.array([[-5.0], [4.0], [99.0]])).ravel().tolist() == [
        0,
        2,
        3,
    ]


def test_constant_feature_is_all_bin_zero():
    """Check that a constant feature is bin 0 in training and in any other data."""
    disc = Discretizer(3).fit(np.array([[2.0], [2.0]]))
    assert disc.transform(np.array([[2.0], [-1.0], [7.0]])).ravel().tolist() == [
        0,
        0,
        0,
    ]
    assert disc.n_bins_.tolist() == [1]


def test_binary_is_presence():
    """Check that the binary strategy codes non-zero values as 1, dense or sparse."""
    X = np.array([[0.0, -2.0], [0.5, 0.0], [0.0, 0.0]])
    expected = [[0, 1], [1, 0], [0, 0]]
    assert Discretizer(strategy="binary").fit_transform(X).tolist() == expected
    sparse = Discretizer(strategy="binary").fit_transform(sp.csr_matrix(X))
    assert sparse.tolist() == expected


def test_sparse_input_is_not_densified_for_zero_bins(rng):
    """Check that sparse and dense input give the same codes, zeros included."""
    X = rng.poisson(0.3, size=(40, 7)).astype(float) * rng.normal(size=(40, 7))
    dense = Discretizer(3).fit_transform(X)
    sparse = Discretizer(3).fit_transform(sp.csr_matrix(X))
    np.testing.assert_array_equal(dense, sparse)
    assert dense.dtype == np.int32


def test_discretize_function_fits_and_transforms():
    """Check that discretize() equals Discretizer().fit_transform()."""
    X = np.array([[0.0], [0.4], [1.0]])
    assert discretize(X, bins=2).ravel().tolist() == [0, 0, 1]


def test_invalid_parameters_raise():
    """Check that bad bins, strategy, unfitted use and widths raise ValueError."""
    X = np.zeros((3, 2))
    with pytest.raises(ValueError, match="bins"):
        Discretizer(1).fit(X)
    with pytest.raises(ValueError, match="discretize must be one of"):
        Discretizer(strategy="kmeans").fit(X)
    with pytest.raises(ValueError, match="not fitted"):
        Discretizer().transform(X)
    with pytest.raises(ValueError, match="features"):
        Discretizer().fit(X).transform(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        Discretizer().fit(np.array([[np.nan]]))


@pytest.mark.parametrize("name", ["emotions", "yeast", "scene"])
@pytest.mark.parametrize("bins", [3, 5])
def test_uniform_equals_sklearn_on_real_data(shared_datasets, name, bins):
    """Check that equal-width codes equal scikit-learn's on a real train/test split."""
    from mlfs_core.data import load_dataset

    ds = load_dataset(shared_datasets / name)
    X = ds.X
    train = X[: X.shape[0] // 2]
    expected = _sklearn_codes(train.toarray(), X.toarray(), bins)
    np.testing.assert_array_equal(Discretizer(bins).fit(train).transform(X), expected)
