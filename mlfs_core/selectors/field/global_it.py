"""Global information-theoretic rankings: GRRO, FIMF (family ``"global-information"``).

Both rank every feature at once from information measures (in bits, plug-in
estimates from counts), instead of the greedy filters' one-at-a-time steps.

**GRRO** (Zhang et al. 2020 [1]_). Features are discretized as the greedy
filters are (:class:`~mlfs_core.measures.discretize.Discretizer`), but with
**2 equal-width bins** by default, as GRRO's authors do (a public port
hard-codes 3). With ``FL[i, j] = I(f_i; l_j)``, ``FF[i, k] = I(f_i; f_k)`` for
``i != k`` and ``FF[i, i] = 1``, and ``LL[j, l]`` the cosine distance between
the label columns (0 in the row and column of a label that never occurs),
the weights W (features x labels) solve the Sylvester equation::

    (I + alpha FF) W + W (beta LL) = FL

(both matrices are symmetric: solved in their eigenbases, :func:`grro_weights`),
and feature i scores ``sum_j W[i, j]``.

FF is M x M. Its cost is estimated before any work (:func:`grro_cost`: the
dense candidate codes, the joint code counts, FF and the solver's
workspace). Above ``max_features`` features (default 1000), with
``above_max="relevance"`` (the default) only the ``max_features`` features of
highest relevance ``sum_j FL[i, j]`` (ties: lowest index) are weighted; the
others rank below every one of them, by relevance (their score is
``min(candidate scores) - 1 - (top other relevance - relevance)``), and
:attr:`~mlfs_core.selectors.Ranking.candidates` lists the weighted features.
``above_max="refuse"`` raises a ConfigError with the estimate instead. A
candidate set whose estimate passes :data:`GRRO_MEMORY_BYTES` is refused
either way.

**FIMF** (Lee and Kim 2015 [2]_). Features are min-max scaled and binarised
(``x > 0.5`` is 1; 0.5 itself is 0; a sparse matrix stays sparse). The
``n_candidates`` features of highest entropy (ties: lowest index; 0 = all)
are scored::

    score(f) = sum_l [H(f) - H(f, l)]
             + sum_{m < n in L'} [-H(f) + H(f, l_m) + H(f, l_n) - H(f, l_m, l_n)]

with L' the ``n_labels`` labels of highest entropy (ties: lowest index;
all labels if there are fewer). The other features score below every
candidate, by entropy (``min(candidate scores) - 1 - (top other entropy -
entropy)``), and :attr:`~mlfs_core.selectors.Ranking.candidates` lists the
candidates when they are fewer than M. Defaults: every feature a candidate
and ``n_labels = 3``, as the field's baseline protocol states; the paper's
full text was not available to check its own stated values (its abstract
and the authors' software page were).

Both rank by score descending, ties by the lowest feature index; scores are
finite on degenerate data (constant features, a label that never occurs, a
single sample).

References
----------
.. [1] J. Zhang, Y. Lin, M. Jiang, S. Li, Y. Tang and K. C. Tan, "Multi-label
   feature selection via global relevance and redundancy optimization",
   IJCAI 2020.
.. [2] J. Lee and D.-W. Kim, "Fast multi-label feature selection based on
   information-theoretic feature ranking", Pattern Recognition 48(9),
   2015, pp. 2761-2771.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..._validation import check_k
from ...errors import ConfigError
from ...measures.binning import binning_option
from ...measures.discretize import Discretizer
from ...measures.information import xlog2x_table
from ...options import Option
from .._spec import MethodSpec, Ranking
from ..citations import FIELD
from ..it.codes import prepare_codes
from ..it.data import code_products
from ..it.terms import compute_statics
from ._scaling import scale

__all__ = [
    "GRRO_MEMORY_BYTES",
    "feature_redundancy",
    "fimf_scores",
    "global_it_specs",
    "grro_cost",
    "grro_weights",
    "label_cosine_distance",
    "rank_fimf",
    "rank_grro",
]

GRRO_MEMORY_BYTES = 2 * 1024**3
"""Largest estimated memory of GRRO's candidate set (2 GiB)."""
_ABOVE_MAX = ("relevance", "refuse")
_PAIR_BLOCK = 64
"""Label pairs counted per sparse product in FIMF."""
_FEATURE_BLOCK = 1 << 20
"""FIMF scores features in blocks of at most this many (feature, label, cell)
counts."""


