"""The fast greedy engine against a naive, obviously correct implementation.

The naive reference below is written from METHODS.md section 4 only: plain
Python, entropies counted with ``collections.Counter`` over tuples of values
and memoized in a dict keyed by the tuple of variables. It shares no code
with ``mlfs_core`` (the benchmark imports it from this file).
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest

from mlfs_core.selectors.greedy import IT_METHODS, rank_discrete
from mlfs_core.selectors.it.codes import prepare_codes
from mlfs_core.selectors.it.terms import step_terms

TIE = 1e-10


class NaiveIT:
    """Entropies of tuples of variables by counting, memoized per tuple.

    Variables are named ``("f", j)`` (feature j), ``("l", i)`` (label i) and
    ``("L",)`` (the label set). ``rows`` restricts counting to a subset.
    """

    def __init__(self, codes, Y, tau=6):
        self.columns = {}
        codes, Y = np.asarray(codes).tolist(), np.asarray(Y).tolist()
        self.n, self.m, self.q = len(codes), len(codes[0]), len(Y[0])
        for j in range(self.m):
            self.columns[("f", j)] = [row[j] for row in codes]
        for i in range(self.q):
            self.columns[("l", i)] = [row[i] for row in Y]
        self.columns[("L",)] = [tuple(row) for row in Y]
        sets = Counter(self.columns[("L",)])
        self.kept = tuple(
            r for r in range(self.n) if sets[self.columns[("L",)][r]] >= tau
        )
        self.memo = {}

    def H(self, *variables, rows=None):
        key = (tuple(sorted(set(variables))), rows is not None)
        if key not in self.memo:
            index = range(self.n) if rows is None else rows
            counts = Counter(tuple(self.columns[v][r] for v in key[0]) for r in index)
            total = sum(counts.values())
            self.memo[key] = -sum(
                c / total * math.log2(c / total) for c in counts.values()
            )
        return self.memo[key]

    def MI(self, a, b, rows=None):
        if rows is not None and not rows:
            return 0.0
        return self.H(a, rows=rows) + self.H(b, rows=rows) - self.H(a, b, rows=rows)

    def CI(self, a, b, c):
        return self.H(a, c) + self.H(b, c) - self.H(a, b, c) - self.H(c)

    def II(self, a, b, c):
        return self.MI(a, b) - self.CI(a, b, c)


def _labels(nv):
    return [("l", i) for i in range(nv.q)]


def _R(nv, f):
    return sum(nv.MI(f, li) for li in _labels(nv))


def _mean(values):
    return sum(values) / len(values) if values else 0.0


def _ppt(nv, f):
    return nv.MI(f, ("L",), rows=nv.kept)


def naive_criterion(nv, method, f, S, variant="definition"):
    """J(f | S) of METHODS.md section 4, term by term."""
    L = _labels(nv)
    if method == "ATR":
        return _R(nv, f) / nv.q + _ppt(nv, f) - _mean([nv.MI(f, s) for s in S])
    if method == "PPT-MI":
        return _ppt(nv, f)
    if method == "IGMF":
        denom = nv.H(f) + nv.H(("L",))
        return 2 * nv.MI(f, ("L",)) / denom if denom > 0 else 0.0
    red3 = sum(nv.II(f, s, li) for s in S for li in L)
    if method == "PMU":
        if variant == "definition":
            pair_term = sum(nv.II(f, a, b) for a, b in combinations(L, 2))
        else:  # every ordered pair, i = j included
            pair_term = sum(nv.II(f, a, b) for a in L for b in L)
        return _R(nv, f) - pair_term - red3
    if method == "D2F" or (method == "MDMR" and variant == "reference-code"):
        return _R(nv, f) - red3
    if method == "MDMR":
        terms = [nv.MI(f, s) - sum(nv.CI(s, li, f) for li in L) for s in S]
        return _R(nv, f) - _mean(terms)
    mi_S = [nv.MI(f, s) for s in S]
    if method == "SCLS":
        return _R(nv, f) * (1 - sum(mi_S) / nv.H(f)) if nv.H(f) > 0 else 0.0
    if method == "LRFS":
        return sum(nv.CI(f, a, b) for a, b in permutations(L, 2)) - _mean(mi_S)
    if method == "LSMFS":
        pos = sum(max(0.0, nv.II(f, a, b)) for a, b in permutations(L, 2))
        return _R(nv, f) + pos - sum(mi_S)
    if method == "MLSMFS":
        best = max((nv.CI(f, a, b) for a, b in permutations(L, 2)), default=0.0)
        return _R(nv, f) + best - sum(mi_S)
    raise ValueError(method)


def naive_rank(codes, Y, method, *, k=None, tau=6, variant="definition"):
    """Greedy loop written from the spec: max, then lowest index within 1e-10."""
    nv = NaiveIT(codes, Y, tau)
    k = nv.m if k is None else k
    selected, path = [], []
    for _ in range(k):
        S = [("f", s) for s in selected]
        values = {
            f: naive_criterion(nv, method, ("f", f), S, variant)
            for f in range(nv.m)
            if f not in selected
        }
        best = max(values.values())
        pick = min(f for f, v in values.items() if v >= best - TIE)
        selected.append(pick)
        path.append(values[pick])
    return selected, path


def assert_ranks_as_naive(codes, Y, method, **params):
    """Check the engine's full ranking and criterion path against :func:`naive_rank`.

    ``params`` (``k``, ``tau``, ``variant``) go to both.
    """
    fast = rank_discrete(codes, Y, method, **params)
    order, path = naive_rank(codes, Y, method, **params)
    assert fast.order.tolist() == order
    np.testing.assert_allclose(fast.criterion_path, path, rtol=0, atol=1e-9)


def tsum(counts: np.ndarray) -> float:
    """``sum c log2 c`` over the non-zero counts (n H = n log2 n - tsum)."""
    c = counts[counts > 0].astype(float)
    return float((c * np.log2(c)).sum())


def dense_step_terms(codes, Y, s):
    """H(f, s) and sum_i H(f, s, l_i) of every f, counted from the raw codes."""
    n, m = codes.shape
    width = int(codes.max()) + 1
    h_fs, h_fsl = np.empty(m), np.empty(m)
    for f in range(m):
        joint = codes[:, f] * width + codes[:, s]
        h_fs[f] = np.log2(n) - tsum(np.bincount(joint)) / n
        h_fsl[f] = sum(
            np.log2(n) - tsum(np.bincount(joint * 2 + Y[:, i])) / n
            for i in range(Y.shape[1])
        )
    return h_fs, h_fsl


def assert_step_terms_as_dense(codes, Y, new_features):
    """Check the engine's step terms of each new feature s against a dense count."""
    problem = prepare_codes(codes, Y)
    for s in new_features:
        terms = step_terms(problem, s, with_labels=True)
        h_fs, h_fsl = dense_step_terms(codes, Y, s)
        np.testing.assert_allclose(terms.h_fs, h_fs, rtol=0, atol=1e-10)
        np.testing.assert_allclose(terms.h_fsl_sum, h_fsl, rtol=0, atol=1e-10)


