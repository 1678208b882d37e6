"""Tests of Max/Mean/RoR/RaR aggregation (paper 000, METHODS.md section 3)."""

import numpy as np
import pytest

from mlfs_core.aggregation import (
    label_draw_probabilities,
    order_by_score,
    rand_robin,
    round_robin,
)
from mlfs_core.errors import ConfigError


def _literal_round_robin(S):
    """RoR written directly from the definition."""
    orders = [list(np.argsort(-row, kind="stable")) for row in S]
    out = []
    while len(out) < S.shape[1]:
        for order in orders:
            best = next(f for f in order if f not in out)
            out.append(best)
            if len(out) == S.shape[1]:
                break
    return out


def test_ties_keep_lower_index_first():
    """Check that equal scores rank the lower feature index first."""
    assert order_by_score(np.array([2.0, 5.0, 2.0, 5.0, 0.0])).tolist() == [
        1,
        3,
        0,
        2,
        4,
    ]


@pytest.mark.parametrize("seed", range(5))
def test_round_robin_matches_definition(seed):
    """Check RoR against a literal implementation on random scores with ties."""
    S = np.random.default_rng(seed).integers(0, 4, size=(4, 11)).astype(float)
    assert round_robin(S).tolist() == _literal_round_robin(S)


def test_round_robin_is_permutation_and_prefix():
    """Check that RoR returns a permutation and that a smaller k is its prefix."""
    S = np.random.default_rng(0).random((3, 20))
    full = round_robin(S)
    assert sorted(full.tolist()) == list(range(20))
    assert round_robin(S, 7).tolist() == full[:7].tolist()


def test_single_label_gives_that_labels_ranking():
    """Check that RoR and RaR on one label return that label's own ranking."""
    S = np.random.default_rng(1).random((1, 15))
    expected = np.argsort(-S[0], kind="stable").tolist()
    assert round_robin(S).tolist() == expected
    rng = np.random.default_rng(0)
    assert rand_robin(S, np.array([4]), rng=rng).tolist() == expected


def test_rand_robin_is_permutation_and_seeded():
    """Check RaR returns a permutation and that the same seed gives the same order."""
    S = np.random.default_rng(2).random((5, 30))
    pos = np.array([1, 5, 10, 0, 3])
    a = rand_robin(S, pos, rng=np.random.default_rng(7))
    b = rand_robin(S, pos, rng=np.random.default_rng(7))
    assert sorted(a.tolist()) == list(range(30)) and a.tolist() == b.tolist()


@pytest.mark.parametrize("weighting", ["inverse", "proportional", "uniform"])
def test_rand_robin_draw_frequencies_follow_weighting(weighting):
    """Check over many seeds the label owning the first pick follows the weighting."""
    # Label i's best feature is feature i, so the first pick reveals the drawn label.
    S = np.eye(3) * 10 + np.arange(3)[::-1] * 0.01
    pos = np.array([1, 3, 6])
    expected = label_draw_probabilities(pos, weighting)
    firsts = np.array(
        [
            rand_robin(S, pos, 1, rng=np.random.default_rng(s), weighting=weighting)[0]
            for s in range(3000)
        ]
    )
    freq = np.bincount(firsts, minlength=3) / firsts.size
    np.testing.assert_allclose(freq, expected, atol=0.03)


def test_labels_without_positives_never_drawn():
    """Check that a label with no positive sample is never drawn by RaR."""
    p = label_draw_probabilities(np.array([0, 2, 2]), "inverse")
    assert p.tolist() == [0.0, 0.5, 0.5]
    assert label_draw_probabilities(np.array([0, 0]), "inverse").tolist() == [0.5, 0.5]


def test_inverse_weighting_values():
    """Check the inverse-frequency probabilities against hand values (1/1 : 1/3 -> 0.75
    : 0.25).
    """
    np.testing.assert_allclose(label_draw_probabilities(np.array([1, 3])), [0.75, 0.25])


def test_bad_weighting_raises():
    """Check that an unknown weighting raises a ConfigError naming it."""
    with pytest.raises(ConfigError, match="weighting"):
        label_draw_probabilities(np.array([1, 2]), "log")
