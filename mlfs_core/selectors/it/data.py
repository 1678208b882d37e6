"""Discrete problem shared by the information-theoretic selectors.

The greedy engine never works on raw values:
:func:`.codes.prepare_codes` turns a matrix of bin codes and a label matrix
into a :class:`DiscreteProblem` that holds everything the criteria count
with, in compact codes (each feature's most frequent bin is 0; see
:mod:`.codes`). Counts are only ever computed for the *small* bins (code >= 1)
with sparse products; the counts of bin 0 follow by subtraction from totals.

T-sums
    For a table of integer counts with total ``n`` the plug-in entropy is
    ``log2(n) - sum(T[c]) / n`` with ``T[c] = c log2 c`` looked up in a table;
    functions below return such sums ("K") and convert them at the end.

Cost (notation of :mod:`mlfs_core.selectors.it`): :attr:`DiscreteProblem.entries`
is O(E) once; :func:`small_counts` one sparse product.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class DiscreteProblem:
    """Counts of a discretized multi-label training set.

    Attributes
    ----------
    codes : csc_matrix of shape (n_samples, n_features), small unsigned int
        Compact codes; 0 (implicit) is each feature's most frequent value.
    n_bins : ndarray of shape (n_features,)
        Number of distinct values of each feature (1 for a constant one).
    small : csr_matrix of shape (n_samples, n_features * (n_codes - 1))
        One-hot indicators of the codes >= 1; column ``f * (n_codes - 1) + c - 1``.
    labels : csr_matrix of shape (n_samples, n_labels)
        The 0/1 labels as a sparse float matrix.
    table : ndarray of shape (n_samples + 1,)
        ``T[c] = c log2 c``.
    bin_counts : ndarray of shape (n_features, n_codes)
        Samples per code of each feature.
    label_counts : ndarray of shape (n_labels,)
        Positive samples per label.
    feature_label : ndarray of shape (n_features, n_codes, n_labels)
        Samples with feature code ``c`` and label ``i`` positive.
    """

    codes: sp.csc_matrix
    n_bins: np.ndarray
    small: sp.csr_matrix
    labels: sp.csr_matrix
    table: np.ndarray
    bin_counts: np.ndarray
    label_counts: np.ndarray
    feature_label: np.ndarray

    @property
    def n_samples(self) -> int:
        """Number of samples n."""
        return self.codes.shape[0]

    @property
    def n_features(self) -> int:
        """Number of features M."""
        return self.codes.shape[1]

    @property
    def n_labels(self) -> int:
        """Number of labels q."""
        return self.labels.shape[1]

    @cached_property
    def small_labels(self) -> sp.csr_matrix:
        """``feature_label`` of the codes >= 1 as CSR, one row per (f, code)."""
        # The sparse product again: cheaper than scanning the dense counts.
        product = sp.csr_matrix(self.small.T @ self.labels)
        product.sort_indices()
        product.data = np.rint(product.data).astype(self.feature_label.dtype)
        return product

    @cached_property
    def entries(self):
        """The stored co-occurrences grouped by (feature, label), for the steps."""
        return Entries(self)

    @cached_property
    def code_tsum(self) -> np.ndarray:
        """``sum_{v >= 1} T[bin_counts[f, v]]`` per feature, shape (n_features,)."""
        return self.tsum(self.bin_counts[:, 1:]).sum(axis=1)

    @cached_property
    def mode_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct mode counts (``bin_counts[:, 0]``) and each feature's index."""
        return unique_keys(self.bin_counts[:, 0], self.n_samples + 1)

    @property
    def n_codes(self) -> int:
        """Largest number of codes of any feature (at least 2, for array shapes)."""
        return self.bin_counts.shape[1]

    def entropy(
        self, k_sum: np.ndarray | float, total: int | None = None
    ) -> np.ndarray:
        """Entropy in bits from a T-sum over a table with ``total`` samples."""
        total = self.n_samples if total is None else total
        if total == 0:
            return np.zeros_like(np.asarray(k_sum, dtype=float))
        return np.log2(total) - np.asarray(k_sum) / total

    def tsum(self, counts: np.ndarray) -> np.ndarray:
        """``T[counts]`` elementwise (counts are exact integers)."""
        return np.take(self.table, np.asarray(counts, dtype=np.intp), mode="clip")


COMPILED = True
"""Whether the exact terms use the compiled loops of :mod:`.kernels` (numba).

Set it to False to run the numpy paths (the tests compare both)."""
COMPILED_FROM = 500_000
"""Smallest M q (features x labels) whose exact terms use the compiled loops.

Below it the numpy loops take less than loading numba and the kernels does
(0.6-0.7 s per process with numba's cache, 6-13 s compiling them at their
first use after an install), so a small dataset (the app's sample, emotions,
bibtex) never imports numba. Both paths give the same values: to the bit,
but for the steps' sums (:func:`.kernels.overlap_steps`), which agree to
rounding and give the same rankings."""


