"""Tests of the extra 2x2 measures and of the measure registry."""

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.measures import MEASURES, label_scores
from mlfs_core.measures.counts import Counts
from mlfs_core.measures.table2x2 import information_gain_from_counts


def test_information_gain_equals_mutual_info():
    """Check IG against sklearn's mutual_info_score (in bits) on random data."""
    from sklearn.metrics import mutual_info_score

    rng = np.random.default_rng(1)
    X = (rng.random((50, 4)) < 0.4).astype(float)
    Y = (rng.random((50, 2)) < 0.5).astype(int)
    S = label_scores(X, Y, "ig")
    for i in range(2):
        for j in range(4):
            assert S[i, j] == pytest.approx(
                mutual_info_score(X[:, j], Y[:, i]) / np.log(2)
            )


def test_information_gain_of_independent_table_is_zero():
    """Check that IG is 0 when presence and label are independent."""
    a = lambda v: np.array([[float(v)]])  # noqa: E731
    assert information_gain_from_counts(Counts.from_cells(a(2), a(2), a(3), a(3)))[
        0, 0
    ] == pytest.approx(0)


@pytest.mark.parametrize("measure", sorted(MEASURES))
def test_every_measure_is_finite_on_degenerate_data(measure, small_xy):
    """Check that every registered measure returns a finite (q, M) array on degenerate
    data.
    """
    X, Y = small_xy
    S = label_scores(X, Y, measure)
    assert S.shape == (Y.shape[1], X.shape[1]) and np.isfinite(S).all()


def test_unknown_measure_names_the_known_ones():
    """Check that an unknown measure raises a ConfigError listing the valid names."""
    with pytest.raises(ConfigError, match="unknown measure 'gini'.*chi2"):
        label_scores(np.ones((2, 2)), np.array([[1], [0]]), "gini")


@pytest.mark.parametrize(
    ("alias", "name"), [("cs", "chi2"), ("CS", "chi2"), ("or", "odds_ratio")]
)
def test_label_scores_accepts_the_method_suffixes(alias, name):
    """Check "cs" (the methods are named CS) is chi2, "or" odds_ratio."""
    from mlfs_core.measures import label_scores

    rng = np.random.default_rng(0)
    X, Y = rng.integers(0, 2, (40, 7)), rng.integers(0, 2, (40, 3))
    assert np.array_equal(label_scores(X, Y, alias), label_scores(X, Y, name))


def test_an_unknown_measure_lists_the_aliases():
    """Check the error names the measures and their aliases."""
    from mlfs_core.measures import label_scores

    with pytest.raises(ConfigError, match=r"known measures: chi2, .*aliases: cs=chi2"):
        label_scores(np.eye(3), np.eye(3), "pearson")
