"""Tests of the plug-in information measures (bits)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlfs_core.measures.information import (
    column_entropies,
    conditional_mutual_information,
    entropy,
    entropy_from_counts,
    interaction_information,
    joint_entropy,
    mutual_information,
    mutual_information_matrix,
    xlog2x_table,
)


@pytest.fixture
def triple(rng):
    """Three dependent discrete variables on 200 samples."""
    x = rng.integers(0, 3, 200)
    y = (x + rng.integers(0, 2, 200)) % 3
    z = rng.integers(0, 2, 200) ^ (y > 0)
    return x, y, z


def test_entropy_of_uniform_values_is_log2_k():
    """Check that k equally frequent values have entropy log2(k)."""
    assert entropy([0, 1, 2, 3] * 5) == pytest.approx(2.0)
    assert entropy([7] * 9) == 0.0


def test_entropy_from_counts_matches_definition():
    """Check that entropy_from_counts equals -sum p log2 p and ignores empty cells."""
    counts = np.array([3, 0, 1, 4])
    p = counts[counts > 0] / counts.sum()
    assert float(entropy_from_counts(counts)) == pytest.approx(-(p * np.log2(p)).sum())
    assert float(entropy_from_counts([0, 0])) == 0.0


def test_xlog2x_table_values():
    """Check that the lookup table holds c log2 c with 0 log 0 = 0."""
    table = xlog2x_table(10)
    expected = [0.0] + [c * math.log2(c) for c in range(1, 11)]
    np.testing.assert_allclose(table, expected, rtol=0, atol=1e-12)


def test_mutual_information_with_itself_is_entropy(triple):
    """Check that I(X; X) = H(X)."""
    x, _, _ = triple
    assert mutual_information(x, x) == pytest.approx(entropy(x), abs=1e-12)


def test_mutual_information_is_symmetric_and_non_negative(triple):
    """Check that I(X; Y) = I(Y; X) >= 0."""
    x, y, _ = triple
    assert mutual_information(x, y) == pytest.approx(
        mutual_information(y, x), abs=1e-12
    )
    assert mutual_information(x, y) > 0


def test_joint_entropy_is_order_free_and_subadditive(triple):
    """Check that H(X, Y) = H(Y, X) <= H(X) + H(Y)."""
    x, y, _ = triple
    assert joint_entropy(x, y) == pytest.approx(joint_entropy(y, x), abs=1e-12)
    assert joint_entropy(x, y) <= entropy(x) + entropy(y) + 1e-12


def test_chain_rule_of_mutual_information(triple):
    """Check that I(X; Y, Z) = I(X; Z) + I(X; Y | Z)."""
    x, y, z = triple
    yz = np.column_stack([y, z])
    lhs = mutual_information(x, yz)
    rhs = mutual_information(x, z) + conditional_mutual_information(x, y, z)
    assert lhs == pytest.approx(rhs, abs=1e-12)


def test_conditional_mutual_information_formula(triple):
    """Check that I(X;Y|Z) = H(X,Z) + H(Y,Z) - H(X,Y,Z) - H(Z) and is >= 0."""
    x, y, z = triple
    expected = (
        joint_entropy(x, z) + joint_entropy(y, z) - joint_entropy(x, y, z) - entropy(z)
    )
    value = conditional_mutual_information(x, y, z)
    assert value == pytest.approx(expected, abs=1e-12)
    assert value >= -1e-12


def test_interaction_information_is_symmetric(triple):
    """Check that I(X;Y;Z) = I(X;Y) - I(X;Y|Z) is the same for every order."""
    x, y, z = triple
    values = [
        interaction_information(x, y, z),
        interaction_information(y, z, x),
        interaction_information(z, x, y),
    ]
    assert values[0] == pytest.approx(
        mutual_information(x, y) - conditional_mutual_information(x, y, z), abs=1e-12
    )
    np.testing.assert_allclose(values, values[0], rtol=0, atol=1e-12)


def test_xor_synergy_is_minus_one_bit():
    """Check that I(a; b; a XOR b) = -1 bit for fair independent bits."""
    a = np.array([0, 0, 1, 1])
    b = np.array([0, 1, 0, 1])
    assert interaction_information(a, b, a ^ b) == pytest.approx(-1.0)
    assert mutual_information(a, b) == 0.0


def test_redundant_copy_gives_positive_interaction():
    """Check that a copied variable makes interaction information positive."""
    a = np.array([0, 0, 1, 1, 0, 1])
    assert interaction_information(a, a, a) == pytest.approx(entropy(a))


def test_column_entropies_match_scalar_entropy(rng):
    """Check that column_entropies equals entropy() on every column."""
    codes = rng.integers(0, 4, size=(50, 6))
    codes[:, 2] = 1
    expected = [entropy(codes[:, j]) for j in range(6)]
    np.testing.assert_allclose(column_entropies(codes), expected, rtol=0, atol=1e-12)


def test_mutual_information_matrix_matches_pairwise_loop(rng):
    """Check that the one-product matrix equals a loop of mutual_information."""
    A = rng.integers(0, 2, size=(60, 3))
    B = rng.integers(0, 3, size=(60, 4))
    B[:, 0] = A[:, 1]
    expected = [
        [mutual_information(A[:, a], B[:, b]) for b in range(4)] for a in range(3)
    ]
    got = mutual_information_matrix(A, B)
    assert got.shape == (3, 4)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_measures_reject_bad_input():
    """Check that mismatched lengths and negative codes raise ValueError."""
    with pytest.raises(ValueError, match="different numbers of samples"):
        mutual_information([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="non-negative"):
        column_entropies([[0], [-1]])
    with pytest.raises(ValueError, match="rows"):
        mutual_information_matrix([[0], [1]], [[0]])