SHAPES = [(40, 6, 3, 3), (50, 7, 4, 2), (30, 5, 1, 3), (60, 6, 2, 4), (25, 8, 5, 2)]


def _random_problem(seed, n, m, q, bins):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, bins, size=(n, m))
    # Correlate a few features and labels so criteria are not all near zero.
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    Y[:, 0] = (codes[:, 0] + rng.integers(0, 2, n) > bins // 2 + 1).astype(np.int8)
    codes[:, -1] = codes[:, 1]  # an exact duplicate feature
    return codes, Y


@pytest.mark.parametrize("method", IT_METHODS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_engine_matches_naive_full_ranking(method, seed):
    """Check that the fast engine gives the naive full ranking and criterion path."""
    n, m, q, bins = SHAPES[seed % len(SHAPES)]
    codes, Y = _random_problem(seed, n, m, q, bins)
    assert_ranks_as_naive(codes, Y, method, tau=3)


@pytest.mark.parametrize("method", IT_METHODS)
@pytest.mark.parametrize("shape", SHAPES[2:], ids=lambda s: "x".join(map(str, s)))
def test_engine_matches_naive_other_shapes(method, shape):
    """Check that the engine matches the naive ranking on more shapes, incl. q = 1."""
    codes, Y = _random_problem(sum(shape), *shape)
    assert_ranks_as_naive(codes, Y, method, tau=2)


@pytest.mark.parametrize("method", IT_METHODS)
def test_engine_matches_naive_top_k(method):
    """Check that a top-k ranking is the prefix of the naive full ranking."""
    codes, Y = _random_problem(7, 50, 7, 3, 3)
    fast = rank_discrete(codes, Y, method, k=3)
    order, _ = naive_rank(codes, Y, method)
    assert fast.order.tolist() == order[:3]


@pytest.mark.parametrize("method", ["PPT-MI", "ATR"])
@pytest.mark.parametrize("tau", [1, 6, 1000])
def test_ppt_methods_match_naive_for_any_tau(method, tau):
    """Check PPT-MI and ATR against the naive code with no, some and total pruning."""
    codes, Y = _random_problem(11, 60, 6, 4, 3)
    assert_ranks_as_naive(codes, Y, method, tau=tau)


@pytest.mark.parametrize("method", ["PMU", "LRFS", "LSMFS", "MLSMFS", "MDMR"])
def test_tiny_blocks_match_naive(monkeypatch, method):
    """Check that tiny evaluation blocks (many, some empty) change nothing."""
    from mlfs_core.selectors.it import pairs as _it_pairs

    monkeypatch.setattr(_it_pairs, "_BLOCK_ELEMENTS", 5)
    codes, Y = _random_problem(12, 35, 9, 4, 4)
    assert_ranks_as_naive(codes, Y, method)
