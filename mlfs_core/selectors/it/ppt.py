"""Label-powerset variable, PPT pruning and feature/label-set information.

Shared by PPT-MI and ATR (pruned label powerset, Read 2008; Doquire and
Verleysen 2011) and by IGMF (unpruned label powerset, Li et al. 2014).

Cost: the label powerset is O(N q / 8) (packed rows) plus a sort of N rows;
I(f; C) is one sparse product of the one-hot codes with the C class
indicators, O(nnz), plus O(M b + stored (feature, class) counts).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .data import DiscreteProblem, fill_mode, small_counts


def label_powerset(Y: np.ndarray) -> np.ndarray:
    """Class index of every sample's label set (the empty set is a class).

    Parameters
    ----------
    Y : ndarray of shape (n_samples, n_labels)
        Binary labels.

    Returns
    -------
    ndarray of shape (n_samples,)
        Codes ``0 .. n_classes - 1`` in the sorted order of the label sets.

    Examples
    --------
    >>> import numpy as np
    >>> label_powerset(np.array([[1, 0], [0, 0], [1, 0]])).tolist()
    [1, 0, 1]
    """
    packed = np.packbits(np.asarray(Y, dtype=np.uint8), axis=1)
    _, inverse = np.unique(packed, axis=0, return_inverse=True)
    return inverse.ravel()


def _ppt_keep(classes: np.ndarray, tau: int) -> np.ndarray:
    """Mask of the samples whose label set occurs at least ``tau`` times.

    Examples
    --------
    >>> import numpy as np
    >>> _ppt_keep(np.array([0, 0, 1, 0, 2, 2]), 2).tolist()
    [True, True, False, True, True, True]
    """
    counts = np.bincount(classes)
    return counts[classes] >= tau


def _class_onehot(classes: np.ndarray) -> sp.csr_matrix:
    n = classes.size
    data = np.ones(n)
    return sp.csr_matrix((data, (np.arange(n), classes)), shape=(n, classes.max() + 1))


def _joint_tsum(problem: DiscreteProblem, rows: np.ndarray, classes: np.ndarray):
    """T-sums of (feature, class) over ``rows`` for every feature, shape (n_features,).

    Code-0 cells are class totals minus small-code counts; only their cells
    touched by a small code differ from ``T[class total]``, so the correction
    is summed over the stored counts (the class count can be large).
    """
    m, b1 = problem.n_features, problem.n_codes - 1
    product = problem.small[rows].T @ _class_onehot(classes)
    product = sp.coo_matrix(product)
    counts = np.rint(product.data).astype(np.int64)
    owner = product.row // b1
    small_part = np.bincount(owner, weights=problem.tsum(counts), minlength=m)
    per_class = sp.csr_matrix(
        (counts, (owner, product.col)), shape=(m, product.shape[1])
    )
    per_class = sp.coo_matrix(per_class)  # summed over each feature's small codes
    class_counts = np.bincount(classes)
    totals = class_counts[per_class.col]
    delta = problem.tsum(totals - per_class.data) - problem.tsum(totals)
    mode_part = problem.tsum(class_counts).sum()
    mode_part = mode_part + np.bincount(per_class.row, weights=delta, minlength=m)
    return small_part + mode_part


def _feature_class_information(
    problem: DiscreteProblem, rows: np.ndarray, classes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """I(f; C), H(f) and H(C) over the samples ``rows`` for every feature f.

    Parameters
    ----------
    problem : DiscreteProblem
    rows : ndarray of int
        Samples to count (all, or those kept by PPT).
    classes : ndarray of shape (len(rows),)
        Class of each of those samples (label-powerset codes, 0-based, dense).

    Returns
    -------
    mi : ndarray of shape (n_features,)
    h_feature : ndarray of shape (n_features,)
    h_class : float
        All zero when ``rows`` is empty.
    """
    m = problem.n_features
    n_rows = rows.size
    if n_rows == 0:
        return np.zeros(m), np.zeros(m), 0.0
    _, classes = np.unique(classes, return_inverse=True)
    code_counts = fill_mode(small_counts(problem, rows), n_rows)
    h_feature = problem.entropy(problem.tsum(code_counts).sum(axis=1), n_rows)
    h_class = float(problem.entropy(problem.tsum(np.bincount(classes)).sum(), n_rows))
    h_joint = problem.entropy(_joint_tsum(problem, rows, classes), n_rows)
    return h_feature + h_class - h_joint, h_feature, h_class


def ppt_information(
    problem: DiscreteProblem, classes: np.ndarray, tau: int
) -> np.ndarray:
    """I(f_P; Y_P) of every feature on the PPT-kept samples (0 if none is kept).

    Parameters
    ----------
    problem : DiscreteProblem
    classes : ndarray of shape (n_samples,)
        Label-powerset class of every training sample.
    tau : int
        Minimum number of occurrences of a label set for its samples to stay.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    rows = np.flatnonzero(_ppt_keep(classes, tau))
    mi, _, _ = _feature_class_information(problem, rows, classes[rows])
    return mi


def igmf_gain(problem: DiscreteProblem, classes: np.ndarray) -> np.ndarray:
    """Normalized information gain ``2 I(f; L) / (H(f) + H(L))``, 0 if both are 0."""
    rows = np.arange(problem.n_samples)
    mi, h_feature, h_class = _feature_class_information(problem, rows, classes)
    denom = h_feature + h_class
    safe = np.where(denom > 0, denom, 1.0)
    return np.where(denom > 0, 2.0 * mi / safe, 0.0)
