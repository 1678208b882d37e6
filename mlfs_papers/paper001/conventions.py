"""Paper 001's published evaluation code as four registered conventions.

Paper 001's published numbers come from its authors' code, which evaluates a
feature ranking differently from our definition-faithful protocol B
(METHODS.md section 5 B). This module reproduces its four conventions so that
protocol B can run with ``evaluation = "reference-code"`` beside the default.
Written from the description of that code's behaviour, not copied from it.

It enters the engine only through the public extension points a user's
plug-in gets: a classifier (``"mlknn-skmultilearn"``, :class:`ReferenceMLkNN`),
metric variants (:data:`mlfs_core.evaluation.metrics.VARIANT_METRICS`), the
``"predefined"`` split provider (:mod:`mlfs_core.evaluation.predefined`), and
four conventions plus the preset ``"reference-code"``
(:mod:`mlfs_core.evaluation.conventions`), and scikit-learn <= 1.0's binning
(:mod:`.binning`), all registered when this module is imported. The
package's entry point (group ``mlfs_explorer.plugins``) imports it the first
time a config names one of them.

Convention by convention, what it changes against our evaluation:

(a) Split: Mulan's predefined train/test split.
    Ours: the dataset's own split where its files come split (scene, birds),
    else a seeded stratified 60/40 hold-out split.
    Reference: the ``NAME-train.arff`` / ``NAME-test.arff`` pair Mulan
    publishes (a splits folder, ``datasets-splits/NAME``) for
    emotions, yeast, enron, medical, genbase, bibtex, delicious and
    tmc2007-500; scene and birds keep their own pair. What changes: the train
    and test parts (sizes and members), hence the rankings, the classifier and
    every metric on those eight datasets. Datasets with no published split
    (the PseAAC sets, flags, slashdot, the text sets) have none: a caller
    falls back to the hold-out split and must say so. (The yahoo-* ``.mat``
    files carry a train/test split of the ML-kNN literature; they are not
    Mulan's and are not considered.)
    genbase's split files repeat one protein ID, so load it with
    ``features_like`` (:func:`load_predefined_split`) to keep the full file's
    features.

(b) ML-kNN: scikit-multilearn's behaviour (:class:`ReferenceMLkNN`).
    Ours: when the likelihoods P(E_j | H) are estimated, a training sample's
    k neighbours are k *other* training samples (Zhang & Zhou's leave-one-out
    rule); a label is predicted when its posterior exceeds 1/2.
    Reference: a training sample is its own neighbour (scikit-multilearn
    searches the neighbours of the training set in the training set itself, a
    reported defect of that library), so each sample counts its own label among
    its k neighbours plus k - 1 others; and ``predict`` sets a label when P(H1)
    P(E_c | H1) >= P(H0) P(E_c | H0), i.e. the posterior is at least 1/2. What
    changes: the likelihood tables lean towards "my neighbours carry my label"
    (more so for small k), which pushes posteriors towards the extremes; a
    posterior of exactly 1/2 predicts the label. Neighbours at equal distance
    are taken by lower training index, our rule, and the prior, the smoothing
    and the test-time neighbours are as ours.

(c) Ranking loss and coverage error on the 0/1 predictions.
    Ours: on the classifier's label scores (the ML-kNN posteriors).
    Reference: scikit-learn's ``label_ranking_loss`` and ``coverage_error``
    are given the 0/1 prediction matrix as the scores. What changes: every
    predicted label ties with every other predicted label and every
    unpredicted one with every other unpredicted one; scikit-learn counts a
    tied (relevant, irrelevant) pair as mis-ordered and a tie with a relevant
    label as covering depth, so both become coarse and pessimistic (a sample
    with no predicted label has ranking loss 1 and coverage q).

(d) F1 and Jaccard with ``average="weighted"``; constant labels dropped.
    Ours: micro-F1 (and example-based F1), Jaccard averaged over samples;
    labels constant in the training part left out of every metric.
    Reference: per-label F1 and Jaccard averaged with weights proportional to
    each label's number of positives in the test part (``zero_division=0``);
    labels constant in the training part OR in the test part are dropped
    before fitting and from every metric. What changes: frequent labels
    dominate F1 and Jaccard (a label-wise, not sample-wise, Jaccard); a label
    with no positive (or only positives) in the test part no longer counts,
    in Hamming loss, subset accuracy and the ranking metrics too. Dropping a
    label before ML-kNN's fit or after it is the same: ML-kNN treats labels
    independently and its neighbours depend on the features only.

Hamming loss and accuracy (``accuracy_score``, i.e. subset accuracy) keep
their definitions; only the labels they see change (d).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.classifiers import MLkNN, register_classifier
from mlfs_core.evaluation.conventions import (
    Convention,
    names_of,
    register_convention,
    register_preset,
)
from mlfs_core.evaluation.metrics import (
    METRICS,
    VARIANT_METRICS,
    MetricSpec,
    lean_variant_metrics,
)
from mlfs_core.evaluation.predefined import (  # noqa: F401  (a)'s loaders, by their old names
    SPLIT_SUFFIXES,
    load_predefined_split,
    predefined_dataset,
    predefined_split_folder,
)

from . import binning, protocol  # noqa: F401  (register the strategy and preset 'B')

REFERENCE = "reference-code"
REFERENCE_CODE_METRICS = (
    "hamming_loss",
    "ranking_loss",
    "coverage_error",
    "weighted_f1",
    "weighted_jaccard",
    "subset_accuracy",
)
"""Paper 001's six metrics under the names its authors' code gives them."""


# ---------------------------------------------------------------- (b) ML-kNN
class ReferenceMLkNN(MLkNN):
    """ML-kNN as scikit-multilearn computes it (convention (b) of this module).

    Same parameters and attributes as
    :class:`mlfs_core.evaluation.classifiers.mlknn.MLkNN`;
    two differences: each training sample is one of its own k neighbours
    when the likelihoods are estimated, and :meth:`predict` sets a label when
    P(H1) P(E_c | H1) >= P(H0) P(E_c | H0).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> Y = np.array([[1], [1], [0], [0]])
    >>> ReferenceMLkNN(k=1).fit(X, Y).cond_pos_.tolist()  # own label counted
    [[0.25, 0.75]]
    """

    include_self = True

    def decide(self, prior, cond_pos, cond_neg, counts, posterior) -> np.ndarray:
        """0/1 predictions: P(H1) P(E_c | H1) >= P(H0) P(E_c | H0)."""
        return reference_predictions(prior, cond_pos, cond_neg, counts)


def reference_predictions(
    prior: np.ndarray, cond_pos: np.ndarray, cond_neg: np.ndarray, counts
) -> np.ndarray:
    """scikit-multilearn's rule: 1 where P(H1) P(E_c|H1) >= P(H0) P(E_c|H0)."""
    labels = np.arange(counts.shape[1])[None, :]
    pos = prior * cond_pos[labels, counts]
    neg = (1.0 - prior) * cond_neg[labels, counts]
    return (pos >= neg).astype(np.int8)