def grro_cost(n_samples: int, n_candidates: int, n_labels: int, n_codes: int) -> int:
    """Estimated peak bytes of GRRO's redundancy step on ``n_candidates`` features.

    The one-hot non-mode codes (n x c), the joint code counts and their
    ``c log c`` table ((c b)^2 twice, b codes per feature), FF, I + alpha FF,
    its eigenvectors and the solver's products (6 c^2), and the c x q
    right-hand sides (3 c q), all 8 bytes each.

    Examples
    --------
    >>> round(grro_cost(6000, 1000, 101, 2) / 1024**2)  # MiB, rcv1subset1
    155
    """
    c, cb = int(n_candidates), int(n_candidates) * int(n_codes)
    return 8 * (n_samples * c + 2 * cb * cb + 6 * c * c + 3 * c * n_labels)


def label_cosine_distance(Y: np.ndarray) -> np.ndarray:
    """``1 - cos(Y_j, Y_l)`` between label columns; 0 where a label never occurs.

    Examples
    --------
    >>> label_cosine_distance(np.array([[1, 0, 0], [1, 1, 0]])).round(3).tolist()
    [[0.0, 0.293, 0.0], [0.293, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """
    Yf = sp.csc_matrix(np.asarray(Y), dtype=np.float64)
    norms = np.sqrt(np.asarray(Yf.multiply(Yf).sum(axis=0)).ravel())
    gram = (Yf.T @ Yf).toarray()
    occurs = norms > 0
    inverse = np.zeros_like(norms)
    inverse[occurs] = 1.0 / norms[occurs]
    distance = 1.0 - gram * inverse[:, None] * inverse[None, :]
    distance[~occurs, :] = 0.0
    distance[:, ~occurs] = 0.0
    np.fill_diagonal(distance, 0.0)
    return np.maximum(distance, 0.0)


def grro_weights(
    FL: np.ndarray, FF: np.ndarray, LL: np.ndarray, *, alpha: float, beta: float
) -> np.ndarray:
    """W solving ``(I + alpha FF) W + W (beta LL) = FL``.

    ``A = I + alpha FF`` and ``B = beta LL`` are symmetric, so the equation
    is solved in their eigenbases (Bartels-Stewart with diagonal Schur
    forms): with ``A = U diag(a) U^T`` and ``B = V diag(b) V^T``,
    ``W = U [(U^T FL V) / (a_i + b_j)] V^T``; ``scipy.linalg.solve_sylvester``
    gives the same W (a test checks) at several times the cost. LAPACK's
    divide-and-conquer driver (``evd``) is used.

    Raises
    ------
    ConfigError
        If the equation has no unique solution for these ``alpha`` and
        ``beta``: some ``|a_i + b_j|`` is at most 1e-12 times the largest
        ``|a_i| + |b_j|``.
    """
    from scipy.linalg import eigh

    a, U = eigh(np.eye(FF.shape[0]) + alpha * FF, driver="evd")
    b, V = eigh(beta * LL, driver="evd")
    sums = a[:, None] + b[None, :]
    scale = np.abs(a).max(initial=0.0) + np.abs(b).max(initial=0.0)
    if np.any(np.abs(sums) <= 1e-12 * max(scale, 1.0)):
        raise ConfigError(
            f"GRRO: the Sylvester equation is singular for alpha={alpha}, "
            f"beta={beta}; choose other values"
        )
    return U @ (((U.T @ FL) @ V) / sums) @ V.T


