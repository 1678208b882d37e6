"""The app's only cache layer: thin wrappers over engine calls (what a page
shows is stated by :mod:`mlfs_core.views`), keyed by small hashable arguments
(names, paths, ints, tuples, a :class:`DatasetKey`). Datasets are shared
read-only (``st.cache_resource``); the rest is ``st.cache_data``, a fresh copy
each call. Every cache is bounded (:data:`BOUNDS`), so a server shared by a
class keeps bounded memory."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

import mlfs_core
from mlfs_core import data as engine_data
from mlfs_core import views
from mlfs_core.analysis import (
    FriedmanResult,
    load_planted_truth,
    recovery_table,
    similarity_matrix,
)
from mlfs_core.columns import METHOD, PRECISION, K
from mlfs_core.data import discover_datasets, load_dataset, load_uploaded
from mlfs_core.errors import DatasetError
from mlfs_core.evaluation import read_results, read_selections
from mlfs_core.plots import (
    average_rank_curves,
    cd_diagram,
    cooccurrence_heatmap,
    label_frequency_bar,
    metric_vs_budget,
    pvalue_heatmap,
)
from mlfs_core.published import RankComparison, SimilarityComparison, get_published
from mlfs_core.selectors import FEATURE_INDEX, ranking_frame, selections_frame

from .datasets import DatasetKey, touch_upload, truth_file
from .results import (
    CURVES_FILE,
    RESULTS_FILE,
    SELECTIONS_FILE,
    ResultsRef,
    data_file,
)

BOUNDS = {"max_entries": 64, "ttl": 2 * 3600}
"""Bounds of every ``st.cache_data`` function here (entries, seconds)."""


@st.cache_data(show_spinner=False, **BOUNDS)
def discover(folder: str) -> dict[str, str]:
    """Datasets found in ``folder``: name -> path (empty if the folder is missing)."""
    if not Path(folder).is_dir():
        return {}
    return {name: str(path) for name, path in discover_datasets(folder).items()}


def load(key: DatasetKey):
    """Load the dataset named by ``key`` (raises ``DatasetError`` on bad input)."""
    if key.kind == "upload":
        touch_upload(key.path)  # recently used: the last to go when over quota
    return _load(key)[0]


def load_warnings(key: DatasetKey) -> tuple[str, ...]:
    """The warnings the reader gave when loading ``key`` (e.g. ambiguous labels)."""
    return _load(key)[1]


@st.cache_resource(show_spinner="Loading dataset ...", max_entries=8)
def _load(key: DatasetKey):
    options = key.options()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if key.kind != "upload":
            dataset = load_dataset(key.path, **options)
        elif not Path(key.path).is_dir():
            raise DatasetError(
                "this upload was removed to keep the uploads within their quota; "
                "upload the files again"
            )
        else:  # read in place: no second copy of the upload
            dataset = load_uploaded(key.path, **options)
    found = tuple(dict.fromkeys(str(w.message) for w in caught))
    return dataset, found


@st.cache_data(show_spinner=False, **BOUNDS)
def stats(key: DatasetKey) -> dict:
    """N, M, q, LC, LD, DC as in Spolaôr and Tsoumakas (2013), Table 3."""
    return load(key).stats()


@st.cache_data(show_spinner=False, **BOUNDS)
def names(key: DatasetKey) -> tuple[str, list[str], list[str]]:
    """(dataset name, feature names, label names)."""
    ds = load(key)
    return ds.name, list(ds.feature_names), list(ds.label_names)


@st.cache_data(show_spinner="Counting labels ...", **BOUNDS)
def label_frequency(key: DatasetKey) -> pd.DataFrame:
    """Positive samples per label (``label, count, fraction``)."""
    ds = load(key)
    return engine_data.label_frequency(ds.Y, ds.label_names)


@st.cache_data(show_spinner="Counting labels ...", **BOUNDS)
def label_cooccurrence(key: DatasetKey) -> pd.DataFrame:
    """Label x label co-occurrence counts."""
    ds = load(key)
    return engine_data.label_cooccurrence(ds.Y, ds.label_names)


@st.cache_data(show_spinner=False, **BOUNDS)
def data_figures(
    key: DatasetKey, across: bool = False, max_labels: int | None = None
) -> tuple[dict, dict]:
    """The Data page's two charts as dicts, drawn once per dataset (every
    session opens on this page: 0.1 CPU-s each); ``across``: bars across, one
    row per label; the heatmap draws at most ``max_labels`` labels."""
    bars = label_frequency_bar(label_frequency(key), horizontal=across)
    most = {} if max_labels is None else {"max_labels": max_labels}
    heat = cooccurrence_heatmap(label_cooccurrence(key), **most)
    return bars.to_dict(), heat.to_dict()


@st.cache_data(show_spinner=False, **BOUNDS)
def data_warnings(key: DatasetKey) -> list[str]:
    """Plain-language warnings about the dataset's oddities (may be empty)."""
    ds = load(key)
    return engine_data.data_warnings(ds.X, ds.Y, ds.label_names)