def make_reference_mlknn(
    *, random_state: int = 0, k: int = 10, s: float = 1.0, scaling: str = "none"
) -> ReferenceMLkNN:
    """Factory with the signature of the classifier registry's factories.

    ``random_state`` is accepted and unused (ML-kNN is deterministic), so
    ``register_classifier("mlknn-reference", make_reference_mlknn)`` works.
    """
    del random_state
    return ReferenceMLkNN(k=k, s=s, scaling=scaling)


# ---------------------------------------------------------------- (c), (d) metrics
def reference_label_mask(Y_train, Y_test) -> np.ndarray:
    """Labels kept by convention (d): not constant in the training part nor in
    the test part.

    Examples
    --------
    >>> reference_label_mask([[1, 0, 1], [0, 0, 0]], [[1, 1, 0], [0, 1, 1]]).tolist()
    [True, False, True]
    """
    Y_train, Y_test = np.asarray(Y_train), np.asarray(Y_test)
    if Y_train.ndim != 2 or Y_test.ndim != 2 or Y_train.shape[1] != Y_test.shape[1]:
        raise ConfigError(
            "Y_train and Y_test must be 2-D with the same number of labels, got "
            f"{Y_train.shape} and {Y_test.shape}"
        )

    def varies(Y: np.ndarray) -> np.ndarray:
        if Y.shape[0] == 0:
            return np.zeros(Y.shape[1], dtype=bool)
        return Y.min(axis=0) != Y.max(axis=0)

    return varies(Y_train) & varies(Y_test)