def feature_redundancy(problem, chosen: np.ndarray) -> np.ndarray:
    """``I(f; g)`` in bits between the ``chosen`` features of a discrete problem.

    Counts of the joint codes come from one sparse product of the one-hot
    non-mode codes (:attr:`~..it.data.DiscreteProblem.small`); the cells of a
    mode code follow by subtraction from the code counts. Memory
    ``O(c^2 b^2)`` for c features of at most b codes (:func:`grro_cost`).

    Returns
    -------
    ndarray of shape (c, c)
        Symmetric, non-negative; the diagonal is ``H(f)``.
    """
    b, c = problem.n_codes, chosen.size
    slots = (chosen[:, None] * (b - 1) + np.arange(b - 1)).ravel()
    small = sp.csr_matrix(problem.small[:, slots])
    both = code_products(small, b, None, small).reshape(c, b - 1, c, b - 1)
    counts = problem.bin_counts[chosen]
    g_mode = counts[:, 1:, None] - both.sum(axis=3)
    upper = np.concatenate([g_mode[..., None], both], axis=3)
    f_mode = counts[None, :, :] - upper.sum(axis=1)
    joint = np.concatenate([f_mode[:, None], upper], axis=1)
    h_fg = problem.entropy(problem.tsum(joint).sum(axis=(1, 3)))
    h_f = problem.entropy(problem.tsum(counts).sum(axis=1))
    return np.maximum(h_f[:, None] + h_f[None, :] - h_fg, 0.0)


def _below(scores_in: np.ndarray, key_out: np.ndarray) -> np.ndarray:
    """Scores of the non-candidates: below every candidate, ordered by ``key``."""
    floor = scores_in.min() if scores_in.size else 0.0
    top = key_out.max() if key_out.size else 0.0
    return floor - 1.0 - (top - key_out)


def _top(values: np.ndarray, count: int) -> np.ndarray:
    """Indices of the ``count`` largest values (ties: lowest index), ascending."""
    return np.sort(np.argsort(-values, kind="stable")[:count])


def _grro_candidates(relevance, n, q, n_codes, max_features, above_max):
    m = relevance.size
    if m > max_features and above_max == "refuse":
        need = grro_cost(n, m, q, n_codes)
        raise ConfigError(
            f"GRRO: {m} features is above max_features={max_features} "
            f"(the M x M redundancy needs about {need / 1024**3:.2f} GiB); raise "
            "max_features or use above_max='relevance'"
        )
    chosen = _top(relevance, min(m, max_features))
    need = grro_cost(n, chosen.size, q, n_codes)
    if need > GRRO_MEMORY_BYTES:
        raise ConfigError(
            f"GRRO: {chosen.size} candidate features with {n_codes} codes each "
            f"need about {need / 1024**3:.2f} GiB, above the "
            f"{GRRO_MEMORY_BYTES / 1024**3:.0f} GiB limit; lower max_features "
            "or bins"
        )
    return chosen


def rank_grro(
    X,
    Y: np.ndarray,
    *,
    k: int,
    rng: np.random.Generator,
    alpha: float = 100.0,
    beta: float = 0.1,
    bins: int = 2,
    discretize: str = "uniform",
    max_features: int = 1000,
    above_max: str = "relevance",
) -> Ranking:
    """Rank features with GRRO (see the module docstring for every rule).

    Returns
    -------
    Ranking
        ``scores`` the row sums of W (non-candidates below them), ``order``
        the top ``k``, ``candidates`` the weighted features when fewer than M.
    """
    Y = np.asarray(Y, dtype=np.int8)
    n, m = X.shape
    k = check_k(k, m)
    disc = Discretizer(int(bins), strategy=discretize).fit(X)
    codes, zero_codes = disc.transform_stored(X)
    problem = prepare_codes(codes, Y, zero_codes=zero_codes)
    statics = compute_statics(problem)
    FL = np.maximum(statics.h_f[:, None] + statics.h_l[None, :] - statics.h_fl, 0.0)
    relevance = FL.sum(axis=1)
    chosen = _grro_candidates(
        relevance, n, Y.shape[1], problem.n_codes, int(max_features), above_max
    )
    FF = feature_redundancy(problem, chosen)
    np.fill_diagonal(FF, 1.0)
    W = grro_weights(
        FL[chosen], FF, label_cosine_distance(Y), alpha=float(alpha), beta=float(beta)
    )
    scores = np.empty(m)
    scores[chosen] = W.sum(axis=1)
    others = np.setdiff1d(np.arange(m), chosen)
    scores[others] = _below(scores[chosen], relevance[others])
    order = np.argsort(-scores, kind="stable")[:k]
    return Ranking(
        order=order, scores=scores, candidates=chosen if chosen.size < m else None
    )