def ranking(
    key: DatasetKey,
    method: str,
    params: tuple[tuple[str, object], ...],
    seed: int,
    k: int | None = None,
) -> pd.DataFrame:
    """The top ``k`` features by ``method``, best first (``None``: all). The
    cache key holds what the method uses: the seed only for stochastic methods,
    the options with their defaults, so a new seed never recomputes PMU."""
    spec = mlfs_core.get_method(method)
    options = tuple(sorted(spec.resolve(dict(params)).items()))
    return _ranking(key, method, options, seed if spec.stochastic else None, k)


@st.cache_data(show_spinner="Ranking features ...", **BOUNDS)
def _ranking(
    key: DatasetKey,
    method: str,
    params: tuple[tuple[str, object], ...],
    seed: int | None,
    k: int | None,
) -> pd.DataFrame:
    ds = load(key)
    k = None if k is None else min(int(k), ds.X.shape[1])
    result = mlfs_core.compute_ranking(
        ds.X, ds.Y, method, k=k, random_state=seed, **dict(params)
    )
    return ranking_frame(result, ds.feature_names)


@st.cache_data(show_spinner=False, **BOUNDS)
def planted_truth(key: DatasetKey) -> tuple[int, ...] | None:
    """Indices of the planted informative features (None without a truth file,
    or a malformed one: the Rank page then leaves that section out)."""
    path = truth_file(key)
    if path is None:
        return None
    try:
        return tuple(load_planted_truth(path))
    except ValueError:
        return None


@st.cache_data(show_spinner="Ranking features ...", **BOUNDS)
def precision_curves(
    key: DatasetKey, methods: tuple[str, ...], seed: int, k_max: int
) -> pd.DataFrame:
    """Precision@k against the planted truth for each method, k = 1..k_max."""
    name, _, _ = names(key)
    rankings = selections_frame(
        name, {m: ranking(key, m, (), seed, k_max)[FEATURE_INDEX] for m in methods}
    )
    table = recovery_table(rankings, planted_truth(key) or (), ks=range(1, k_max + 1))
    return table[[METHOD, K, PRECISION]]


# ---- experiment results (analysis pages; rules in mlfs_core.views) ----------


@st.cache_data(show_spinner="Reading the results ...", **BOUNDS)
def results(ref: ResultsRef) -> pd.DataFrame:
    """The tidy results table of a results folder (raises ValueError if malformed)."""
    return read_results(data_file(ref.folder, RESULTS_FILE))


@st.cache_data(show_spinner="Reading the selected subsets ...", **BOUNDS)
def selections(ref: ResultsRef) -> pd.DataFrame | None:
    """The selections table (ranked feature indices), or None if the folder has none."""
    path = data_file(ref.folder, SELECTIONS_FILE)
    return read_selections(path) if path.is_file() else None


@st.cache_data(show_spinner="Ranking methods ...", **BOUNDS)
def rank_curves(
    ref: ResultsRef, metric: str, methods: tuple[str, ...], by_measure: bool
) -> pd.DataFrame:
    """:func:`mlfs_core.views.panel_ranks` of ``ref``'s results."""
    return views.panel_ranks(results(ref), metric, methods, by_measure=by_measure)


