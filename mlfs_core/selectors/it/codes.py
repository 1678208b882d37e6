"""Compact codes: the :class:`~.data.DiscreteProblem` of bin codes and labels.

Each feature's occupied bins are relabelled ``0 .. b_f - 1`` with its most
frequent bin as 0 (entropies do not depend on the labels of the values), and
only the entries whose compact code is not 0 are kept, as a one-hot matrix of
the *small* codes. On sparse data bin 0 is "absent", so the products touch
only the stored values.

Cost (notation of :mod:`mlfs_core.selectors.it`): :func:`prepare_codes` is
O(nnz + M b) for the compact codes plus one sparse product of the one-hot
codes with the labels, O(nnz LC), and O(M b q) for the dense
``feature_label`` counts; memory O(nnz + M b q).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ...measures.information import xlog2x_table
from .data import DiscreteProblem, code_products, fill_mode


def _as_stored(
    codes: np.ndarray | sp.spmatrix, zero_codes: np.ndarray | None
) -> tuple[sp.csc_matrix, np.ndarray]:
    """Codes as CSC (implicit entries have the code ``zero_codes[f]``)."""
    stored = sp.csc_matrix(codes)
    stored.sort_indices()
    if zero_codes is None:
        zero_codes = np.zeros(stored.shape[1], dtype=np.int64)
    if stored.nnz and stored.data.min() < 0:
        raise ValueError("codes must be non-negative integers")
    return stored, np.asarray(zero_codes, dtype=np.int64)


def _value_counts(stored: sp.csc_matrix, zero_codes: np.ndarray, owner: np.ndarray):
    """Samples per (feature, raw value), shape (n_features, width)."""
    n, m = stored.shape
    width = int(max(stored.data.max(initial=0), zero_codes.max(initial=0))) + 1
    keys = owner * width + stored.data
    counts = np.bincount(keys, minlength=m * width).reshape(m, width)
    counts[np.arange(m), zero_codes] += n - np.diff(stored.indptr)
    return counts


def _compact_codes(
    stored: sp.csc_matrix, zero_codes: np.ndarray
) -> tuple[sp.csc_matrix, np.ndarray]:
    """Relabel each column's occupied values 0..b-1, the most frequent as 0.

    Works on the stored entries only; the result keeps only the entries whose
    compact code is not 0. At most ``nnz`` entries survive: a column whose
    zero value is not its mode has at least as many stored entries as
    non-mode cells.
    """
    n, m = stored.shape
    owner = np.repeat(np.arange(m), np.diff(stored.indptr))
    counts = _value_counts(stored, zero_codes, owner)
    # Stable sort by descending count: the mode (lowest value on ties) becomes 0,
    # the other occupied values keep their relative order.
    order = np.argsort(-counts, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(counts.shape[1])[None, :], axis=1)
    n_bins = (counts > 0).sum(axis=1)
    dtype = np.min_scalar_type(max(int(n_bins.max(initial=1)) - 1, 1))
    data = rank[owner, stored.data].astype(dtype)
    rows, cols = stored.indices, owner
    zero_rank = rank[np.arange(m), zero_codes]
    filled = np.flatnonzero((zero_rank != 0) & (np.diff(stored.indptr) < n))
    if filled.size:  # zero is not the mode: implicit entries become explicit
        rows, cols, data = _fill_columns(stored, filled, zero_rank, rows, cols, data)
    keep = data != 0
    compact = sp.csc_matrix((data[keep], (rows[keep], cols[keep])), shape=(n, m))
    return compact, n_bins


def _fill_columns(stored, columns, zero_rank, rows, cols, data):
    """Add the implicit entries of ``columns`` with their compact zero code."""
    n = stored.shape[0]
    extra_rows, extra_cols = [], []
    for j in columns:
        present = np.zeros(n, dtype=bool)
        present[stored.indices[stored.indptr[j] : stored.indptr[j + 1]]] = True
        missing = np.flatnonzero(~present)
        extra_rows.append(missing)
        extra_cols.append(np.full(missing.size, j))
    extra_rows = np.concatenate(extra_rows)
    extra_cols = np.concatenate(extra_cols)
    extra_data = zero_rank[extra_cols].astype(data.dtype)
    return (
        np.concatenate([rows, extra_rows]),
        np.concatenate([cols, extra_cols]),
        np.concatenate([data, extra_data]),
    )


def _small_onehot(codes: sp.csc_matrix, n_codes: int) -> sp.csr_matrix:
    """One-hot CSR of the codes >= 1: column ``f * (n_codes - 1) + code - 1``."""
    owner = np.repeat(np.arange(codes.shape[1]), np.diff(codes.indptr))
    columns = owner * (n_codes - 1) + codes.data.astype(np.intp) - 1
    data = np.ones(codes.nnz)
    shape = (codes.shape[0], codes.shape[1] * (n_codes - 1))
    return sp.csr_matrix((data, (codes.indices, columns)), shape=shape)


def prepare_codes(
    codes: np.ndarray | sp.spmatrix,
    Y: np.ndarray,
    *,
    zero_codes: np.ndarray | None = None,
) -> DiscreteProblem:
    """Build the :class:`DiscreteProblem` of integer codes and 0/1 labels.

    Parameters
    ----------
    codes : ndarray or sparse matrix of shape (n_samples, n_features)
        Non-negative integer codes (e.g. from ``Discretizer``). A sparse
        matrix's implicit entries have the code ``zero_codes`` (default 0).
    Y : ndarray of shape (n_samples, n_labels)
        Binary labels.
    zero_codes : ndarray of shape (n_features,), optional
        Code of the implicit entries of each feature (see
        ``Discretizer.transform_stored``).

    Returns
    -------
    DiscreteProblem
    """
    compact, n_bins = _compact_codes(*_as_stored(codes, zero_codes))
    n_samples = compact.shape[0]
    n_codes = max(int(n_bins.max()), 2)
    small = _small_onehot(compact, n_codes)
    # Sparse first: a dense float64 copy of delicious' Y alone is 127 MB.
    labels = sp.csr_matrix(np.asarray(Y)).astype(np.float64)
    label_counts = np.rint(np.asarray(labels.sum(axis=0)).ravel()).astype(np.int64)
    bin_counts = fill_mode(code_products(small, n_codes, None, None), n_samples)
    feature_label = fill_mode(code_products(small, n_codes, None, labels), label_counts)
    return DiscreteProblem(
        codes=compact,
        n_bins=n_bins,
        small=small,
        labels=labels,
        table=xlog2x_table(n_samples),
        bin_counts=bin_counts,
        label_counts=label_counts,
        feature_label=feature_label,
    )