def _entropy(counts: np.ndarray, n: int) -> np.ndarray:
    """Entropy in bits of count tables on the last axis (total ``n``)."""
    table = xlog2x_table(n)
    cells = np.take(table, np.rint(counts).astype(np.intp), mode="clip")
    return np.log2(n) - cells.sum(axis=-1) / n


def _binary_features(X) -> sp.csc_matrix:
    """Min-max scaled, then ``x > 0.5``: a 0/1 CSC matrix (sparse stays sparse)."""
    Xs = scale(X, "minmax")
    if sp.issparse(Xs):
        Xs = sp.csc_matrix(Xs)
        Xs.data = (Xs.data > 0.5).astype(np.float64)
        Xs.eliminate_zeros()
        return Xs
    return sp.csc_matrix((Xs > 0.5).astype(np.float64))


def _pair_term(B, Yf, labels, counts, h_f, h_fl) -> np.ndarray:
    """``sum over pairs m < n of L'`` of the interaction term, per feature."""
    n = B.shape[0]
    cnt_f, cnt_l, n11 = counts
    first, second = np.triu_indices(labels.size, k=1)
    lm, ln = labels[first], labels[second]
    total = np.zeros(B.shape[1])
    for start in range(0, lm.size, _PAIR_BLOCK):  # bounded: features x 64 pairs
        a, b = lm[start : start + _PAIR_BLOCK], ln[start : start + _PAIR_BLOCK]
        both = Yf[:, a].multiply(Yf[:, b]).tocsc()
        t = np.asarray((B.T @ both).todense())
        c_ab = np.asarray(both.sum(axis=0)).ravel()
        na, nb, f = n11[:, a], n11[:, b], cnt_f[:, None]
        f1 = np.stack([t, na - t, nb - t, f - na - nb + t], axis=-1)
        label_cells = np.stack(
            [c_ab, cnt_l[a] - c_ab, cnt_l[b] - c_ab, n - cnt_l[a] - cnt_l[b] + c_ab],
            axis=-1,
        )
        h_fab = _entropy(np.concatenate([f1, label_cells[None] - f1], axis=-1), n)
        total += (-h_f[:, None] + h_fl[:, a] + h_fl[:, b] - h_fab).sum(axis=1)
    return total


def fimf_scores(B: sp.csc_matrix, Y: np.ndarray, n_labels: int) -> np.ndarray:
    """FIMF's score of every column of the 0/1 matrix ``B`` (module docstring).

    Parameters
    ----------
    B : csc_matrix of shape (n_samples, n_features)
        Binarised features (0/1 floats).
    Y : ndarray of shape (n_samples, n_labels)
        0/1 labels.
    n_labels : int
        Size of L', the highest-entropy labels whose pairs are counted.
    """
    n = B.shape[0]
    Yf = sp.csc_matrix(np.asarray(Y), dtype=np.float64)
    cnt_f = np.asarray(B.sum(axis=0)).ravel()
    cnt_l = np.asarray(Yf.sum(axis=0)).ravel()
    n11 = np.asarray((B.T @ Yf).todense())
    h_f = _entropy(np.stack([cnt_f, n - cnt_f], axis=-1), n)
    cells = np.stack(
        [n11, cnt_f[:, None] - n11, cnt_l - n11, n - cnt_f[:, None] - cnt_l + n11],
        axis=-1,
    )
    h_fl = _entropy(cells, n)
    score = (h_f[:, None] - h_fl).sum(axis=1)
    h_l = _entropy(np.stack([cnt_l, n - cnt_l], axis=-1), n)
    labels = _top(h_l, min(int(n_labels), h_l.size))
    labels = labels[np.argsort(-h_l[labels], kind="stable")]
    if labels.size >= 2:
        score += _pair_term(B, Yf, labels, (cnt_f, cnt_l, n11), h_f, h_fl)
    return score


