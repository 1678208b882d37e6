"""Train/test splits for multi-label data: stratified k-fold, hold-out, own split.

Folds use multi-label iterative stratification (Sechidis, Tsoumakas and
Vlahavas 2011) from the ``iterative-stratification`` package, seeded through
:func:`mlfs_core._random.derive_seed`, so the same seed gives the same folds
for every method (paired comparisons).

Fold-count rules (checked by :func:`check_n_folds` before any work starts):

- ``n_folds < 2`` or ``n_folds > n_samples`` is an error (:class:`ConfigError`).
- A label with fewer positive samples than folds (including none) cannot
  have a positive in every test fold; this is legal (METHODS.md section 1)
  but weakens per-fold estimates, so it gives a :class:`SparseLabelWarning`,
  or a :class:`ConfigError` when ``on_sparse_label="error"``.
"""

from __future__ import annotations

import warnings

import numpy as np
from iterstrat.ml_stratifiers import (
    MultilabelStratifiedKFold,
    MultilabelStratifiedShuffleSplit,
)

from .._random import check_rng, derive_seed
from .._validation import check_int
from ..errors import ConfigError

Split = tuple[np.ndarray, np.ndarray]
"""A pair ``(train_idx, test_idx)`` of sorted int64 index arrays."""


class SparseLabelWarning(UserWarning):
    """Some label has fewer positive samples than there are folds."""


def stratified_kfold(Y, *, n_folds: int = 10, random_state=None) -> list[Split]:
    """Split samples into ``n_folds`` folds with multi-label iterative stratification.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Binary label matrix.
    n_folds : int, default=10
        Number of folds, at least 2 and at most ``n_samples``.
    random_state : int, numpy.random.Generator or None
        Seed of the fold assignment (ties in the stratification are broken at
        random).

    Returns
    -------
    list of (train_idx, test_idx)
        ``n_folds`` pairs; the test parts are disjoint and cover every sample.

    References
    ----------
    Sechidis, Tsoumakas and Vlahavas (2011), "On the stratification of
    multi-label data", ECML PKDD.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]] * 3)
    >>> folds = stratified_kfold(Y, n_folds=3, random_state=0)
    >>> sorted(len(test) for _, test in folds)
    [4, 4, 4]
    """
    Y = np.asarray(Y)
    _check_fold_bounds(n_folds, Y.shape[0])
    seed = derive_seed(check_rng(random_state))
    splitter = MultilabelStratifiedKFold(
        n_splits=n_folds, shuffle=True, random_state=seed
    )
    dummy = np.zeros((Y.shape[0], 1))
    return [_sorted(tr, te) for tr, te in splitter.split(dummy, Y)]


def holdout_split(Y, *, test_size: float = 0.4, random_state=None) -> Split:
    """Return one stratified train/test split (default 60/40).

    The split :func:`repeated_holdout` draws with ``n_splits=1`` (the same
    checks, seed and bits).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Binary label matrix.
    test_size : float, default=0.4
        Fraction of samples in the test part, in (0, 1).
    random_state : int, numpy.random.Generator or None
        Seed of the split.

    Returns
    -------
    (train_idx, test_idx)
    """
    return repeated_holdout(
        Y, n_splits=1, test_size=test_size, random_state=random_state
    )[0]


def repeated_holdout(
    Y, *, n_splits: int = 5, test_size: float = 0.3, random_state=None
) -> list[Split]:
    """Return ``n_splits`` random stratified train/test splits (default 5 x 70/30).

    The field's usual protocol ("5 random 70/30 splits"): each split is drawn
    independently (test parts may overlap between splits) by iterative
    stratification, all from one seed, so the same seed gives the same
    splits for every method (paired comparisons).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Binary label matrix.
    n_splits : int, default=5
        Number of splits, at least 1.
    test_size : float, default=0.3
        Fraction of samples in each test part, in (0, 1).
    random_state : int, numpy.random.Generator or None
        Seed of the splits.

    Returns
    -------
    list of (train_idx, test_idx)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[0, 1], [1, 0]] * 10)
    >>> splits = repeated_holdout(Y, n_splits=3, random_state=0)
    >>> [len(test) for _, test in splits]
    [6, 6, 6]
    """
    Y = np.asarray(Y)
    n_splits = check_int(n_splits, "n_splits", low=1)
    if not 0.0 < test_size < 1.0:
        raise ConfigError(f"test_size must lie in (0, 1), got {test_size}")
    n_test = int(np.floor(test_size * Y.shape[0] + 0.5))
    if n_test < 1 or n_test >= Y.shape[0]:
        raise ConfigError(
            f"test_size={test_size} leaves an empty part for {Y.shape[0]} samples"
        )
    seed = derive_seed(check_rng(random_state))
    splitter = MultilabelStratifiedShuffleSplit(
        n_splits=n_splits, test_size=test_size, random_state=seed
    )
    return [_sorted(tr, te) for tr, te in splitter.split(np.zeros((len(Y), 1)), Y)]


def own_split(split) -> Split:
    """Turn a per-sample split marker (0 = train, 1 = test) into index arrays.

    Raises
    ------
    ConfigError
        If either part is empty.
    """
    split = np.asarray(split)
    train, test = np.flatnonzero(split == 0), np.flatnonzero(split == 1)
    if train.size == 0 or test.size == 0:
        raise ConfigError("the dataset's own split has an empty train or test part")
    return train, test


def check_n_folds(
    Y, n_folds: int, *, dataset: str = "dataset", on_sparse_label: str = "warn"
) -> None:
    """Check that ``n_folds`` folds make sense for the labels ``Y``.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Binary label matrix.
    n_folds : int
        Number of folds.
    dataset : str
        Name used in messages.
    on_sparse_label : {"warn", "error", "ignore"}
        What to do when a label has fewer positives than folds.

    Raises
    ------
    ConfigError
        ``n_folds`` below 2 or above the number of samples, or a sparse label
        with ``on_sparse_label="error"``.
    """
    Y = np.asarray(Y)
    _check_fold_bounds(n_folds, Y.shape[0], dataset=dataset)
    positives = Y.sum(axis=0)
    sparse = np.flatnonzero(positives < n_folds)
    if sparse.size == 0 or on_sparse_label == "ignore":
        return
    message = (
        f"{dataset}: {sparse.size} of {Y.shape[1]} labels have fewer positive samples "
        f"than n_folds={n_folds} (smallest count {int(positives.min())}); some test "
        "folds will lack their positives"
    )
    if on_sparse_label == "error":
        raise ConfigError(message)
    from .._code import outside_engine  # located at the user's line, not ours

    warnings.warn(message, SparseLabelWarning, stacklevel=outside_engine())


def _check_fold_bounds(n_folds: int, n_samples: int, *, dataset: str = "Y") -> None:
    check_int(n_folds, "n_folds")
    if n_folds < 2:
        raise ConfigError(f"n_folds must be at least 2, got {n_folds}")
    if n_folds > n_samples:
        raise ConfigError(
            f"n_folds={n_folds} is larger than the number of samples of {dataset} "
            f"({n_samples})"
        )


def _sorted(train, test) -> Split:
    return np.sort(np.asarray(train, dtype=np.int64)), np.sort(
        np.asarray(test, dtype=np.int64)
    )
