"""Thin adapters for analysis the engine does not offer (yet).

Everything here is small table shaping; each function is a candidate to move
into :mod:`mlfs_core` (named in the app's report), after which the app calls
the engine directly.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from mlfs_core._constants import (
    DATASET,
    FEATURES,
    FOLD,
    METHOD,
    METRIC,
    REPEAT,
    VALUE,
)
from mlfs_core.errors import MLFSError

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


REQUIRED_RESULT_COLUMNS = (DATASET, METHOD, METRIC, VALUE)


def read_results(path) -> pd.DataFrame:
    """Read a results CSV; a ValueError names what is missing."""
    try:
        table = pd.read_csv(path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise MLFSError(f"{Path(path).name} is not a readable CSV: {exc}") from None
    missing = [c for c in REQUIRED_RESULT_COLUMNS if c not in table.columns]
    if "budget" not in table.columns and "budget_pct" not in table.columns:
        missing.append("budget")
    if missing:
        raise MLFSError(f"{Path(path).name} lacks the column(s) {', '.join(missing)}")
    if not pd.api.types.is_numeric_dtype(table[VALUE]):
        raise MLFSError(f"{Path(path).name}: the value column is not numeric")
    return table


def read_selections(path) -> pd.DataFrame:
    """Read a selections CSV whose ``features`` column holds space-separated indices."""
    table = pd.read_csv(path)
    if FEATURES not in table.columns:
        raise MLFSError(f"{Path(path).name} lacks the column {FEATURES}")
    table[FEATURES] = [
        np.array(str(v).split(), dtype=int) if isinstance(v, str) else np.array([], int)
        for v in table[FEATURES]
    ]
    return table


def measure_panels(methods: tuple[str, ...]) -> dict[str, list[str]]:
    """Group methods by the measure in their name (MaxCS -> CS), as in Figure 1.

    Methods without an aggregation prefix (RFS, AF, the IT filters) form an
    "other" panel; a panel of one method is merged into "other" too.
    """
    panels: dict[str, list[str]] = {}
    for method in methods:
        parts = split_name(method)
        panels.setdefault(parts[1] if parts else "other", []).append(method)
    singles = [p for p, members in panels.items() if len(members) < 2 and p != "other"]
    for p in singles:
        panels.setdefault("other", []).extend(panels.pop(p))
    return panels


AGGREGATION_PREFIXES = ("Max", "Mean", "RoR", "RaR")


def split_name(name: str) -> tuple[str, str] | None:
    """``"RaRBNS"`` -> ``("RaR", "BNS")``; None for names without an aggregation."""
    for prefix in AGGREGATION_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return prefix, name[len(prefix) :]
    return None


def selections_frame(dataset: str, orders: dict[str, pd.Series]) -> pd.DataFrame:
    """Rankings as a one-fold selections table (as the analysis functions take)."""
    return pd.DataFrame(
        {
            DATASET: dataset,
            METHOD: list(orders),
            FOLD: 0,
            REPEAT: 0,
            FEATURES: [np.asarray(o) for o in orders.values()],
        }
    )


def planted_truth(path: Path, engine_loader) -> tuple[int, ...] | None:
    """Planted informative indices: the engine's reader, else ``all_informative``.

    The sample's truth file keeps per-label lists under ``informative`` and the
    union under ``all_informative``; the engine reader expects a flat list.
    """
    try:
        return tuple(engine_loader(path))
    except (ValueError, TypeError):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    union = data.get("all_informative") if isinstance(data, dict) else None
    return tuple(int(i) for i in union) if union else None
