"""The ATR authors' evaluation conventions (PyIT-MLFS), as a standalone variant.

Paper 001's published numbers come from its authors' code, which evaluates a
feature ranking differently from our definition-faithful protocol B
(METHODS.md section 5 B). This module reproduces its four conventions so that
protocol B can run with ``evaluation = "reference-code"`` beside the default.
Written from the description of that code's behaviour, not copied from it.

Convention by convention, what it changes against our evaluation:

(a) Split: Mulan's predefined train/test split.
    Ours: the dataset's own split where its files come split (scene, birds),
    else a seeded stratified 60/40 hold-out split.
    Reference: the ``NAME-train.arff`` / ``NAME-test.arff`` pair Mulan
    publishes (``../shared/datasets-splits/NAME``, see its README) for
    emotions, yeast, enron, medical, genbase, bibtex, delicious and
    tmc2007-500; scene and birds keep their own pair. What changes: the train
    and test parts (sizes and members), hence the rankings, the classifier and
    every metric on those eight datasets. Datasets with no published split
    (the PseAAC sets, flags, slashdot, the text sets) have none: see
    :func:`datasets_without_split`; a caller falls back to the hold-out split
    and must say so. (The yahoo-* ``.mat`` files carry a train/test split of
    the ML-kNN literature; they are not Mulan's and are not considered.)
    genbase's split files repeat one protein ID, so load it with
    ``features_like`` (:func:`load_predefined_split`) to keep the full file's
    features.

(b) ML-kNN: scikit-multilearn's behaviour (:class:`ReferenceMLkNN`).
    Ours: when the likelihoods P(E_j | H) are estimated, a training sample's
    k neighbours are k *other* training samples (Zhang & Zhou's leave-one-out
    rule); a label is predicted when its posterior exceeds 1/2.
    Reference: a training sample is its own neighbour (scikit-multilearn's
    issue #22: the neighbours of the training set are searched in the
    training set itself), so each sample counts its own label among its k
    neighbours plus k - 1 others; and ``predict`` sets a label when
    P(H1) P(E_c | H1) >= P(H0) P(E_c | H0), i.e. the posterior is at least
    1/2. What changes: the likelihood tables lean towards "my neighbours carry
    my label" (more so for small k), which pushes posteriors towards the
    extremes; a posterior of exactly 1/2 predicts the label. Neighbours at
    equal distance are taken by lower training index, our rule, and the
    prior, the smoothing and the test-time neighbours are as ours.

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

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .._validation import check_XY
from ..errors import ConfigError, DatasetError
from .classifiers.mlknn import MLkNN, _dense_if_narrow, _n_rows
from .classifiers.neighbors import neighbour_label_counts
from .metrics import MetricSpec
from .metrics.variants import VARIANT_METRICS

SPLIT_SUFFIXES = ("-train", "-test")


# ---------------------------------------------------------------- (a) split
def _dataset_name(dataset: str | Path) -> str:
    path = Path(dataset)
    name = path.name if path.suffix == "" else path.stem
    for suffix in SPLIT_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def _has_pair(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    trains = folder.glob("*-train.arff")
    return any(
        t.with_name(t.name[: -len("-train.arff")] + "-test.arff").is_file()
        for t in trains
    )


def predefined_split_folder(
    dataset: str | Path, *, splits_dir: str | Path
) -> Path | None:
    """The folder holding ``dataset``'s published train/test pair, or None.

    Parameters
    ----------
    dataset : str or Path
        A dataset name (``"emotions"``) or the path of its folder or file
        (``../shared/datasets/scene``); the name is the folder name, or the
        file stem without ``-train`` / ``-test``.
    splits_dir : str or Path
        The folder of Mulan's published pairs (``../shared/datasets-splits``),
        one sub-folder per dataset.

    Returns
    -------
    Path or None
        ``splits_dir/<name>`` when it holds a ``*-train.arff`` /
        ``*-test.arff`` pair; else ``dataset`` itself when it is a folder
        holding such a pair (scene, birds come split); else None.
        :func:`mlfs_core.load_dataset` on the folder returns the union, train
        rows first, with ``Dataset.split`` set.

    Raises
    ------
    ConfigError
        ``splits_dir`` is not a folder.
    """
    splits_dir = Path(splits_dir)
    if not splits_dir.is_dir():
        raise ConfigError(f"the predefined-splits folder {splits_dir} does not exist")
    published = splits_dir / _dataset_name(dataset)
    if _has_pair(published):
        return published
    own = Path(dataset)
    return own if _has_pair(own) else None


def datasets_without_split(
    datasets: Iterable[str | Path], *, splits_dir: str | Path
) -> list[str]:
    """Names of the datasets (names or paths) that have no predefined split."""
    return [
        _dataset_name(d)
        for d in datasets
        if predefined_split_folder(d, splits_dir=splits_dir) is None
    ]


def load_predefined_split(
    dataset: str | Path, *, splits_dir: str | Path, features_like=None
):
    """Load ``dataset`` from its published train/test pair (``Dataset.split`` set).

    Parameters
    ----------
    dataset : str or Path
        Name or path, as for :func:`predefined_split_folder`.
    splits_dir : str or Path
        Folder of Mulan's published pairs.
    features_like : Dataset, optional
        The same dataset loaded from its full file: the result keeps exactly its
        features, in its order. Needed for genbase, whose split files repeat one
        protein ID, so the loader keeps the ID as 662 one-hot columns that it
        drops from the full file as an identifier.

    Raises
    ------
    DatasetError
        No predefined split (the message names the dataset), or a feature of
        ``features_like`` missing from the split files, or different labels.
    """
    from ..data import Dataset, load_dataset

    name = _dataset_name(dataset)
    folder = predefined_split_folder(dataset, splits_dir=splits_dir)
    if folder is None:
        raise DatasetError(
            f"{name}: no predefined train/test split in {splits_dir} nor beside "
            "the dataset"
        )
    ds = load_dataset(folder, name=name)
    if features_like is None:
        return ds
    if list(features_like.label_names) != ds.label_names:
        raise DatasetError(f"{folder}: labels differ from those of the full {name}")
    position = {f: i for i, f in enumerate(ds.feature_names)}
    missing = [f for f in features_like.feature_names if f not in position]
    if missing:
        raise DatasetError(
            f"{folder}: {len(missing)} feature(s) of the full {name} are missing, "
            f"e.g. {missing[0]!r}"
        )
    columns = [position[f] for f in features_like.feature_names]
    return Dataset(
        ds.X[:, columns],
        ds.Y,
        list(features_like.feature_names),
        ds.label_names,
        name,
        ds.split,
        ds.source,
    )


# ---------------------------------------------------------------- (b) ML-kNN
class ReferenceMLkNN(MLkNN):
    """ML-kNN as scikit-multilearn computes it (convention (b) of this module).

    Same parameters and attributes as :class:`mlfs_core.evaluation.mlknn.MLkNN`;
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

    def _training_counts(self) -> np.ndarray:
        if self.k_ == 0:
            return np.zeros_like(self.Y_)
        return neighbour_label_counts(
            self.X_, self.X_, self.Y_, self.k_, exclude_self=False
        )

    def _joint(self, X) -> tuple[np.ndarray, np.ndarray]:
        """P(H1) P(E_c | H1) and P(H0) P(E_c | H0) per test sample and label."""
        X, _ = check_XY(X, np.zeros((_n_rows(X), 1)))
        counts = self._test_counts(_dense_if_narrow(X))
        labels = np.arange(self.n_labels_)[None, :]
        pos = self.prior_ * self.cond_pos_[labels, counts]
        neg = (1.0 - self.prior_) * self.cond_neg_[labels, counts]
        return pos, neg

    def predict(self, X) -> np.ndarray:
        """0/1 predictions: P(H1) P(E_c | H1) >= P(H0) P(E_c | H0)."""
        pos, neg = self._joint(X)
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