def rank_fimf(
    X,
    Y: np.ndarray,
    *,
    k: int,
    rng: np.random.Generator,
    n_candidates: int = 0,
    n_labels: int = 3,
) -> Ranking:
    """Rank features with FIMF (see the module docstring for every rule).

    Returns
    -------
    Ranking
        ``scores`` FIMF's score (non-candidates below them), ``order`` the top
        ``k``, ``candidates`` the scored features when fewer than M.
    """
    Y = np.asarray(Y, dtype=np.int8)
    n, m = X.shape
    k = check_k(k, m)
    B = _binary_features(X)
    ones = np.asarray(B.sum(axis=0)).ravel()
    h_f = _entropy(np.stack([ones, n - ones], axis=-1), n)
    count = m if int(n_candidates) <= 0 else min(int(n_candidates), m)
    chosen = _top(h_f, count)
    scores = np.empty(m)
    step = max(1, _FEATURE_BLOCK // max(4 * Y.shape[1], 1))
    for start in range(0, chosen.size, step):  # bounded (features, labels, cells)
        part = chosen[start : start + step]
        scores[part] = fimf_scores(B[:, part], Y, int(n_labels))
    others = np.setdiff1d(np.arange(m), chosen)
    scores[others] = _below(scores[chosen], h_f[others])
    order = np.argsort(-scores, kind="stable")[:k]
    return Ranking(
        order=order, scores=scores, candidates=chosen if chosen.size < m else None
    )


def _grro_options() -> tuple[Option, ...]:
    return (
        Option("alpha", 100.0, low=0.0, help="Weight of the feature redundancy FF."),
        Option("beta", 0.1, low=0.0, help="Weight of the label distances LL."),
        Option("bins", 2, low=2, high=1000, help="Bins per feature when discretizing."),
        binning_option(
            "uniform",
            help="Bin edges: equal width, equal frequency, present/absent, or a "
            "registered strategy.",
        ),
        Option(
            "max_features",
            1000,
            low=2,
            high=20000,
            help="Most features in the M x M redundancy matrix.",
        ),
        Option(
            "above_max",
            "relevance",
            choices=_ABOVE_MAX,
            help="Above max_features: weight only the most relevant ones "
            "(the rest below them, by relevance), or refuse.",
        ),
    )


def _fimf_options() -> tuple[Option, ...]:
    return (
        Option(
            "n_candidates",
            0,
            low=0,
            help="Features scored: the highest-entropy ones (0 = all).",
        ),
        Option(
            "n_labels",
            3,
            low=1,
            high=64,
            help="Highest-entropy labels whose pairs enter the score.",
        ),
    )


def global_it_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return [
        MethodSpec(
            name="GRRO",
            family="global-information",
            rank=rank_grro,
            options=_grro_options(),
            description="Relevance and redundancy weighed globally: one "
            "Sylvester equation over mutual informations.",
            score_kind="score",
            citation=FIELD["GRRO"],
        ),
        MethodSpec(
            name="FIMF",
            family="global-information",
            rank=rank_fimf,
            options=_fimf_options(),
            description="Fast ranking by label relevance and label-pair "
            "interactions on binarised features.",
            score_kind="score",
            citation=FIELD["FIMF"],
        ),
    ]
