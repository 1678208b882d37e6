"""ML-kNN (Zhang and Zhou 2007) with exact, deterministic neighbours."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin

from ..._validation import check_XY
from ...errors import ConfigError
from .neighbors import neighbour_label_counts

SCALINGS = ("none", "minmax")


class MLkNN(ClassifierMixin, BaseEstimator):
    """Multi-label k-nearest neighbours with Bayesian label posteriors.

    For each label l, the prior P(H1) = (s + #positives) / (2s + n) and the
    likelihoods P(E_j | H1), P(E_j | H0) of having exactly j of the k nearest
    training neighbours carry l are estimated on the training set, where
    a training sample is never its own neighbour. A test sample whose k
    neighbours hold l ``c`` times gets the posterior
    P(H1) P(E_c | H1) / (P(H1) P(E_c | H1) + P(H0) P(E_c | H0)) as its score
    and is predicted positive when that exceeds 1/2.

    Parameters
    ----------
    k : int, default=10
        Number of neighbours; clipped to ``n_train - 1`` when the training
        set is smaller.
    s : float, default=1.0
        Laplace smoothing.
    scaling : {"none", "minmax"}, default="none"
        ``"none"``: distances on the features as given (protocol B feeds
        discretized integer codes, whose distances are exact). ``"minmax"``:
        each feature is scaled to [0, 1] by its training range before the
        distances, as Mulan's ML-kNN does through Weka's Euclidean distance
        (a constant feature becomes 0; test values outside the range are not
        clipped, as in Weka).

    Notes
    -----
    Neighbours are chosen by Euclidean distance ascending, equal distances by
    the lower training index, and a training sample is never its own
    neighbour; distances are computed exactly where the data allow, so the
    result does not depend on BLAS threads, ``n_jobs`` or the machine (see
    :mod:`mlfs_core.evaluation.classifiers.neighbors`).

    Attributes
    ----------
    prior_ : ndarray of shape (n_labels,)
        P(H1) per label.
    cond_pos_, cond_neg_ : ndarray of shape (n_labels, k + 1)
        P(E_j | H1) and P(E_j | H0) for j = 0..k.

    References
    ----------
    Zhang and Zhou (2007), "ML-KNN: A lazy learning approach to multi-label
    learning", Pattern Recognition 40(7).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]])
    >>> Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> MLkNN(k=2).fit(X, Y).predict(np.array([[0.05], [5.05]])).tolist()
    [[1, 0], [0, 1]]
    """

    include_self = False
    """Whether a training sample is one of its own k neighbours when the
    likelihoods are estimated (False: Zhang & Zhou's leave-one-out rule). A
    subclass that says True (scikit-multilearn's behaviour) is honoured by the
    runner's budget-batched path too."""

    def __init__(self, k: int = 10, s: float = 1.0, scaling: str = "none"):
        self.k = k
        self.s = s
        self.scaling = scaling

    def fit(self, X, Y) -> MLkNN:
        """Estimate priors and neighbour-count likelihoods on the training set."""
        if self.scaling not in SCALINGS:
            raise ConfigError(
                f"ML-kNN scaling must be one of {SCALINGS}, got {self.scaling!r}"
            )
        X, Y = check_XY(X, Y)
        X = _dense_if_narrow(X)
        self._fit_scaling(X)
        self.X_ = self._scale(X)
        n = X.shape[0]
        self.k_ = int(max(0, min(self.k, n - 1)))
        self.Y_ = Y.astype(np.int64)
        self.n_labels_ = Y.shape[1]
        self.prior_, self.cond_pos_, self.cond_neg_ = mlknn_tables(
            self._training_counts(), self.Y_, self.k_, self.s
        )
        return self

    def _fit_scaling(self, X) -> None:
        if self.scaling == "none":
            self.min_ = self.scale_ = None
            return
        dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        self.min_ = dense.min(axis=0) if dense.shape[0] else np.zeros(dense.shape[1])
        span = (dense.max(axis=0) if dense.shape[0] else self.min_) - self.min_
        self.scale_ = np.divide(1.0, span, out=np.zeros_like(span), where=span > 0)

    def _scale(self, X):
        if self.min_ is None:
            return X
        dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        return (dense - self.min_) * self.scale_

    def _training_counts(self) -> np.ndarray:
        if self.k_ == 0:
            return np.zeros_like(self.Y_)
        return neighbour_label_counts(
            self.X_, self.X_, self.Y_, self.k_, exclude_self=not self.include_self
        )

    def _test_counts(self, X) -> np.ndarray:
        if self.k_ == 0:
            return np.zeros((X.shape[0], self.n_labels_), dtype=np.int64)
        k = min(self.k_, self.X_.shape[0])
        return neighbour_label_counts(self._scale(X), self.X_, self.Y_, k)

    def predict_proba(self, X) -> np.ndarray:
        """Posterior P(label relevant), shape (n_samples, n_labels)."""
        X, _ = check_XY(X, np.zeros((_n_rows(X), 1)))
        X = _dense_if_narrow(X)
        return mlknn_posteriors(
            self.prior_, self.cond_pos_, self.cond_neg_, self._test_counts(X)
        )

    def decision_function(self, X) -> np.ndarray:
        """Label scores used by the ranking metrics (the posteriors)."""
        return self.predict_proba(X)

    def predict(self, X) -> np.ndarray:
        """0/1 predictions: :meth:`decide` on the test neighbour counts."""
        X, _ = check_XY(X, np.zeros((_n_rows(X), 1)))
        counts = self._test_counts(_dense_if_narrow(X))
        posterior = mlknn_posteriors(
            self.prior_, self.cond_pos_, self.cond_neg_, counts
        )
        return self.decide(
            self.prior_, self.cond_pos_, self.cond_neg_, counts, posterior
        )

    def decide(self, prior, cond_pos, cond_neg, counts, posterior) -> np.ndarray:
        """The prediction rule: a label is set when its posterior is above 1/2.

        Parameters
        ----------
        prior : ndarray of shape (n_labels,)
        cond_pos, cond_neg : ndarray of shape (n_labels, k + 1)
            The likelihood tables.
        counts : ndarray of shape (n_samples, n_labels)
            Test samples' neighbour counts per label.
        posterior : ndarray of shape (n_samples, n_labels)

        Returns
        -------
        ndarray of int8
            0/1 predictions. A subclass may decide otherwise (the runner's
            budget-batched path calls this method too).
        """
        return (posterior > 0.5).astype(np.int8)


def mlknn_tables(
    counts: np.ndarray, Y: np.ndarray, k: int, s: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ML-kNN's prior and likelihood tables from leave-one-out neighbour counts.

    Parameters
    ----------
    counts : ndarray of shape (n_train, n_labels), int
        Per training sample and label, the positives among its ``k`` nearest
        other training samples.
    Y : ndarray of shape (n_train, n_labels), int64 0/1
    k : int
        Number of neighbours the counts were taken over.
    s : float
        Laplace smoothing.

    Returns
    -------
    prior, cond_pos, cond_neg
        P(H1) per label, and P(E_j | H1), P(E_j | H0) of shape (n_labels, k + 1).
    """
    n = Y.shape[0]
    prior = (s + Y.sum(axis=0)) / (2 * s + n)
    return prior, _likelihoods(counts, Y == 1, k, s), _likelihoods(counts, Y == 0, k, s)


def _likelihoods(counts: np.ndarray, member: np.ndarray, k: int, s: float):
    """P(E_j | H) per label: smoothed histogram of ``counts`` over ``member``."""
    k1 = k + 1
    q = member.shape[1]
    flat = (np.arange(q)[None, :] * k1 + counts)[member]
    hist = np.bincount(flat, minlength=q * k1).reshape(q, k1).astype(float)
    return (s + hist) / (s * k1 + hist.sum(axis=1, keepdims=True))


def mlknn_posteriors(
    prior: np.ndarray, cond_pos: np.ndarray, cond_neg: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """Posterior P(label relevant) of query samples with neighbour ``counts``."""
    labels = np.arange(counts.shape[1])[None, :]
    pos = prior * cond_pos[labels, counts]
    neg = (1.0 - prior) * cond_neg[labels, counts]
    return pos / (pos + neg)


def _n_rows(X) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _dense_if_narrow(X, max_columns: int = 512):
    # Brute-force neighbour search is much faster on dense arrays; protocol B
    # feeds at most a few dozen selected columns, so densifying is cheap.
    return X.toarray() if X.shape[1] <= max_columns else X
