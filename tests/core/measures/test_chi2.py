"""Tests of the chi-squared measure (paper 000, Eq. 1)."""

import numpy as np
import pytest
from scipy.sparse import csc_array, csr_array
from scipy.stats import chi2_contingency

from mlfs_core.measures import label_scores
from mlfs_core.measures.chi2 import chi2_from_counts
from mlfs_core.measures.counts import Counts


def _one(tp, fp, fn, tn):
    a = lambda v: np.array([[float(v)]])  # noqa: E731
    return Counts.from_cells(a(tp), a(fp), a(fn), a(tn))


def test_hand_computed_table():
    """Check CS on a 2x2 table worked by hand: tp=3 fp=1 fn=1 tn=3 gives 2.0."""
    # n=8, Ppos=Pneg=0.5; every expected count is 2; each term (1)^2/2 = 0.5.
    assert chi2_from_counts(_one(3, 1, 1, 3))[0, 0] == pytest.approx(2.0)


def test_equals_scipy_without_correction():
    """Check CS equals scipy's chi2_contingency(correction=False) on random tables."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        cells = rng.integers(0, 30, size=4)
        if (
            cells[:2].sum() == 0
            or cells[2:].sum() == 0
            or cells[[0, 2]].sum() == 0
            or cells[[1, 3]].sum() == 0
        ):
            continue
        tp, fp, fn, tn = cells
        expected = chi2_contingency([[tp, fp], [fn, tn]], correction=False)[0]
        assert chi2_from_counts(_one(tp, fp, fn, tn))[0, 0] == pytest.approx(expected)


@pytest.mark.parametrize(
    "cells", [(0, 0, 3, 7), (3, 7, 0, 0), (0, 4, 0, 6), (5, 0, 5, 0)]
)
def test_zero_expected_terms_are_finite(cells):
    """Check that tables with an empty row or column (zero expected counts) score 0,
    finite.
    """
    value = chi2_from_counts(_one(*cells))[0, 0]
    assert np.isfinite(value) and value == 0.0


@pytest.mark.parametrize("to_container", [np.asarray, csr_array, csc_array])
def test_label_scores_match_scipy_per_pair(to_container):
    """Check that each (label, feature) CS equals scipy's 2x2 statistic.

    (sklearn's ``chi2`` scores only the "present" row of the table, so it is a
    different statistic and not used as the oracle.)
    """
    rng = np.random.default_rng(3)
    X = (rng.random((80, 10)) < 0.3) * rng.integers(1, 4, size=(80, 10)).astype(float)
    Y = (rng.random((80, 3)) < 0.4).astype(int)
    S = label_scores(to_container(X), Y, "chi2")
    assert S.shape == (3, 10)
    for i in range(3):
        for j in range(10):
            p, y = X[:, j] != 0, Y[:, i] == 1
            table = [[np.sum(p & y), np.sum(p & ~y)], [np.sum(~p & y), np.sum(~p & ~y)]]
            assert S[i, j] == pytest.approx(
                chi2_contingency(table, correction=False)[0]
            )


def test_degenerate_data_is_finite(small_xy):
    """Check that a label with no positive and features present nowhere/everywhere score
    0.
    """
    X, Y = small_xy
    S = label_scores(X, Y, "chi2")
    assert np.isfinite(S).all()
    assert (S[2] == 0).all()
    assert (S[:, 3] == 0).all() and (S[:, 5] == 0).all()