def kernels(problem=None):
    """The module :mod:`.kernels` (imports numba on first use), or None.

    None when :data:`COMPILED` is False or ``problem`` (a
    :class:`DiscreteProblem`) has fewer than :data:`COMPILED_FROM` feature-label
    pairs: the callers then take their numpy paths, which give the same values.
    """
    if not COMPILED:
        return None
    if problem is not None and problem.n_features * problem.n_labels < COMPILED_FROM:
        return None
    from . import kernels as compiled

    return compiled


DENSE_KEY_RANGE = 1 << 25
"""Key ranges up to this size are grouped with a mask (32 MiB of bools)."""


def unique_keys(keys: np.ndarray, n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for integer keys in ``[0, n_keys)``.

    Where the key range is small (:data:`DENSE_KEY_RANGE`, or at most 8 keys
    per possible value) the keys are marked in a boolean mask and numbered in
    order, which is linear instead of a sort; elsewhere ``np.unique``. Both
    give the same arrays (sorted unique keys, the index of each key's value).

    Examples
    --------
    >>> u, inv = unique_keys(np.array([5, 1, 5, 3]), 8)
    >>> u.tolist(), inv.tolist()
    ([1, 3, 5], [2, 0, 2, 1])
    """
    keys = np.asarray(keys, dtype=np.intp).ravel()
    if n_keys > max(DENSE_KEY_RANGE, 8 * keys.size):
        unique, inverse = np.unique(keys, return_inverse=True)
        return unique, inverse.ravel()
    mark = np.zeros(int(n_keys), dtype=bool)
    mark[keys] = True
    unique = np.flatnonzero(mark)
    rank = np.empty(int(n_keys), dtype=np.intp)
    rank[unique] = np.arange(unique.size)
    return unique, rank[keys]


LOOKUP_KEYS = 1 << 25
"""Entries are located through a dense int32 index up to this many keys (128 MiB)."""


GROUP_LOOKUP_KEYS = 1 << 23
"""(f, i) groups are located through a dense int32 index up to this many keys."""


class Entries:
    """The stored (f, v, i) co-occurrence counts and their (f, i) groups."""

    def __init__(self, problem: DiscreteProblem) -> None:
        coo = problem.small_labels.tocoo()
        q, b1 = problem.n_labels, problem.n_codes - 1
        self.r = coo.row.astype(np.intp)
        self.i = coo.col.astype(np.intp)
        self.counts = coo.data.astype(np.intp)
        self.keys = self.r * q + self.i  # sorted: CSR order
        self.f = self.r // b1
        self.code = self.r % b1 + 1
        self.fv = self.f * problem.n_codes + self.code  # flat (f, code)
        n_features = problem.n_features
        groups, self.group = unique_keys(self.f * q + self.i, n_features * q)
        self.group_f, self.group_i = groups // q, groups % q
        n_keys = problem.small_labels.shape[0] * q
        self._index = None  # key -> entry, where the key range is small
        if n_keys <= LOOKUP_KEYS:
            self._index = np.full(n_keys, -1, dtype=np.int32)
            self._index[self.keys] = np.arange(self.keys.size, dtype=np.int32)
        self.problem = problem

    @cached_property
    def entry_start(self) -> np.ndarray:
        """First entry of each feature (entries are sorted by feature), (M + 1,)."""
        return np.searchsorted(self.f, np.arange(self.problem.n_features + 1))

    @cached_property
    def group_start(self) -> np.ndarray:
        """First (f, i) group of each feature, shape (n_features + 1,)."""
        return np.searchsorted(self.group_f, np.arange(self.problem.n_features + 1))

    @cached_property
    def group_alpha(self) -> np.ndarray:
        """Non-mode samples of f with label i, per (f, i) group."""
        return np.bincount(
            self.group, weights=self.counts, minlength=self.group_f.size
        ).astype(np.intp)

    @cached_property
    def code_cells(self) -> np.ndarray:
        """``sum_i sum_{v >= 1, l} T[count(f = v, l_i = l)]`` per feature.

        The T-sum of the code >= 1 cells of every (f, l_i) table: ``q`` times
        :attr:`DiscreteProblem.code_tsum` plus a change per stored entry.
        """
        problem = self.problem
        total = problem.bin_counts.ravel()[self.fv]
        change = problem.tsum(self.counts) - problem.tsum(total)
        change += problem.tsum(total - self.counts)
        out = np.bincount(self.f, weights=change, minlength=problem.n_features)
        return out + problem.n_labels * problem.code_tsum

    @cached_property
    def mode_keys(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, sp.csr_matrix]:
        """Distinct (label i, mode count x, alpha) of the groups and who holds them.

        Returns ``(i, x, alpha, holders)``: the keys, and the (n_features,
        n_keys) CSR matrix counting each feature's groups with each key.
        """
        problem = self.problem
        x = problem.bin_counts[self.group_f, 0]
        width = problem.n_samples + 1
        keys = (self.group_i * width + x) * width + self.group_alpha
        unique, inverse = np.unique(keys, return_inverse=True)
        i, rest = np.divmod(unique, width * width)
        x_key, alpha = np.divmod(rest, width)
        holders = sp.csr_matrix(
            (np.ones(keys.size), (self.group_f, inverse.ravel())),
            shape=(problem.n_features, unique.size),
        )
        holders.sum_duplicates()
        return i, x_key, alpha, holders

    @cached_property
    def _group_index(self) -> np.ndarray | None:
        """(f, i) -> group, as a dense int32 index where the key range is small."""
        n_keys = self.problem.n_features * self.problem.n_labels
        if n_keys > GROUP_LOOKUP_KEYS:
            return None
        index = np.full(n_keys, -1, dtype=np.int32)
        index[self.group_f * self.problem.n_labels + self.group_i] = np.arange(
            self.group_f.size, dtype=np.int32
        )
        return index

    def group_of(self, f: np.ndarray, i: np.ndarray) -> np.ndarray:
        """Index of the (f, i) groups (each must be stored)."""
        keys = f * self.problem.n_labels + i
        if self._group_index is not None:
            return self._group_index[keys].astype(np.intp)
        stored = self.group_f * self.problem.n_labels + self.group_i  # sorted
        return np.searchsorted(stored, keys)

    def position(self, r: np.ndarray, i: np.ndarray, q: int) -> np.ndarray:
        """Index of the entries (r, i) (each must be stored)."""
        if self._index is not None:
            return self._index[r * q + i].astype(np.intp)
        return np.searchsorted(self.keys, r * q + i)

    def group_sums(self, positions: np.ndarray, values: np.ndarray):
        """The (f, i) groups of ``positions`` (sorted) and the sum of values in each.

        Sums are exact for integer ``values``; returned as int.
        """
        groups, inverse = unique_keys(self.group[positions], self.group_f.size)
        sums = np.bincount(inverse, weights=values, minlength=groups.size)
        return groups, np.rint(sums).astype(np.intp)

    @cached_property
    def count_tsum(self) -> np.ndarray:
        """``sum T[count]`` over each feature's stored entries, (n_features,)."""
        return np.bincount(
            self.f,
            weights=self.problem.tsum(self.counts),
            minlength=self.problem.n_features,
        )

    @cached_property
    def row_sizes(self) -> np.ndarray:
        """Stored entries per (f, code >= 1) row, shape (n_features, n_codes - 1)."""
        problem = self.problem
        sizes = np.diff(problem.small_labels.indptr)
        return sizes.reshape(problem.n_features, problem.n_codes - 1)


def fill_mode(small_counts: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Stack the code-0 counts (totals minus the small codes) in front.

    Parameters
    ----------
    small_counts : ndarray of shape (n_features, n_codes - 1, ...)
        Counts of codes 1.. of every feature.
    totals : ndarray broadcastable to shape (n_features, ...)
        Counts over all codes.

    Returns
    -------
    ndarray of shape (n_features, n_codes, ...)
    """
    mode = (totals - small_counts.sum(axis=1)).astype(small_counts.dtype, copy=False)
    # C order whatever the inputs': kernels read label rows and flat indices.
    return np.ascontiguousarray(np.concatenate([mode[:, None], small_counts], axis=1))


def small_counts(
    problem: DiscreteProblem,
    rows: np.ndarray | None = None,
    right: sp.csr_matrix | None = None,
) -> np.ndarray:
    """Counts of (feature code >= 1, column of ``right``) over ``rows``.

    Returns an int32 array of shape (n_features, n_codes - 1, n_right); with
    ``right=None`` the plain int64 code counts of shape (n_features, n_codes - 1).
    ``rows=None`` means every sample.
    """
    return code_products(problem.small, problem.n_codes, rows, right)


def code_products(
    small: sp.csr_matrix,
    n_codes: int,
    rows: np.ndarray | None,
    right: sp.csr_matrix | None,
) -> np.ndarray:
    """Counts of (code >= 1, column of ``right``) from the one-hot ``small``.

    As :func:`small_counts`, from the one-hot matrix itself (before the
    :class:`DiscreteProblem` exists).
    """
    n_features = small.shape[1] // (n_codes - 1)
    if rows is not None:
        small = small[rows]
        right = None if right is None else right[rows]
    if right is None:
        counts = np.asarray(small.sum(axis=0)).ravel()
        return np.rint(counts).astype(np.int64).reshape(n_features, n_codes - 1)
    product = sp.csr_matrix(small.T @ right)
    # Round the stored counts only, then densify as int32: one dense copy.
    product.data = np.rint(product.data)
    shape = (n_features, n_codes - 1, right.shape[1])
    return product.astype(np.int32).toarray().reshape(shape)