def _skm():
    from sklearn import metrics  # ~1 s to import; only when a metric runs

    return metrics


def _hamming(Y, P, S) -> float:
    return float(_skm().hamming_loss(Y, P))


def _subset_accuracy(Y, P, S) -> float:
    return float(_skm().accuracy_score(Y, P))


REFERENCE_METRICS: dict[str, MetricSpec] = {
    "hamming_loss": MetricSpec(_hamming, False, False, "fraction of wrong label bits"),
    "ranking_loss": VARIANT_METRICS["ranking_loss_on_predictions"],
    "coverage_error": VARIANT_METRICS["coverage_error_on_predictions"],
    "weighted_f1": VARIANT_METRICS["weighted_f1"],
    "weighted_jaccard": VARIANT_METRICS["weighted_jaccard"],
    "subset_accuracy": MetricSpec(
        _subset_accuracy, True, False, "fraction of exactly right label sets"
    ),
}
"""Paper 001's six metrics as the authors' code computes them (conventions c, d).

Each function takes ``(Y_true, Y_pred, scores)`` like :data:`METRICS` and
ignores ``scores``; give it the labels kept by :func:`reference_label_mask`."""


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

    A scorer's view of the registered conventions, for checking one fit by
    hand (:func:`paper001_metrics`).

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
        :func:`mlfs_core.evaluation.conventions.names_of`); the inverse of
        :meth:`label`.
        """
        on = set(names_of(evaluation))
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


def lean_reference_metrics(Y, P, metrics) -> dict[str, float]:
    """:data:`REFERENCE_METRICS` of 0/1 predictions without scikit-learn's checks.

    The metrics by their reference names (``ranking_loss`` and
    ``coverage_error`` on the predictions); see
    :func:`~mlfs_core.evaluation.metrics.lean_variant_metrics`.
    """
    from mlfs_core.evaluation.metrics import lean_metrics

    names = {"ranking_loss": "ranking_loss_on_predictions"}
    names["coverage_error"] = "coverage_error_on_predictions"
    theirs = [m for m in metrics if m in names or m in VARIANT_METRICS]
    values = lean_variant_metrics(Y, P, [names.get(m, m) for m in theirs])
    out = {m: values[names.get(m, m)] for m in theirs}
    ours = [m for m in metrics if m not in out]
    if ours:
        out.update(lean_metrics(Y, P, np.asarray(P, dtype=float), metrics=ours))
    return {m: out[m] for m in metrics}


# ------------------------------------------------- registration (the plug-in)
register_classifier("mlknn-skmultilearn", make_reference_mlknn, kernel_dependent=False)
for _convention in (
    Convention(
        "split",
        aspect="split",
        choice="predefined",
        split="predefined",
        description="(a) Mulan's predefined train/test split",
    ),
    Convention(
        "mlknn",
        aspect="mlknn",
        choice="scikit-multilearn",
        classifier="mlknn-skmultilearn",
        description="(b) scikit-multilearn's ML-kNN",
    ),
    Convention(
        "ranking_on_predictions",
        aspect="ranking_metrics",
        choice="on-predictions",
        metric_variants={
            "ranking_loss": "ranking_loss_on_predictions",
            "coverage_error": "coverage_error_on_predictions",
        },
        description="(c) ranking loss and coverage on the 0/1 predictions",
    ),
    Convention(
        "weighted_and_drop",
        aspect="label_metrics",
        choice="weighted-and-drop",
        extra_metrics=("weighted_f1", "weighted_jaccard"),
        default_metrics=REFERENCE_CODE_METRICS,
        label_rule="train_or_test",
        description="(d) support-weighted F1 and Jaccard, labels constant in "
        "the training or the test part dropped",
    ),
):
    register_convention(_convention)
register_preset(
    REFERENCE,
    ("split", "mlknn", "ranking_on_predictions", "weighted_and_drop"),
    metrics=REFERENCE_CODE_METRICS,
)
