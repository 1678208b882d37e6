"""Paper 001's metrics with the authors' conventions switched one at a time."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.classifiers.mlknn import MLkNN
from mlfs_core.evaluation.metrics import METRICS
from mlfs_papers.paper001.conventions import (
    Conventions,
    ReferenceMLkNN,
    make_paper001_mlknn,
    paper001_metrics,
)
from studies.data import PAPER001_METRICS, REFERENCE_PAPER001_METRICS

from .oracles import reference_evaluate

# Label 3 varies in the training part but is all 0 in the test part: ours keeps
# it, convention (d) drops it. Label 2 is constant in training: both drop it.
Y_TRAIN = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 1, 0]])
Y_TEST = np.array([[1, 0, 0, 0], [1, 1, 1, 0], [0, 1, 0, 0], [1, 0, 1, 0]])
Y_PRED = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [0, 0, 0, 1], [1, 1, 1, 0]])
SCORES = np.array(
    [
        [0.9, 0.2, 0.8, 0.6],
        [0.4, 0.7, 0.9, 0.1],
        [0.3, 0.45, 0.2, 0.55],
        [0.8, 0.6, 0.7, 0.3],
    ]
)


def _metrics(conventions: Conventions) -> dict[str, float]:
    return paper001_metrics(Y_TRAIN, Y_TEST, Y_PRED, SCORES, conventions=conventions)


def test_no_convention_is_our_definition_faithful_evaluation():
    keep = [0, 1, 3]  # labels varying in the training part
    Y, P, S = Y_TEST[:, keep], Y_PRED[:, keep], SCORES[:, keep]
    # the map by which the study reads the paper's metrics as ours
    expected = {k: METRICS[v].function(Y, P, S) for k, v in PAPER001_METRICS.items()}
    assert _metrics(Conventions.none()) == pytest.approx(expected)


def test_every_convention_is_the_reference_codes_evaluation():
    ref = reference_evaluate(Y_TRAIN, Y_TEST, Y_PRED)
    got = _metrics(Conventions())
    assert set(got) == set(REFERENCE_PAPER001_METRICS)
    for name, reference_name in REFERENCE_PAPER001_METRICS.items():
        assert got[name] == pytest.approx(ref[reference_name]), name


def test_ranking_convention_moves_only_the_ranking_metrics():
    base, one = (
        _metrics(Conventions.none()),
        _metrics(Conventions.only("ranking_on_predictions")),
    )
    changed = {k for k in base if not np.isclose(base[k], one[k])}
    assert changed == {"ranking_loss", "coverage_error"}


def test_weighting_and_dropping_moves_f1_jaccard_and_the_label_set():
    base, one = (
        _metrics(Conventions.none()),
        _metrics(Conventions.only("weighted_and_drop")),
    )
    changed = {k for k in base if not np.isclose(base[k], one[k])}
    # Dropping label 3 (all 0 in the test part) also removes its false
    # positives from Hamming loss and changes which label sets are exact.
    assert {"f1", "jaccard", "hamming_loss"} <= changed


def test_mlknn_and_split_conventions_leave_the_metrics_alone():
    base = _metrics(Conventions.none())
    for name in ("mlknn", "split"):
        assert _metrics(Conventions.only(name)) == base
    assert isinstance(
        make_paper001_mlknn(Conventions.only("mlknn"), k=3), ReferenceMLkNN
    )
    plain = make_paper001_mlknn(Conventions.none())
    assert type(plain) is MLkNN and plain.k == 10


def test_labels_and_errors():
    assert Conventions().label() == "reference-code"
    assert Conventions.none().label() == "definition"
    assert Conventions.only("mlknn").label() == "mlknn"
    with pytest.raises(ConfigError, match="bogus"):
        Conventions.only("bogus")
    with pytest.raises(ConfigError, match="same shape"):
        paper001_metrics(
            Y_TRAIN, Y_TEST, Y_PRED[:, :2], SCORES, conventions=Conventions()
        )
