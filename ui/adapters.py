"""Thin adapters for analysis the engine does not offer (yet).

Everything here is small table shaping; each function is a candidate to move
into :mod:`mlfs_core` (named in the app's report), after which the app calls
the engine directly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mlfs_core._constants import METHOD

FEATURE_INDEX = "feature_index"
FEATURE = "feature"
POSITION = "position"
SCORE = "score"


def label_frequency(Y: np.ndarray, label_names: list[str]) -> pd.DataFrame:
    """Positive samples per label, as a ``label, count, fraction`` table."""
    counts = np.asarray(Y.sum(axis=0)).ravel().astype(int)
    n = max(int(Y.shape[0]), 1)
    return pd.DataFrame({"label": label_names, "count": counts, "fraction": counts / n})


def label_cooccurrence(Y: np.ndarray, label_names: list[str]) -> pd.DataFrame:
    """Square label x label table: samples carrying both labels (diagonal = count)."""
    Yi = np.asarray(Y, dtype=np.int64)
    return pd.DataFrame(Yi.T @ Yi, index=label_names, columns=label_names)


def ranking_frame(
    order: np.ndarray, scores: np.ndarray, feature_names: list[str]
) -> pd.DataFrame:
    """The ranking as ``position, feature_index, feature, score`` (best first)."""
    order = np.asarray(order, dtype=int)
    return pd.DataFrame(
        {
            POSITION: np.arange(1, len(order) + 1),
            FEATURE_INDEX: order,
            FEATURE: [feature_names[i] for i in order],
            SCORE: np.asarray(scores, dtype=float)[order],
        }
    )


def topk_side_by_side(
    a: pd.DataFrame, b: pd.DataFrame, k: int, names: tuple[str, str]
) -> tuple[pd.DataFrame, int]:
    """Top-k features of two rankings side by side, and the size of their overlap."""
    top_a, top_b = a.head(k), b.head(k)
    set_a, set_b = set(top_a[FEATURE_INDEX]), set(top_b[FEATURE_INDEX])
    table = pd.DataFrame(
        {
            POSITION: np.arange(1, len(top_a) + 1),
            names[0]: top_a[FEATURE].to_numpy(),
            f"in {names[1]}": top_a[FEATURE_INDEX].isin(set_b).to_numpy(),
            names[1]: top_b[FEATURE].to_numpy(),
            f"in {names[0]}": top_b[FEATURE_INDEX].isin(set_a).to_numpy(),
        }
    )
    return table, len(set_a & set_b)


def precision_at_k(
    orders: dict[str, np.ndarray], truth: set[int], k_max: int
) -> pd.DataFrame:
    """Share of the top-k features that are planted-informative, for k = 1..k_max."""
    rows = []
    ks = np.arange(1, k_max + 1)
    for method, order in orders.items():
        hits = np.cumsum(np.isin(np.asarray(order)[:k_max], list(truth)))
        rows.append(
            pd.DataFrame(
                {
                    METHOD: method,
                    "k": ks[: len(hits)],
                    "precision": hits / ks[: len(hits)],
                }
            )
        )
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def truth_indices(truth: object, feature_names: list[str]) -> set[int]:
    """Planted informative features named anywhere in a truth JSON, as indices.

    Integers are taken as feature indices and strings as feature names, at any
    depth (e.g. ``{"labels": {"L1": ["w3", "w9"]}}``).
    """
    position = {name: i for i, name in enumerate(feature_names)}
    found: set[int] = set()
    stack = [truth]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and item in position:
            found.add(position[item])
        elif isinstance(item, int) and not isinstance(item, bool):
            if 0 <= item < len(feature_names):
                found.add(item)
    return found
