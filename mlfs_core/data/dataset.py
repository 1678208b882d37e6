"""The :class:`Dataset` container every reader returns."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from ..errors import DatasetError


@dataclass(eq=False)
class Dataset:
    """A multi-label dataset: sparse features, dense 0/1 labels, names and split.

    The dataset owns its arrays: ``X`` and ``Y`` are copies of what was given
    (the caller's matrices are never changed) and are read-only, so one
    loaded dataset can be shared, e.g. by every session of the app. Two
    datasets compare equal only when they are the same object; compare
    :meth:`content_hash` for equal content.

    Parameters
    ----------
    X : sparse matrix or array-like of shape (n_samples, n_features)
        Stored as canonical CSR float64 (sorted indices, no explicit zeros).
    Y : array-like of shape (n_samples, n_labels)
        Stored as a dense ``np.int8`` 0/1 array.
    feature_names, label_names : list of str
        One name per column of ``X`` and of ``Y``.
    name : str
        Short name (e.g. ``"emotions"``).
    split : ndarray of shape (n_samples,) or None
        The dataset's own train/test split when its files come split: 0 = train,
        1 = test (int8); ``None`` otherwise.
    source : str
        Where it was read from.

    Examples
    --------
    >>> ds = Dataset(X=[[1, 0], [0, 2]], Y=[[1, 0], [1, 1]], feature_names=["a", "b"],
    ...              label_names=["p", "q"], name="toy")
    >>> ds.stats()
    {'N': 2, 'M': 2, 'q': 2, 'LC': 1.5, 'LD': 0.75, 'DC': 2}
    >>> ds.subset([1]).Y.tolist()
    [[1, 1]]
    """

    X: sp.csr_matrix
    Y: np.ndarray
    feature_names: list[str]
    label_names: list[str]
    name: str = "dataset"
    split: np.ndarray | None = None
    source: str = ""
    _hash: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.X = _freeze_csr(_canonical_csr(self.X))
        self.Y = _binary_int8(self.Y)
        self.Y.flags.writeable = False
        self.feature_names = [str(n) for n in self.feature_names]
        self.label_names = [str(n) for n in self.label_names]
        self._check_names()
        n_samples, n_features = self.X.shape
        if self.Y.shape[0] != n_samples:
            raise DatasetError(f"X has {n_samples} rows but Y has {self.Y.shape[0]}")
        if len(self.feature_names) != n_features:
            raise DatasetError(
                f"{len(self.feature_names)} feature names for {n_features} features"
            )
        if len(self.label_names) != self.Y.shape[1]:
            raise DatasetError(
                f"{len(self.label_names)} label names for {self.Y.shape[1]} labels"
            )
        if self.split is not None:
            self.split = np.asarray(self.split, dtype=np.int8)
            if (
                self.split.shape != (n_samples,)
                or not np.isin(self.split, (0, 1)).all()
            ):
                raise DatasetError(
                    "split must hold one 0 (train) or 1 (test) per sample"
                )

    def _check_names(self) -> None:
        """Every name within the name budget (:mod:`mlfs_core.data.limits`)."""
        from .limits import check_names, current_limits

        limits, where = current_limits(), self.source or "dataset"
        check_names([str(self.name)], "dataset", where, limits)
        check_names(self.feature_names, "feature", where, limits)
        check_names(self.label_names, "label", where, limits)

    @property
    def n_samples(self) -> int:
        """Number of samples N."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of features M."""
        return int(self.X.shape[1])

    @property
    def n_labels(self) -> int:
        """Number of labels q."""
        return int(self.Y.shape[1])

    def stats(self) -> dict:
        """Return N, M, q, LC, LD, DC as in Table 3 of Spolaôr and Tsoumakas (2013).

        LC (label cardinality) is the mean number of labels per sample, LD (label
        density) is LC / q, DC (distinct combinations) the number of distinct label
        sets (the empty set counts).
        """
        n, q = self.Y.shape
        cardinality = float(self.Y.sum(dtype=np.int64)) / n if n else 0.0
        distinct = len(np.unique(self.Y, axis=0)) if n else 0
        return {
            "N": n,
            "M": self.n_features,
            "q": q,
            "LC": cardinality,
            "LD": cardinality / q if q else 0.0,
            "DC": distinct,
        }

    def content_hash(self) -> str:
        """Return a SHA-256 hex digest of X, Y and the names (a stable cache key).

        The digest depends only on the content (not on ``name``, ``source`` or
        ``split``) and is the same in every process and platform.
        """
        if self._hash is None:
            digest = hashlib.sha256()
            digest.update(np.asarray(self.X.shape, dtype="<i8").tobytes())
            digest.update(self.X.indptr.astype("<i8").tobytes())
            digest.update(self.X.indices.astype("<i8").tobytes())
            digest.update(self.X.data.astype("<f8").tobytes())
            digest.update(np.ascontiguousarray(self.Y).tobytes())
            names = json.dumps([self.feature_names, self.label_names])
            digest.update(names.encode("utf-8"))
            self._hash = digest.hexdigest()
        return self._hash

    def train_test(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Return (train indices, test indices) of the dataset's own split, or None."""
        if self.split is None:
            return None
        return np.flatnonzero(self.split == 0), np.flatnonzero(self.split == 1)

    def subset(self, rows: ArrayLike) -> Dataset:
        """Return a new Dataset of the given rows (indices or boolean mask)."""
        rows = np.asarray(rows)
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        split = None if self.split is None else self.split[rows]
        return Dataset(
            self.X[rows],
            self.Y[rows],
            list(self.feature_names),
            list(self.label_names),
            self.name,
            split,
            self.source,
        )


def _canonical_csr(X) -> sp.csr_matrix:
    """A canonical CSR float64 copy of ``X`` (sorted indices, no explicit zeros)."""
    try:
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise DatasetError(f"X must be a numeric 2-D matrix: {exc}") from None
    X.sum_duplicates()
    X.eliminate_zeros()
    X.sort_indices()
    if not np.isfinite(X.data).all():
        raise DatasetError("X contains NaN or infinite values")
    return X


def _freeze_csr(X: sp.csr_matrix) -> sp.csr_matrix:
    for array in (X.data, X.indices, X.indptr):
        array.flags.writeable = False
    return X


def _binary_int8(Y) -> np.ndarray:
    Y = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
    if Y.ndim != 2:
        raise DatasetError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if not np.isin(Y, (0, 1)).all():
        raise DatasetError("Y must contain only 0 and 1")
    return np.array(Y, dtype=np.int8, order="C", copy=True)