# the page reruns on every widget above the post-hoc tests (budget slider,
# metric), and the tests, their heatmap and table take about a second together
@st.cache_data(show_spinner=False, **BOUNDS)
def posthoc_pvalues(
    ref: ResultsRef, metric: str, methods: tuple[str, ...], budget: float, test: str
) -> pd.DataFrame:
    """:func:`mlfs_core.views.pairwise_pvalues` of ``ref``'s results."""
    return views.pairwise_pvalues(results(ref), metric, methods, budget, test)


@st.cache_data(show_spinner=False, **BOUNDS)
def pvalue_figure(pvalues: pd.DataFrame, title: str) -> dict:
    """The p-value heatmap of :func:`posthoc_pvalues`, as a figure dict."""
    return pvalue_heatmap(pvalues, alpha=views.POSTHOC_ALPHA, title=title).to_dict()


@st.cache_data(show_spinner=False, **BOUNDS)
def control_table(
    ref: ResultsRef,
    metric: str,
    methods: tuple[str, ...],
    budget: float,
    control: str,
    test: str,
) -> pd.DataFrame:
    """:func:`mlfs_core.views.control_table` of ``ref``'s results."""
    return views.control_table(results(ref), metric, methods, budget, control, test)


@st.cache_data(show_spinner=False, **BOUNDS)
def friedman(
    ref: ResultsRef, metric: str, methods: tuple[str, ...], budget: float
) -> FriedmanResult:
    """:func:`mlfs_core.views.friedman_at` of ``ref``'s results."""
    return views.friedman_at(results(ref), metric, methods, budget)


def similarity(
    ref: ResultsRef, methods: tuple[str, ...], budget: float, percent: bool
) -> pd.DataFrame:
    """Kuncheva similarity matrix of ``methods`` at a budget (% of M or a count):
    :func:`mlfs_core.views.similarity_part` of the matrix of all methods, so
    another choice of methods computes nothing again."""
    return views.similarity_part(_similarity_all(ref, budget, percent), methods)


@st.cache_data(show_spinner="Comparing subsets ...", **BOUNDS)
def _similarity_all(ref: ResultsRef, budget: float, percent: bool) -> pd.DataFrame:
    table = selections(ref)
    if table is None:
        raise ValueError("these results have no selections.csv")
    size = {"budget_pct": budget} if percent else {"budget": int(budget)}
    return similarity_matrix(table, exclude=views.keeps_all_features(), **size)


@st.cache_data(show_spinner="Averaging over folds ...", **BOUNDS)
def curves(ref: ResultsRef, metric: str, methods: tuple[str, ...]) -> pd.DataFrame:
    """:func:`mlfs_core.views.curve_bands` of ``ref``'s results, the band of
    its ``curves.csv`` where it has one (:func:`mlfs_core.views.read_band`)."""
    band = views.read_band(data_file(ref.folder, CURVES_FILE), metric)
    return views.curve_bands(results(ref), metric, methods, band)


@st.cache_data(show_spinner=False, **BOUNDS)
def means_by_dataset(
    ref: ResultsRef, metric: str, methods: tuple[str, ...]
) -> pd.DataFrame:
    """Per-dataset mean over budgets (ATR paper Tables 3-8): datasets x methods."""
    return views.means_by_dataset(results(ref), metric, methods)


# ---- many-method figures: drawn once, restyled per highlight -----------------


@st.cache_data(show_spinner=False, **BOUNDS)
def budget_figure(
    curves: pd.DataFrame,
    metric: str,
    by: str,
    x_title: str,
    higher_is_better: bool | None,
    references: tuple[str, ...],
    wrap: int,
) -> dict:
    """The dict of :func:`~mlfs_core.plots.metric_vs_budget` without a highlight,
    drawn once: a highlight restyles it (:func:`~mlfs_core.plots.highlight_figure`)."""
    looks = {"higher_is_better": higher_is_better, "references": references}
    fig = metric_vs_budget(curves, metric_label=metric, x=by, wrap=wrap, **looks)
    fig.update_xaxes(title_text=x_title)
    return fig.to_dict()


