"""Descriptive tables of a label matrix: label frequencies and co-occurrences."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp
from numpy.typing import ArrayLike

LABEL = "label"
COUNT = "count"
FRACTION = "fraction"


def label_frequency(Y: ArrayLike, label_names: Sequence[str]) -> pd.DataFrame:
    """Positive samples per label.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        Binary label indicator matrix.
    label_names : sequence of str of length n_labels
        Name of each label column.

    Returns
    -------
    DataFrame
        One row per label, in column order, with columns ``label``,
        ``count`` (positive samples, int) and ``fraction`` (``count /
        n_samples``; 0 when there are no samples).

    Raises
    ------
    ValueError
        If ``Y`` is not 2-D or ``label_names`` does not have one name per column.

    See Also
    --------
    label_cooccurrence : Samples carrying each pair of labels.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 0]])
    >>> label_frequency(Y, ["a", "b", "c"])
      label  count  fraction
    0     a      3      0.75
    1     b      2      0.50
    2     c      0      0.00
    """
    Y = _check_labels(Y, label_names)
    counts = np.asarray(Y.sum(axis=0)).ravel().astype(np.int64)
    n_samples = max(Y.shape[0], 1)  # no samples: fractions 0, not NaN
    return pd.DataFrame(
        {LABEL: list(label_names), COUNT: counts, FRACTION: counts / n_samples}
    )


def label_cooccurrence(Y: ArrayLike, label_names: Sequence[str]) -> pd.DataFrame:
    """Samples carrying both labels of every pair of labels.

    Parameters
    ----------
    Y, label_names
        As in :func:`label_frequency`.

    Returns
    -------
    DataFrame of shape (n_labels, n_labels)
        Square and symmetric, index and columns are ``label_names``; cell
        ``(a, b)`` counts the samples with both ``a`` and ``b``, so the
        diagonal holds each label's count (as in :func:`label_frequency`).

    Raises
    ------
    ValueError
        As in :func:`label_frequency`.

    See Also
    --------
    mlfs_core.plots.cooccurrence_heatmap : Draws this matrix.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 0]])
    >>> label_cooccurrence(Y, ["a", "b", "c"])
       a  b  c
    a  3  1  0
    b  1  2  0
    c  0  0  0
    """
    Y = _check_labels(Y, label_names)
    if sp.issparse(Y):
        both = (Y.T @ Y).toarray()
    else:
        both = Y.T @ Y
    names = list(label_names)
    return pd.DataFrame(both.astype(np.int64), index=names, columns=names)


def _check_labels(Y: ArrayLike, label_names: Sequence[str]):
    """``Y`` as an int64 ndarray or CSR matrix, after checking its shape."""
    if sp.issparse(Y):
        Y = sp.csr_matrix(Y, dtype=np.int64)
    else:
        Y = np.asarray(Y, dtype=np.int64)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got {Y.ndim}-D")
    if len(label_names) != Y.shape[1]:
        raise ValueError(
            f"label_names has {len(label_names)} names for {Y.shape[1]} label columns"
        )
    return Y
