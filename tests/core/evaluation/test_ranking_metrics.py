"""Tests of the vectorized label-ranking metrics against scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import label_ranking_average_precision_score, label_ranking_loss

from mlfs_core.evaluation.metrics import average_precision, ranking_loss


@pytest.mark.parametrize("seed", range(40))
def test_equal_to_sklearn_with_and_without_ties(seed):
    """Check ranking loss and LRAP equal scikit-learn's on random data with ties."""
    rng = np.random.default_rng(seed)
    n, q = int(rng.integers(1, 30)), int(rng.integers(2, 9))
    Y = (rng.random((n, q)) < 0.4).astype(int)
    S = (
        rng.integers(0, 3, size=(n, q)).astype(float)
        if seed % 2
        else rng.random((n, q))
    )
    assert ranking_loss(Y, S) == pytest.approx(label_ranking_loss(Y, S), abs=1e-12)
    assert average_precision(Y, S) == pytest.approx(
        label_ranking_average_precision_score(Y, S), abs=1e-12
    )


def test_hand_worked_example():
    """Check a hand-worked case: sample 1 has 2 of 2 pairs wrong, sample 2 has 1 of 2
    wrong.
    """
    Y = np.array([[1, 0, 0], [0, 1, 0]])
    S = np.array([[0.1, 0.5, 0.9], [0.3, 0.3, 0.1]])  # tie in sample 2 counts as wrong
    assert ranking_loss(Y, S) == pytest.approx((2 / 2 + 1 / 2) / 2)
    # LRAP: sample 1: relevant label ranked 3rd of 3 -> 1/3; sample 2: tie -> 1/2
    assert average_precision(Y, S) == pytest.approx((1 / 3 + 1 / 2) / 2)


def test_degenerate_rows():
    """Check that all-relevant and no-relevant rows give loss 0 and precision 1."""
    Y = np.array([[1, 1], [0, 0]])
    S = np.array([[0.2, 0.1], [0.5, 0.5]])
    assert ranking_loss(Y, S) == 0.0
    assert average_precision(Y, S) == 1.0
