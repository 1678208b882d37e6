"""Static per-feature terms and the incremental terms of a newly selected feature.

When feature ``s`` joins S, every candidate ``f`` needs ``I(f; s)`` and, for
PMU, D2F and MDMR, sums over the labels of quantities of ``(f, s, l_i)``.
Both come from counts of the joint codes for all ``f`` at once: for each code
``w >= 1`` of ``s`` the samples with ``s = w`` give one sparse product
(feature codes x labels); the ``w = 0`` slices and the ``f``-code-0 cells
follow by subtraction from totals. The label sums come from sparse
corrections (:mod:`.triples`), so one selection step costs ``b_s - 1``
sparse products and passes over the feature-label co-occurrences, never an
(n_features, codes, codes, n_labels) array.

Cost: :func:`compute_statics` (the relevance pass) is O(M b q) in bounded
blocks. One :func:`step_terms` counts the (f, s) table only for the
features O that share a non-mode sample with s (the others follow from
their code counts in O(M b)): O(nnz_s + M b + |O| b b_s) for H(f, s), where
nnz_s counts the non-mode codes of the samples where s is not at its mode;
with the label sums add :func:`.triples.triple_tsum`'s cost (apart
features in closed form, the overlapping ones counted). A run of k steps
costs k times that; memory O(M b + |O| b b_s + E).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .data import DiscreteProblem, fill_mode
from .triples import overlap_of, ranges, triple_tsum

# Elements per block of the (features, codes, labels) temporaries of the statics.
_BLOCK_ELEMENTS = 1 << 18


@dataclass(frozen=True)
class Statics:
    """Per-feature and per-label entropies, computed once per ranking.

    Attributes
    ----------
    h_f : ndarray of shape (n_features,)
        H(f).
    h_l : ndarray of shape (n_labels,)
        H(l_i).
    h_fl : ndarray of shape (n_features, n_labels)
        H(f, l_i).
    h_fl_sum : ndarray of shape (n_features,)
        sum_i H(f, l_i).
    relevance : ndarray of shape (n_features,)
        R(f) = sum_i I(f; l_i).
    """

    h_f: np.ndarray
    h_l: np.ndarray
    h_fl: np.ndarray
    h_fl_sum: np.ndarray
    relevance: np.ndarray


def compute_statics(problem: DiscreteProblem) -> Statics:
    """Entropies of features, labels and (feature, label) pairs, and R(f)."""
    h_f = problem.entropy(problem.tsum(problem.bin_counts).sum(axis=1))
    h_l = problem.entropy(
        problem.tsum(problem.label_counts)
        + problem.tsum(problem.n_samples - problem.label_counts)
    )
    h_fl = np.empty((problem.n_features, problem.n_labels))
    step = max(1, _BLOCK_ELEMENTS // (problem.n_codes * problem.n_labels))
    for start in range(0, problem.n_features, step):  # bounded temporaries
        fs = slice(start, start + step)
        ones = problem.feature_label[fs]
        zeros = problem.bin_counts[fs, :, None] - ones
        k = (problem.tsum(ones) + problem.tsum(zeros)).sum(axis=1)
        h_fl[fs] = problem.entropy(k)
    h_fl_sum = h_fl.sum(axis=1)
    relevance = problem.n_labels * h_f + h_l.sum() - h_fl_sum
    return Statics(h_f=h_f, h_l=h_l, h_fl=h_fl, h_fl_sum=h_fl_sum, relevance=relevance)


@dataclass(frozen=True)
class StepTerms:
    """Entropies involving the newly selected feature ``s``, for every candidate f.

    Attributes
    ----------
    h_fs : ndarray of shape (n_features,)
        H(f, s).
    h_fsl_sum : ndarray of shape (n_features,) or None
        sum_i H(f, s, l_i) (only when asked for).
    h_s : float
        H(s).
    h_sl_sum : float
        sum_i H(s, l_i).
    """

    h_fs: np.ndarray
    h_fsl_sum: np.ndarray | None
    h_s: float
    h_sl_sum: float


def _rows_by_code(problem: DiscreteProblem, s: int) -> list[np.ndarray]:
    codes = problem.codes
    span = slice(codes.indptr[s], codes.indptr[s + 1])
    rows, values = codes.indices[span], codes.data[span]
    return [rows[values == w] for w in range(1, int(problem.n_bins[s]))]


def _pair_counts(
    problem: DiscreteProblem, s: int, rows: list[np.ndarray], overlap: np.ndarray
) -> np.ndarray:
    """Counts of (f = v, s = w) of ``overlap``, shape (n_overlap, n_codes, b_s)."""
    b1, small = problem.n_codes - 1, problem.small
    local = np.zeros(problem.n_features, dtype=np.intp)
    local[overlap] = np.arange(overlap.size)
    slices = []
    for r in rows:
        # The code >= 1 columns of the rows; all belong to ``overlap``.
        cols = small.indices[ranges(small.indptr[r], small.indptr[r + 1])]
        cols = local[cols // b1] * b1 + cols % b1
        counts = np.bincount(cols, minlength=overlap.size * b1)
        slices.append(fill_mode(counts.reshape(overlap.size, b1), r.size))
    small_w = np.stack(slices, axis=2) if slices else None
    return _fill_s_mode(small_w, problem.bin_counts[overlap])


def _fill_s_mode(small_w: np.ndarray | None, totals: np.ndarray) -> np.ndarray:
    """Prepend the s-code-0 slice (totals minus the other codes of s) on axis 2."""
    if small_w is None:
        return totals[:, :, None]
    mode = totals - small_w.sum(axis=2)
    return np.concatenate([mode[:, :, None], small_w], axis=2)


def _pair_tsum(problem, rows, pair, overlap) -> np.ndarray:
    """T-sum of the (f, s) table of every feature.

    A feature apart from s (no shared non-mode sample) has the cells
    ``bin_counts[f, v]`` (v >= 1, s = 0), the sizes of s's codes (f = 0) and
    its mode count minus s's non-mode samples; the others are counted.
    """
    sizes = np.array([r.size for r in rows], dtype=np.intp)
    x = np.maximum(problem.bin_counts[:, 0] - sizes.sum(), 0)
    k = problem.code_tsum + problem.tsum(sizes).sum() + problem.tsum(x)
    k[overlap] = problem.tsum(pair).sum(axis=(1, 2))
    return k


def step_terms(problem: DiscreteProblem, s: int, *, with_labels: bool) -> StepTerms:
    """Entropies of (f, s) and optionally sum_i H(f, s, l_i) for every f.

    Parameters
    ----------
    problem : DiscreteProblem
    s : int
        The feature that just joined S.
    with_labels : bool
        Also compute the label sums (PMU, D2F, MDMR).

    Returns
    -------
    StepTerms
    """
    rows = _rows_by_code(problem, s)
    overlap = overlap_of(problem, rows)
    pair = _pair_counts(problem, s, rows, overlap)
    h_fs = problem.entropy(_pair_tsum(problem, rows, pair, overlap))
    h_s = float(problem.entropy(problem.tsum(problem.bin_counts[s]).sum()))
    ones = problem.feature_label[s]
    zeros = problem.bin_counts[s][:, None] - ones
    h_sl = problem.entropy((problem.tsum(ones) + problem.tsum(zeros)).sum(axis=0))
    h_fsl_sum = None
    if with_labels:
        q = problem.n_labels
        k = triple_tsum(problem, rows, pair, overlap)
        h_fsl_sum = q * np.log2(problem.n_samples) - k / problem.n_samples
    return StepTerms(
        h_fs=h_fs, h_fsl_sum=h_fsl_sum, h_s=h_s, h_sl_sum=float(h_sl.sum())
    )
