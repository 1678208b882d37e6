"""Tests of mlfs_core.analysis.stats (Friedman test, Nemenyi CD)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import friedmanchisquare

from mlfs_core.analysis import (
    friedman_by_budget,
    friedman_nemenyi,
    nemenyi_cd,
    nemenyi_q,
    select,
)

from .tables import long_table

# METHODS.md section 6: q_0.05 for m = 2..10
Q_TABLE = [1.960, 2.344, 2.569, 2.728, 2.850, 2.948, 3.031, 3.102, 3.164]


@pytest.mark.parametrize("m", range(2, 11))
def test_nemenyi_q_matches_methods_table(m):
    """Check that q_alpha for m methods matches the METHODS.md table to 3 decimals."""
    assert round(nemenyi_q(m), 3) == pytest.approx(Q_TABLE[m - 2])


def test_nemenyi_cd_formula():
    """Check that the CD is q_alpha * sqrt(m (m + 1) / (6 N)) for m = 10, N = 20."""
    assert nemenyi_cd(10, 20) == pytest.approx(3.164 * np.sqrt(110 / 120), abs=1e-3)


def test_friedman_matches_scipy_without_ties(rng):
    """Check that the Friedman statistic and p-value equal scipy's without ties."""
    values = rng.random((8, 4))
    res = friedman_nemenyi(select(long_table(values), higher_is_better=True))
    ref = friedmanchisquare(*values.T)
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.pvalue == pytest.approx(ref.pvalue)
    assert (res.n_datasets, res.n_methods) == (8, 4)
    assert res.cd == pytest.approx(nemenyi_cd(4, 8))


def test_friedman_matches_scipy_with_ties(rng):
    """Check that the tie-corrected statistic equals scipy's when blocks have ties."""
    values = rng.integers(0, 3, size=(10, 5)).astype(float)
    res = friedman_nemenyi(select(long_table(values), higher_is_better=False))
    ref = friedmanchisquare(*values.T)
    assert res.statistic == pytest.approx(ref.statistic)


def test_friedman_ranks_direction():
    """Check that the best method gets average rank 1 in the result's ranks."""
    values = np.array([[0.9, 0.1, 0.5], [0.8, 0.2, 0.4], [0.7, 0.3, 0.6]])
    res = friedman_nemenyi(select(long_table(values), higher_is_better=True))
    assert res.ranks.loc["m0", "mean"] == 1.0
    assert res.ranks.loc["m1", "mean"] == 3.0


def test_friedman_all_tied_is_finite():
    """Check that fully tied blocks give statistic 0 and p-value 1, not NaN."""
    res = friedman_nemenyi(select(long_table(np.ones((4, 3))), higher_is_better=True))
    assert res.statistic == 0.0 and res.pvalue == 1.0


def test_friedman_needs_two_datasets():
    """Check that one dataset is rejected with a ValueError."""
    with pytest.raises(ValueError, match="at least 2"):
        friedman_nemenyi(select(long_table(np.ones((1, 3))), higher_is_better=True))


def test_friedman_by_budget_one_row_per_budget(rng):
    """Check that friedman_by_budget tests each budget separately."""
    a, b = long_table(rng.random((5, 3))), long_table(rng.random((5, 3)))
    res = pd.concat([a.assign(budget=1), b.assign(budget=2)]).assign(metric="m")
    out = friedman_by_budget(select(res, higher_is_better=True, by=["budget"]))
    assert list(out["budget"]) == [1, 2]
    ref = friedmanchisquare(*b["value"].to_numpy().reshape(5, 3).T).statistic
    assert out.loc[1, "statistic"] == pytest.approx(ref)


def test_iman_davenport_by_hand():
    """Check Iman-Davenport's F on a 3 x 3 table computed by hand.

    Ranks per dataset (higher value = rank 1): d1: A1 B2 C3, d2: A1 B3 C2,
    d3: A1 B2 C3. Average ranks 1, 7/3, 8/3; chi2 = 12*3/(3*4) * (1 + 49/9 +
    64/9 - 12) = 3 * 14/9 = 14/3; F = 2 * (14/3) / (3*2 - 14/3) = 7; the F(2, 4)
    survival function is (1 + 2x/4)^-2, so p = (1 + 3.5)^-2.
    """
    from mlfs_core.analysis import iman_davenport

    table = pd.DataFrame(
        {
            "dataset": ["d1"] * 3 + ["d2"] * 3 + ["d3"] * 3,
            "method": ["A", "B", "C"] * 3,
            "value": [0.9, 0.5, 0.1, 0.9, 0.1, 0.5, 0.9, 0.5, 0.1],
        }
    )
    res = friedman_nemenyi(select(table, higher_is_better=True))
    assert res.statistic == pytest.approx(14 / 3)
    assert res.iman_davenport == pytest.approx(7.0)
    assert res.iman_davenport_pvalue == pytest.approx((1 + 3.5) ** -2)
    assert iman_davenport(9.28, 14, 4)[0] == pytest.approx(3.69, abs=0.005)


def test_iman_davenport_perfect_agreement_is_infinite():
    """Check identical rankings on every dataset give F = inf and p = 0."""
    table = pd.DataFrame(
        {
            "dataset": ["d1", "d1", "d2", "d2"],
            "method": ["A", "B"] * 2,
            "value": [1.0, 0.0, 1.0, 0.0],
        }
    )
    res = friedman_nemenyi(select(table, higher_is_better=True))
    assert res.iman_davenport == float("inf") and res.iman_davenport_pvalue == 0.0