@st.cache_data(show_spinner=False, **BOUNDS)
def rank_figure(
    ranks: pd.DataFrame, by: str, x_title: str, title: str, wrap: int
) -> dict:
    """The dict of :func:`~mlfs_core.plots.average_rank_curves` (panels from the
    ``panel`` column) without a highlight, drawn once per ranks and options."""
    fig = average_rank_curves(
        ranks, x=by, facet="panel", x_title=x_title, title=title, wrap=wrap
    )
    return fig.to_dict()


@st.cache_data(show_spinner=False, **BOUNDS)
def cd_figure(ranks: pd.Series, cd: float, title: str) -> dict:
    """The dict of :func:`~mlfs_core.plots.cd_diagram` (drawn once per ranks)."""
    return cd_diagram(ranks, cd, title=title).to_dict()


# ---- a publication's numbers beside its study (mlfs_core.published) ---------


@st.cache_data(show_spinner="Comparing with the publication ...", **BOUNDS)
def published_ranks(ref: ResultsRef, name: str) -> RankComparison:
    """The rank tables of the registered publication ``name`` beside ``ref``'s."""
    return get_published(name).compare_ranks(results(ref))


@st.cache_data(show_spinner="Comparing with the publication ...", **BOUNDS)
def published_similarity(ref: ResultsRef, name: str) -> SimilarityComparison:
    """The similarity matrix of the registered publication ``name`` beside ours."""
    entry = get_published(name)
    ours = similarity(ref, entry.similarity_methods, entry.similarity_budget, True)
    return entry.compare_similarity(ours)


# ---- Learn pages (mlfs_core.explain) ------------------------------------------


@st.cache_data(show_spinner="Scoring the features ...", **BOUNDS)
def feature_choices(key: DatasetKey, measure: str, top: int) -> list[int]:
    """Indices of the ``top`` features by their best label score (Max)."""
    from mlfs_core.explain import top_feature_scores

    ds = load(key)
    return [int(j) for j in top_feature_scores(ds.X, ds.Y, measure, top=top).columns]


@st.cache_data(show_spinner=False, **BOUNDS)
def opening_pair(key: DatasetKey, binarize: str) -> tuple[int, int]:
    """The Score page's opening (feature, label): a pair that co-occurs
    (:func:`mlfs_core.explain.opening_pair`, by CS)."""
    from mlfs_core.explain import opening_pair as pair

    ds = load(key)
    return pair(ds.X, ds.Y, "chi2", binarize=binarize)


@st.cache_data(show_spinner="Scoring ...", **BOUNDS)
def score_steps(key: DatasetKey, feature: int, label: int, binarize: str):
    """The 2x2 table, CS terms and BNS rates of one (feature, label) pair."""
    from mlfs_core.explain import score_steps as steps

    ds = load(key)
    return steps(ds.X, ds.Y, feature, label, binarize=binarize)


@st.cache_data(show_spinner="Scoring ...", **BOUNDS)
def top_scores(key: DatasetKey, measure: str, top: int, binarize: str) -> pd.DataFrame:
    """Label x feature scores of the ``top`` features (by Max), names as labels."""
    from mlfs_core.explain import top_feature_scores

    ds = load(key)
    named = {"feature_names": ds.feature_names, "label_names": ds.label_names}
    return top_feature_scores(ds.X, ds.Y, measure, top=top, binarize=binarize, **named)


def largest_score(key: DatasetKey, measure: str, binarize: str) -> float:
    """The measure's largest per-label score (the top feature's by Max): the
    top of the Learn heatmaps' colour scale (``plots.score_scale``)."""
    return float(np.nanmax(top_scores(key, measure, 1, binarize).to_numpy()))


