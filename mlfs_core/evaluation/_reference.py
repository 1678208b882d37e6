"""Protocol B under ``evaluation = "reference-code"``: the runner's side.

The conventions themselves live in :mod:`.reference_code` (documented there
one by one); this module applies them in the runner:

- :func:`reference_dataset`: with ``split = "own"``, a dataset with a Mulan
  predefined train/test pair is loaded from it (same features as the full
  file, train rows first, ``Dataset.split`` set); the pairs are read from
  ``$MLFS_SPLITS`` or from ``datasets-splits`` beside the datasets folder
  (``../shared/datasets-splits``). Datasets without a pair keep the
  protocol's fallback split (seeded hold-out).
- :func:`reference_predictions` and :func:`reference_scores`: the
  prediction rule and the metrics of the fits (the runner's budget-batched
  path computes the neighbour counts, with each training sample its own
  neighbour).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .reference_code import (
    REFERENCE_METRICS,
    load_predefined_split,
    predefined_split_folder,
    reference_label_mask,
)

REFERENCE = "reference-code"


def splits_folder(dataset_path: Path) -> Path | None:
    """The folder of predefined pairs for a dataset at ``dataset_path``, if any."""
    env = os.environ.get("MLFS_SPLITS")
    folder = Path(env) if env else Path(dataset_path).resolve().parent.parent
    folder = folder if env else folder / "datasets-splits"
    return folder if folder.is_dir() else None


def reference_dataset(ds, path: Path):
    """``ds`` as loaded from its predefined train/test pair, or ``ds`` itself."""
    folder = splits_folder(path)
    if folder is None or predefined_split_folder(path, splits_dir=folder) is None:
        return ds
    return load_predefined_split(path, splits_dir=folder, features_like=ds)


def reference_predictions(
    prior: np.ndarray, cond_pos: np.ndarray, cond_neg: np.ndarray, counts
) -> np.ndarray:
    """scikit-multilearn's rule: 1 where P(H1) P(E_c|H1) >= P(H0) P(E_c|H0)."""
    labels = np.arange(counts.shape[1])[None, :]
    pos = prior * cond_pos[labels, counts]
    neg = (1.0 - prior) * cond_neg[labels, counts]
    return (pos >= neg).astype(np.int8)


def reference_scores(Y_train, Y_test, Y_pred, metrics) -> dict[str, float]:
    """The metrics on the labels varying in both parts (NaN when none is left).

    Ranking loss and coverage error are given the 0/1 predictions as scores.
    """
    keep = reference_label_mask(Y_train, Y_test)
    if not keep.any():
        return dict.fromkeys(metrics, float("nan"))
    Y, P = np.asarray(Y_test)[:, keep], np.asarray(Y_pred)[:, keep]
    if Y.shape[1] < 2:
        # ranking metrics on predictions need two labels (reference_code)
        single = {"ranking_loss", "coverage_error"}
        return {
            m: float("nan") if m in single else REFERENCE_METRICS[m].function(Y, P, P)
            for m in metrics
        }
    return {m: REFERENCE_METRICS[m].function(Y, P, P) for m in metrics}


def higher_is_better(metric: str) -> bool:
    """Direction of a metric of either evaluation."""
    from .metrics import METRICS

    spec = METRICS.get(metric) or REFERENCE_METRICS.get(metric)
    if spec is None:
        from .metrics import get_metric

        get_metric(metric)  # raises ConfigError naming the known metrics
    return spec.higher_is_better
