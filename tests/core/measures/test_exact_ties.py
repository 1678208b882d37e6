"""Exact ties: mathematically equal scores compare equal (METHODS.md section 3)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core import load_dataset, rank_features
from mlfs_core.aggregation import mean_scores, round_robin
from mlfs_core.measures.bns import bns_from_counts
from mlfs_core.measures.chi2 import chi2_from_counts
from mlfs_core.measures.counts import Counts, contingency_counts


def _perfect_labels():
    X = np.zeros((11, 2))
    Y = np.zeros((11, 2), dtype=np.int8)
    Y[:3, 0] = 1
    Y[:1, 1] = 1
    X[:] = Y
    return X, Y


def test_two_perfect_tables_tie_and_keep_index_order():
    """Check the 11-row case: both perfect tables give CS = 11 and MaxCS is [0, 1]."""
    X, Y = _perfect_labels()
    S = chi2_from_counts(contingency_counts(sp.csr_matrix(X), Y))
    assert S[0, 0] == S[1, 1] == 11.0
    assert rank_features(X, Y, "MaxCS", k=2).tolist() == [0, 1]
    assert rank_features(X, Y, "MeanCS", k=2).tolist() == [0, 1]


def test_mean_of_permuted_label_scores_is_bit_equal():
    """Check that features whose label scores are permutations get equal means."""
    rng = np.random.default_rng(0)
    col = rng.random(37) * 1e3
    S = np.column_stack([col, rng.permutation(col), rng.permutation(col)])
    m = mean_scores(S)
    assert m[0] == m[1] == m[2]
    assert np.isclose(m[0], col.mean(), rtol=1e-14)


def _one(tp, fp, fn, tn):
    a = lambda v: np.array([[float(v)]])  # noqa: E731
    return Counts.from_cells(a(tp), a(fp), a(fn), a(tn))


@pytest.mark.parametrize(
    "table, mirror",
    [
        ((1, 2, 3, 6), (3, 6, 1, 2)),  # feature present <-> absent
        ((5, 1, 2, 9), (2, 9, 5, 1)),
        ((1, 3, 3, 5), (3, 1, 5, 3)),  # label positive <-> negative
    ],
)
def test_bns_mirrored_tables_are_bit_equal(table, mirror):
    """Check that BNS of a table and its mirror (F^-1(1-x) = -F^-1(x)) is bit-equal."""
    assert bns_from_counts(_one(*table))[0, 0] == bns_from_counts(_one(*mirror))[0, 0]


def test_bns_equal_rates_from_different_counts_are_bit_equal():
    """Check that tpr = 1/2 from 2/4 and from 3/6 (same fpr) gives the same BNS."""
    assert (
        bns_from_counts(_one(2, 1, 2, 9))[0, 0]
        == bns_from_counts(_one(3, 1, 3, 9))[0, 0]
    )


def test_bns_lookup_and_elementwise_paths_agree():
    """Check the per-(label, count) lookup table gives exactly the direct values."""
    rng = np.random.default_rng(3)
    X = sp.csr_matrix(rng.random((60, 400)) < 0.05)
    Y = (rng.random((60, 3)) < 0.3).astype(np.int8)
    c = contingency_counts(X, Y)  # lookup path: 61 counts per label < 400 cells
    direct = Counts.from_cells(*c.cells())  # per-cell totals: elementwise path
    assert np.array_equal(bns_from_counts(c), bns_from_counts(direct))


def _exact_cs(ds):
    c = contingency_counts(ds.X, ds.Y)
    n = int(c.n)
    tp = np.rint(c.tp).astype(np.int64).tolist()
    p = np.rint(c.present).astype(np.int64)[0].tolist()
    pos = np.rint(c.positives).astype(np.int64)[:, 0].tolist()

    def cs(i, j):
        d = n * tp[i][j] - pos[i] * p[j]
        den = p[j] * (n - p[j]) * pos[i] * (n - pos[i])
        return Fraction(n * d * d, den) if den else Fraction(0)

    return [[cs(i, j) for j in range(len(p))] for i in range(len(pos))]


def _exact_order(values):
    return sorted(range(len(values)), key=lambda j: (-values[j], j))


@pytest.mark.parametrize("name", ["medical", "enron"])
def test_cs_orders_equal_exact_fraction_reference(shared_datasets, name):
    """Check MaxCS, MeanCS and RoRCS equal an exact-rational reference everywhere."""
    ds = load_dataset(shared_datasets / name)
    F = _exact_cs(ds)
    q, M = len(F), len(F[0])
    best = [max(F[i][j] for i in range(q)) for j in range(M)]
    mean = [sum((F[i][j] for i in range(q)), Fraction(0)) / q for j in range(M)]
    assert rank_features(ds.X, ds.Y, "MaxCS").tolist() == _exact_order(best)
    assert rank_features(ds.X, ds.Y, "MeanCS").tolist() == _exact_order(mean)
    # RoR merges the per-label exact orders; a rank array per label is enough.
    rank_of = np.empty((q, M))
    for i in range(q):
        rank_of[i, _exact_order(F[i])] = -np.arange(M)
    expected = round_robin(rank_of)
    assert rank_features(ds.X, ds.Y, "RoRCS").tolist() == expected.tolist()
