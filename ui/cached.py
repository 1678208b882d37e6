"""The app's only cache layer: engine calls keyed by small hashable arguments.

Every function takes names, paths, ints and tuples (a :class:`DatasetKey`
for the dataset), so Streamlit can hash them. Datasets are shared read-only
objects (``st.cache_resource``); everything derived from them is
``st.cache_data`` and returns a fresh copy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import streamlit as st

import mlfs_core
from mlfs_core.data import discover_datasets, load_dataset, load_uploaded

from . import adapters
from .datasets import DatasetKey, read_upload


@st.cache_data(show_spinner=False)
def discover(folder: str) -> dict[str, str]:
    """Datasets found in ``folder``: name -> path (empty if the folder is missing)."""
    if not Path(folder).is_dir():
        return {}
    return {name: str(path) for name, path in discover_datasets(folder).items()}


@st.cache_resource(show_spinner="Loading dataset ...", max_entries=8)
def load(key: DatasetKey):
    """Load the dataset named by ``key`` (raises ``DatasetError`` on bad input)."""
    options = {
        "labels": list(key.labels) if key.labels else None,
        "label_count": key.label_count,
        "label_prefix": key.label_prefix,
    }
    if key.kind == "upload":
        return load_uploaded(read_upload(key.path), **options)
    return load_dataset(key.path, **options)


@st.cache_data(show_spinner=False)
def stats(key: DatasetKey) -> dict:
    """Paper 000 Table 3 statistics of the dataset: N, M, q, LC, LD, DC."""
    return load(key).stats()


@st.cache_data(show_spinner=False)
def names(key: DatasetKey) -> tuple[str, list[str], list[str]]:
    """(dataset name, feature names, label names)."""
    ds = load(key)
    return ds.name, list(ds.feature_names), list(ds.label_names)


@st.cache_data(show_spinner=False)
def label_frequency(key: DatasetKey) -> pd.DataFrame:
    """Positive samples per label (``label, count, fraction``)."""
    ds = load(key)
    return adapters.label_frequency(ds.Y, ds.label_names)


@st.cache_data(show_spinner=False)
def label_cooccurrence(key: DatasetKey) -> pd.DataFrame:
    """Label x label co-occurrence counts."""
    ds = load(key)
    return adapters.label_cooccurrence(ds.Y, ds.label_names)


@st.cache_data(show_spinner="Ranking features ...")
def ranking(
    key: DatasetKey, method: str, params: tuple[tuple[str, object], ...], seed: int
) -> pd.DataFrame:
    """Full ranking of the dataset's features by ``method`` (best first)."""
    ds = load(key)
    result = mlfs_core.compute_ranking(
        ds.X, ds.Y, method, random_state=seed, **dict(params)
    )
    return adapters.ranking_frame(result.order, result.scores, ds.feature_names)


@st.cache_data(show_spinner=False)
def planted_truth(key: DatasetKey) -> set[int] | None:
    """Indices of the planted informative features (None without a truth file)."""
    path = _truth_file(key)
    if path is None:
        return None
    truth = json.loads(path.read_text())
    _, feature_names, _ = names(key)
    return adapters.truth_indices(truth, feature_names)


def _truth_file(key: DatasetKey) -> Path | None:
    if key.kind != "path":
        return None
    base = Path(key.path)
    found = sorted(base.glob("*_truth.json")) if base.is_dir() else []
    return found[0] if found else None


@st.cache_data(show_spinner="Ranking features ...")
def precision_curves(
    key: DatasetKey, methods: tuple[str, ...], seed: int, k_max: int
) -> pd.DataFrame:
    """Precision@k against the planted truth for each method, k = 1..k_max."""
    truth = planted_truth(key) or set()
    orders = {
        m: ranking(key, m, (), seed)[adapters.FEATURE_INDEX].to_numpy() for m in methods
    }
    return adapters.precision_at_k(orders, truth, k_max)