@st.cache_data(show_spinner="Aggregating ...", **BOUNDS)
def aggregation_view(
    key: DatasetKey, method: str, k: int, seed: int, weighting: str, binarize: str
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Steps, their score matrix and the label turns of ``method`` (first k picks)."""
    from mlfs_core.explain import method_view

    ds = load(key)
    named = {"feature_names": ds.feature_names, "label_names": ds.label_names}
    options = {"random_state": seed, "weighting": weighting, "binarize": binarize}
    return method_view(ds.X, ds.Y, method, k=k, **options, **named)


@st.cache_data(show_spinner="Comparing ...", **BOUNDS)
def coverage(
    key: DatasetKey,
    methods: tuple[str, str],
    k: int,
    top: int,
    seed: int,
    binarize: str = "presence",
) -> pd.DataFrame:
    """Per label, how many of its own best ``top`` features each method's top k hold."""
    from mlfs_core.explain import compare_coverage

    ds, options = load(key), {"random_state": seed, "binarize": binarize}
    return compare_coverage(
        ds.X, ds.Y, methods, k=k, top=top, label_names=ds.label_names, **options
    )


@st.cache_data(show_spinner=False, **BOUNDS)
def greedy_steps(
    key: DatasetKey, method: str, k: int, params: tuple[tuple[str, object], ...]
):
    """Greedy steps of an information-theoretic method, its terms at every step,
    with a progress bar made here (Streamlit's rule for elements in a cached
    function) and emptied at the end (delicious: 5 s for 20 PMU steps)."""
    from mlfs_core.explain import greedy_steps as steps

    ds = load(key)
    bar = st.progress(0.0, text=f"{method}: selecting {k} features ...")

    def report(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{method}: step {done} of {total}")

    try:
        return steps(ds.X, ds.Y, method, k=k, progress=report, **dict(params))
    finally:
        bar.empty()


@st.cache_data(show_spinner="Finding every instance's neighbours ...", **BOUNDS)
def relief_totals(key: DatasetKey, k: int, scaling: str):
    """RF-ML's sums over every reference instance (does not depend on the one shown)."""
    from mlfs_core.explain import relief_totals as totals

    ds = load(key)
    return totals(ds.X, ds.Y, n_neighbors=k, scaling=scaling)


@st.cache_data(show_spinner="Comparing with the neighbours ...", **BOUNDS)
def relief_steps(key: DatasetKey, reference: int, k: int, scaling: str):
    """One reference instance of RF-ML: its neighbours and its effect on the weights."""
    from mlfs_core.explain import relief_steps as steps

    ds = load(key)
    total = relief_totals(key, k, scaling)
    return steps(ds.X, ds.Y, reference, n_neighbors=k, scaling=scaling, total=total)


@st.cache_data(show_spinner="Checking the data ...", **BOUNDS)
def dense_warning(key: DatasetKey, methods: tuple[str, ...], name: str) -> str | None:
    """:func:`mlfs_core.evaluation.dense_warning` for ``methods`` on ``key``'s
    features (None when sparse enough or ``methods`` is empty)."""
    from mlfs_core.evaluation import dense_warning as warning

    return warning(load(key).X, methods, dataset=name)


@st.cache_data(show_spinner=False, **BOUNDS)
def is_dense(key: DatasetKey) -> bool:
    """Whether the dataset is dense by the rule of the dense-data warning
    (:func:`mlfs_core.data.dense_share` at least ``DENSE_SHARE``)."""
    return engine_data.dense_share(load(key).X) >= engine_data.DENSE_SHARE


@st.cache_data(show_spinner="Fitting, iteration by iteration ...", **BOUNDS)
def sparse_steps(
    key: DatasetKey, method: str, top: int, params: tuple[tuple[str, object], ...]
):
    """A sparse-regression method's objective, ranking and shrinkage, recorded."""
    from mlfs_core.explain import sparse_steps as steps

    ds = load(key)
    return steps(ds.X, ds.Y, method, top=top, **dict(params))


@st.cache_data(show_spinner=False, **BOUNDS)
def upload_label_layout(file_ids: tuple[tuple[str, str], ...], _files: tuple):
    """The label layout the uploaded ``_files`` declare, or None (headers only;
    keyed by the uploader's ``(file name, file id)`` pairs, not the contents)."""
    files = [(f.name, f.getvalue()) for f in _files]
    return engine_data.upload_label_layout(files)
