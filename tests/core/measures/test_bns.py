"""Tests of Bi-Normal Separation (Forman 2003)."""

import numpy as np
import pytest
from scipy.sparse import csc_array, csr_array
from scipy.stats import norm

from mlfs_core.measures import label_scores
from mlfs_core.measures.bns import bns_from_counts
from mlfs_core.measures.counts import Counts


def _one(tp, fp, fn, tn):
    a = lambda v: np.array([[float(v)]])  # noqa: E731
    return Counts.from_cells(a(tp), a(fp), a(fn), a(tn))


def test_hand_computed_table():
    """Check BNS on tp=8 fn=2 fp=1 tn=9: |F^-1(0.8) - F^-1(0.1)| = 2.1232."""
    assert bns_from_counts(_one(8, 1, 2, 9))[0, 0] == pytest.approx(
        0.841621 + 1.281552, abs=1e-5
    )


def test_clipping_bounds():
    """Check that perfect separation gives the clipped maximum 2*F^-1(0.9995) (about
    6.58).
    """
    top = bns_from_counts(_one(5, 0, 0, 5))[0, 0]
    assert top == pytest.approx(2 * norm.ppf(0.9995))
    assert 6.58 <= top < 6.59


def test_zero_denominators_are_zero_rates():
    """Check a label with no positive uses tpr = 0 (then clipped) and stays finite."""
    value = bns_from_counts(_one(0, 3, 0, 7))[0, 0]
    assert value == pytest.approx(abs(norm.ppf(0.0005) - norm.ppf(0.3)))


def test_symmetric_in_direction():
    """Check that BNS scores negative association like positive (absolute value)."""
    assert bns_from_counts(_one(8, 1, 2, 9))[0, 0] == pytest.approx(
        bns_from_counts(_one(1, 8, 9, 2))[0, 0]
    )


@pytest.mark.parametrize("to_container", [np.asarray, csr_array, csc_array])
def test_range_on_degenerate_data(to_container, small_xy):
    """Check BNS lies in [0, 6.59] and is finite on degenerate columns and labels."""
    X, Y = small_xy
    S = label_scores(to_container(X), Y, "bns")
    assert np.isfinite(S).all() and S.min() >= 0 and S.max() < 6.59
    assert np.allclose(S[:, 3], 0)
    # Present everywhere: tpr = fpr = 1 for labels with positives -> 0; for the
    # label with no positive tpr is 0 by convention, so the score is the maximum.
    assert np.allclose(S[[0, 1, 3], 5], 0)
    assert S[2, 5] == pytest.approx(2 * norm.ppf(0.9995))