def reference_evaluate(
    Y_train,
    Y_test,
    Y_pred,
    *,
    metrics: Sequence[str] = tuple(REFERENCE_METRICS),
) -> dict[str, float]:
    """Paper 001's metrics of one prediction as the authors' code computes them.

    Parameters
    ----------
    Y_train : array-like of shape (n_train, n_labels)
        Training labels (only used to find the labels constant there).
    Y_test, Y_pred : array-like of shape (n_test, n_labels)
        True and predicted 0/1 test labels, all labels.
    metrics : sequence of str
        Names from :data:`REFERENCE_METRICS`.

    Returns
    -------
    dict
        Metric name -> value, on the labels kept by :func:`reference_label_mask`.

    Raises
    ------
    ConfigError
        An unknown metric, mismatched shapes, or no label left.
    """
    unknown = [m for m in metrics if m not in REFERENCE_METRICS]
    if unknown:
        raise ConfigError(
            f"unknown reference-code metric(s) {unknown}; "
            f"known: {list(REFERENCE_METRICS)}"
        )
    Y_test, Y_pred = np.asarray(Y_test), np.asarray(Y_pred)
    if Y_test.shape != Y_pred.shape:
        raise ConfigError(
            f"Y_test {Y_test.shape} and Y_pred {Y_pred.shape} differ in shape"
        )
    keep = reference_label_mask(Y_train, Y_test)
    if not keep.any():
        raise ConfigError("every label is constant in the training or the test part")
    Y, P = Y_test[:, keep], Y_pred[:, keep]
    return {m: REFERENCE_METRICS[m].function(Y, P, P) for m in metrics}
