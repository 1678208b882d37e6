"""Test oracles for paper 001's published evaluation (not part of the engine).

:func:`reference_evaluate` scores one prediction the way the authors' code
does, straight from scikit-learn, and :func:`datasets_without_split` lists
the datasets that have no predefined train/test pair; the engine's fast paths
and split provider are checked against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.predefined import _dataset_name, predefined_split_folder
from mlfs_papers.paper001.conventions import (
    REFERENCE_METRICS,
    reference_label_mask,
)


def datasets_without_split(
    datasets: Iterable[str | Path], *, splits_dir: str | Path
) -> list[str]:
    """Names of the datasets (names or paths) that have no predefined split."""
    return [
        _dataset_name(d)
        for d in datasets
        if predefined_split_folder(d, splits_dir=splits_dir) is None
    ]


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
