"""Paper 001's six metrics under any mix of the authors' four conventions.

Issue 12 asks which of the ATR authors' conventions (see
:mod:`mlfs_core.evaluation.reference_code`) moves ATR most, changing one at a
time. :class:`Conventions` switches each on or off; :func:`paper001_metrics`
scores one prediction under a :class:`Conventions`, and
:func:`make_paper001_mlknn` gives the matching ML-kNN. With every convention
off the numbers are our definition-faithful protocol B's (labels constant in
the training part dropped; micro-F1, sample-wise Jaccard; ranking metrics on
the scores); with every one on they are :func:`reference_evaluate`'s.

The split convention (a) is the caller's to apply (it decides which data are
loaded: :func:`~mlfs_core.evaluation.reference_code.load_predefined_split`);
:attr:`Conventions.split` only carries the choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from ..errors import ConfigError
from .classifiers.mlknn import MLkNN
from .config import evaluation_conventions
from .metrics import METRICS
from .reference_code import REFERENCE_METRICS, ReferenceMLkNN, reference_label_mask

PAPER001_METRIC_NAMES = (
    "hamming_loss",
    "ranking_loss",
    "coverage_error",
    "f1",
    "jaccard",
    "accuracy",
)
"""Paper 001's six metrics, named as in ``studies/paper001/statements.csv``."""


@dataclass(frozen=True)
class Conventions:
    """Which of the authors' four conventions apply (all of them by default).

    Attributes
    ----------
    split : bool
        (a) Mulan's predefined train/test split (applied by the caller).
    mlknn : bool
        (b) scikit-multilearn's ML-kNN (:class:`ReferenceMLkNN`).
    ranking_on_predictions : bool
        (c) ranking loss and coverage error on the 0/1 predictions.
    weighted_and_drop : bool
        (d) weighted F1 and Jaccard; labels constant in the training OR test
        part dropped (else: micro-F1, sample-wise Jaccard, labels constant in
        the training part dropped).
    """

    split: bool = True
    mlknn: bool = True
    ranking_on_predictions: bool = True
    weighted_and_drop: bool = True

    @classmethod
    def none(cls) -> Conventions:
        """Our definition-faithful evaluation: every convention off."""
        return cls(False, False, False, False)

    @classmethod
    def from_evaluation(cls, evaluation: str) -> Conventions:
        """The conventions a protocol's ``evaluation`` value switches on.

        ``"definition"``, ``"reference-code"`` or a ``+``-joined list (see
        :func:`~mlfs_core.evaluation.protocols.evaluation_conventions`); the
        inverse of :meth:`label`.
        """
        on = set(evaluation_conventions(evaluation))
        return cls(**{f.name: f.name in on for f in fields(cls)})

    @classmethod
    def only(cls, name: str) -> Conventions:
        """Every convention off but ``name`` (one of the attribute names)."""
        names = [f.name for f in fields(cls)]
        if name not in names:
            raise ConfigError(f"unknown convention {name!r}; known: {names}")
        return replace(cls.none(), **{name: True})

    def label(self) -> str:
        """``"reference-code"``, ``"definition"`` or the ``+``-joined conventions on."""
        on = [f.name for f in fields(self) if getattr(self, f.name)]
        if len(on) == len(fields(self)):
            return "reference-code"
        return "+".join(on) if on else "definition"


def make_paper001_mlknn(conventions: Conventions, *, k: int = 10, s: float = 1.0):
    """ML-kNN as convention (b) says: :class:`ReferenceMLkNN` or our :class:`MLkNN`."""
    return ReferenceMLkNN(k=k, s=s) if conventions.mlknn else MLkNN(k=k, s=s)


def _kept_labels(Y_train, Y_test, drop_test_constant: bool) -> np.ndarray:
    if drop_test_constant:
        return reference_label_mask(Y_train, Y_test)
    Y_train = np.asarray(Y_train)
    if Y_train.shape[0] == 0:
        return np.zeros(Y_train.shape[1], dtype=bool)
    return Y_train.min(axis=0) != Y_train.max(axis=0)


def paper001_metrics(
    Y_train,
    Y_test,
    Y_pred,
    scores,
    *,
    conventions: Conventions,
) -> dict[str, float]:
    """Paper 001's six metrics of one prediction under ``conventions``.

    Parameters
    ----------
    Y_train : array-like of shape (n_train, n_labels)
        Training labels (to find the constant labels).
    Y_test, Y_pred, scores : array-like of shape (n_test, n_labels)
        True labels, 0/1 predictions and label scores (posteriors), all labels.
    conventions : Conventions

    Returns
    -------
    dict
        :data:`PAPER001_METRIC_NAMES` -> value.

    Raises
    ------
    ConfigError
        Mismatched shapes or no label left.
    """
    Y_test, Y_pred = np.asarray(Y_test), np.asarray(Y_pred)
    scores = np.asarray(scores, dtype=float)
    if not Y_test.shape == Y_pred.shape == scores.shape:
        raise ConfigError(
            f"Y_test {Y_test.shape}, Y_pred {Y_pred.shape} and scores "
            f"{scores.shape} must have the same shape"
        )
    keep = _kept_labels(Y_train, Y_test, conventions.weighted_and_drop)
    if not keep.any():
        raise ConfigError("every label is constant in the part(s) that drop labels")
    Y, P, S = Y_test[:, keep], Y_pred[:, keep], scores[:, keep]
    ranking = REFERENCE_METRICS if conventions.ranking_on_predictions else METRICS
    weighted = conventions.weighted_and_drop
    specs = {
        "hamming_loss": METRICS["hamming_loss"],
        "ranking_loss": ranking["ranking_loss"],
        "coverage_error": ranking["coverage_error"],
        "f1": REFERENCE_METRICS["weighted_f1"] if weighted else METRICS["micro_f1"],
        "jaccard": REFERENCE_METRICS["weighted_jaccard"]
        if weighted
        else METRICS["jaccard_samples"],
        "accuracy": METRICS["subset_accuracy"],
    }
    return {name: specs[name].function(Y, P, S) for name in PAPER001_METRIC_NAMES}
