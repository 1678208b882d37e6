"""The metrics' definitions: one function per metric and per metric variant.

Every function takes ``(Y_true, Y_pred, scores)``: dense 0/1 arrays of shape
(n_samples, n_labels) and a real-valued score array of the same shape (higher
= more likely relevant). Threshold metrics ignore ``scores``; ranking metrics
ignore ``Y_pred``. :mod:`.registry` names them (:data:`~.registry.METRICS`,
:data:`~.registry.VARIANT_METRICS`); :mod:`.counts` computes the same values
from the label counts, bit-identically.

Conventions on degenerate data (all values stay finite):

- F1 and Jaccard use ``zero_division=0``: a label (macro) or sample
  (examples) with neither a true nor a predicted positive scores 0.
- Ranking loss, coverage error and average precision follow scikit-learn's
  definitions; ranking loss and average precision are vectorized
  re-implementations (:mod:`.ranking`), tested equal to scikit-learn's,
  because its per-sample loops dominated protocol B.
- **Coverage error is scikit-learn's**, which equals Zhang & Zhou's (and
  Mulan's) *coverage plus 1*: it counts the depth of the ranking including
  the last relevant label (a perfect single-label prediction scores 1, not
  0). Subtract 1 to compare with Mulan or published ML-kNN tables.
- Samples with no true label (e.g. 294 in birds), per ranking metric:
  coverage error counts them 0 (the deepest relevant label of an empty set);
  ranking loss counts them 0 (no relevant/irrelevant pair to mis-order;
  also a sample whose labels are all relevant); average precision counts
  them 1 (scikit-learn's convention, also for all-relevant samples);
  one-error counts them correct (0), consistent with the ranking metrics,
  which treat them as perfectly ranked. No sample is skipped, so every
  metric averages over the same n samples. Ties in scores resolve to the
  lowest label index (one-error).

The variants, outside the default list every config, the CLI and the app
offer (a plug-in's evaluation conventions use them):

- ``weighted_f1``, ``weighted_jaccard``: per-label F1 / Jaccard averaged with
  weights proportional to each label's positives (scikit-learn's
  ``average="weighted"``, ``zero_division=0``); ``scores`` ignored.
- ``ranking_loss_on_predictions``, ``coverage_error_on_predictions``:
  scikit-learn's ranking loss and coverage error given the 0/1 predictions as
  the scores (ties count against); they need at least two labels.
"""

from __future__ import annotations

import numpy as np

from ...errors import ConfigError
from .ranking import average_precision, ranking_loss


def _skm():
    # scikit-learn's metrics module (and scipy.stats behind it) costs about a
    # second to import; the app's first page only needs the METRICS table.
    from sklearn import metrics

    return metrics


def one_error(Y_true, scores) -> float:
    """Fraction of samples whose top-scored label is not relevant.

    Parameters
    ----------
    Y_true : array-like of shape (n_samples, n_labels)
        Binary true labels.
    scores : array-like of shape (n_samples, n_labels)
        Label scores, higher = more likely relevant.

    Returns
    -------
    float
        In [0, 1]; lower is better. Samples with no relevant label count as
        correct; ties between top scores go to the lowest label index.

    Examples
    --------
    >>> one_error([[1, 0], [0, 1], [0, 0]], [[0.9, 0.1], [0.8, 0.2], [0.5, 0.4]])
    0.3333333333333333
    """
    Y_true = np.asarray(Y_true)
    scores = np.asarray(scores, dtype=float)
    if Y_true.shape[0] == 0:
        return 0.0
    top = np.argmax(scores, axis=1)  # first maximum = lowest label index
    hit = Y_true[np.arange(Y_true.shape[0]), top] == 1
    empty = Y_true.sum(axis=1) == 0
    return float(np.mean(~hit & ~empty))


def _label_f1(Y, P, average: str) -> float:
    if Y.shape[1] == 1:
        # One column is "binary" to scikit-learn, whose micro/macro would then
        # average over the two classes; the single label's F1 is both.
        f1 = _skm().f1_score(Y[:, 0], P[:, 0], average="binary", zero_division=0)
        return float(f1)
    return float(_skm().f1_score(Y, P, average=average, zero_division=0))


def _micro_f1(Y, P, S) -> float:
    """F1 of the pooled label decisions (``zero_division=0``)."""
    return _label_f1(Y, P, "micro")


def _macro_f1(Y, P, S) -> float:
    """Mean of the per-label F1 (``zero_division=0``)."""
    return _label_f1(Y, P, "macro")


def _pad_single_label(Y, P, S):
    # scikit-learn refuses sample-wise and ranking metrics on one column; a
    # padded label that is never true, never predicted and always scored last
    # leaves every one of those metrics unchanged.
    if Y.shape[1] != 1:
        return Y, P, S
    low = (S.min() if S.size else 0.0) - 1.0
    zeros = np.zeros_like(Y)
    pad_S = np.full_like(S, low)
    return np.hstack([Y, zeros]), np.hstack([P, zeros]), np.hstack([S, pad_S])


def _example_f1(Y, P, S) -> float:
    """Mean of the per-sample F1 (``zero_division=0``)."""
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().f1_score(Y, P, average="samples", zero_division=0))


def _hamming(Y, P, S) -> float:
    """Fraction of wrong label bits."""
    return float(_skm().hamming_loss(Y, P))


def _ranking_loss_of(Y, P, S) -> float:
    """Ranking loss of the scores (:func:`.ranking.ranking_loss`)."""
    return ranking_loss(Y, S)


def _coverage(Y, P, S) -> float:
    """scikit-learn's coverage error of the scores (Mulan's coverage + 1)."""
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().coverage_error(Y, S))


def _one_error_of(Y, P, S) -> float:
    """One-error of the scores (:func:`one_error`)."""
    return one_error(Y, S)


def _average_precision_of(Y, P, S) -> float:
    """Label ranking average precision (:func:`.ranking.average_precision`)."""
    return average_precision(Y, S)


def _jaccard(Y, P, S) -> float:
    """Mean per-sample intersection over union (``zero_division=0``)."""
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().jaccard_score(Y, P, average="samples", zero_division=0))


def _subset_accuracy(Y, P, S) -> float:
    """Fraction of exactly right label sets."""
    return float(_skm().accuracy_score(Y, P))


def _need_two_labels(Y: np.ndarray, what: str) -> None:
    if Y.ndim != 2 or Y.shape[1] < 2:
        raise ConfigError(
            f"{what} on 0/1 predictions needs at least 2 labels after dropping "
            f"constant ones, got {Y.shape[1] if Y.ndim == 2 else Y.ndim}"
        )


def _ranking_loss_on_predictions(Y, P, S) -> float:
    """scikit-learn's ranking loss with the 0/1 predictions as the scores."""
    _need_two_labels(Y, "ranking loss")
    return float(_skm().label_ranking_loss(Y, P))


def _coverage_on_predictions(Y, P, S) -> float:
    """scikit-learn's coverage error with the 0/1 predictions as the scores."""
    _need_two_labels(Y, "coverage error")
    return float(_skm().coverage_error(Y, P))


def _weighted_f1(Y, P, S) -> float:
    """Per-label F1 averaged with weights proportional to each label's positives."""
    return float(_skm().f1_score(Y, P, average="weighted", zero_division=0))


def _weighted_jaccard(Y, P, S) -> float:
    """Per-label Jaccard averaged with weights proportional to each label's
    positives."""
    return float(_skm().jaccard_score(Y, P, average="weighted", zero_division=0))
