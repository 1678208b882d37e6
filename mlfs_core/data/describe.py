"""Descriptive tables of a dataset: label frequencies, co-occurrences, oddities.

:func:`data_warnings` lists what makes a dataset behave oddly under the
methods (the app shows each as a warning): dense features under presence-based
scores, labels that are never (or always) positive, samples without any label,
a single sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

if TYPE_CHECKING:  # pandas is imported where used: `mlfs stats` needs none of it
    import pandas as pd

LABEL = "label"
_COUNT = "count"
_FRACTION = "fraction"


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
    import pandas as pd

    Y = _check_labels(Y, label_names)
    counts = np.asarray(Y.sum(axis=0)).ravel().astype(np.int64)
    n_samples = max(Y.shape[0], 1)  # no samples: fractions 0, not NaN
    return pd.DataFrame(
        {LABEL: list(label_names), _COUNT: counts, _FRACTION: counts / n_samples}
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
    import pandas as pd

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


DENSE_PRESENCE = 0.95
"""A feature is *dense* when it is non-zero in at least this share of samples."""
DENSE_SHARE = 0.5
"""Warn about presence-based scores when at least this share of features is dense."""
_NAMES_SHOWN = 5


def data_warnings(
    X: ArrayLike, Y: ArrayLike, label_names: Sequence[str] | None = None
) -> list[str]:
    """Plain-language warnings about a dataset's oddities, in a fixed order.

    Rules, each giving at most one message:

    - **a single sample** (n = 1): no split, fold or score means anything;
    - **dense data under presence-based scores**: CS and BNS count a feature as
      *present* when it is non-zero (METHODS.md section 2). When at least
      ``DENSE_SHARE`` (half) of the features are non-zero in at least
      ``DENSE_PRESENCE`` (95 %) of the samples, as on numeric data such as
      emotions or yeast, most 2x2 tables are nearly all "present" and the
      scores say little; the message suggests ``binarize = "median"`` (present
      = above the feature's median);
    - **labels never positive**: every score on them is a convention (CS 0,
      BNS its clipped value) and RaR never draws them;
    - **labels positive in every sample**: the same, mirrored;
    - **samples without any label** (all-zero label rows): they are negatives
      for every label.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        Binary labels.
    label_names : sequence of str, optional
        Names used in the messages (default ``label 0``, ``label 1`` ...).

    Returns
    -------
    list of str
        Empty when nothing is odd.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> Y = np.array([[1, 0], [0, 0], [1, 0]])
    >>> for message in data_warnings(X, Y, ["a", "b"]):
    ...     print(message.split(":")[0])
    Dense data
    1 label is never positive
    1 sample carries no label
    """
    n_labels = Y.shape[1] if sp.issparse(Y) else np.shape(Y)[1]
    names = [f"label {i}" for i in range(n_labels)]
    names = list(label_names) if label_names is not None else names
    Y = _check_labels(Y, names)
    n_samples = Y.shape[0]
    positives = np.asarray(Y.sum(axis=0)).ravel()
    out = []
    if n_samples == 1:
        out.append(
            "A single sample: no split, cross-validation fold or score means "
            "anything on one row; load more data."
        )
    dense = _dense_share(X, n_samples)
    if n_samples > 1 and dense >= DENSE_SHARE:
        out.append(
            f"Dense data: {dense:.0%} of the features are non-zero in at least "
            f"{DENSE_PRESENCE:.0%} of the samples, so presence-based CS and BNS "
            "(present = non-zero) see almost every feature everywhere and rank "
            'by noise; for CS/BNS pick binarize = "median" (present = above '
            "the feature's median)."
        )
    out += _label_messages(names, positives, n_samples)
    empty = int(np.count_nonzero(np.asarray(Y.sum(axis=1)).ravel() == 0))
    if empty and n_samples > 1:
        out.append(
            f"{_plural(empty, 'sample carries', 'samples carry')} no label: "
            f"{empty / n_samples:.0%} of the data count as negatives for every label."
        )
    return out


def dense_share(X: ArrayLike) -> float:
    """Share of features non-zero in at least ``DENSE_PRESENCE`` of the samples.

    Examples
    --------
    >>> import numpy as np
    >>> dense_share(np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0]]))
    0.5
    """
    return _dense_share(X, X.shape[0])


def _dense_share(X: ArrayLike, n_samples: int) -> float:
    """Share of features non-zero in at least DENSE_PRESENCE of the samples."""
    if sp.issparse(X):
        nonzero = np.asarray((sp.csc_matrix(X) != 0).sum(axis=0)).ravel()
    else:
        nonzero = np.count_nonzero(np.asarray(X), axis=0)
    if nonzero.size == 0 or n_samples == 0:
        return 0.0
    return float(np.mean(nonzero >= DENSE_PRESENCE * n_samples))


def _label_messages(names: list[str], positives: np.ndarray, n: int) -> list[str]:
    out = []
    never = [names[i] for i in np.flatnonzero(positives == 0)]
    if never:
        out.append(
            f"{_plural(len(never), 'label is', 'labels are')} never positive: "
            f"{_some(never)}. Their scores are conventions (CS 0, BNS the clipped "
            "value), RaR never draws them and their metrics are undefined."
        )
    always = [names[i] for i in np.flatnonzero(positives == n)] if n > 1 else []
    if always:
        out.append(
            f"{_plural(len(always), 'label is', 'labels are')} positive in every "
            f"sample: {_some(always)}. No feature can separate them."
        )
    return out


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _some(names: list[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    return shown + (
        f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
    )
