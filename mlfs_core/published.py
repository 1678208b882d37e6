"""A publication's own numbers beside a study's results: what a plug-in registers.

A plug-in that reruns a publication's study (installed, entry-point group
``mlfs_explorer.plugins``) registers a :class:`Published` record with
:func:`register_published`: the results folder of its study, and functions
that set the publication's rank tables and similarity matrix beside those
results. The app asks :func:`published_for` which records apply to the
results it shows and lays out their :class:`RankComparison` and
:class:`SimilarityComparison`; the engine itself registers none and names no
publication.

Looking a record up loads the installed plug-ins first
(:func:`mlfs_core.plugins.load_plugins`), so an installed plug-in is found
without being imported by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from .errors import ConfigError

__all__ = [
    "Published",
    "RankComparison",
    "SimilarityComparison",
    "get_published",
    "published_for",
    "register_published",
    "registered_published",
]


class RankComparison(NamedTuple):
    """Published mean-rank tables beside ours, one ``table`` column each.

    Attributes
    ----------
    cells : DataFrame
        ``table, measure, budget_pct, method, published, ours, diff``: one
        row per cell both sides have (``measure`` empty when a table has one).
    per_budget : DataFrame
        ``table, measure, budget_pct, spearman, mean_abs_diff,
        published_best, ours_best, outcome``: the agreement at each budget.
    summary : DataFrame
        ``table, measure, ranks, mean_abs_diff, spearman_mean, best_agree,
        best_tie, best_disagree``: per table, one row for our ranks
        (``ranks == "ours"``) and one for a floor to beat (e.g. every method
        at the same rank).
    """

    cells: pd.DataFrame
    per_budget: pd.DataFrame
    summary: pd.DataFrame


class SimilarityComparison(NamedTuple):
    """A published similarity matrix of methods beside ours.

    Attributes
    ----------
    pairs : DataFrame
        ``pair, published, ours, diff``: one row per unordered pair of methods.
    published, ours : DataFrame
        The two matrices (methods x methods) on the methods both sides have.
    difference : DataFrame
        ``ours - published``.
    mean_abs_diff : float
        The mean of ``|diff|`` over the pairs.
    spearman : float
        Spearman's correlation of the pairs' published and our values.
    """

    pairs: pd.DataFrame
    published: pd.DataFrame
    ours: pd.DataFrame
    difference: pd.DataFrame
    mean_abs_diff: float
    spearman: float


@dataclass(frozen=True)
class Published:
    """A publication's numbers, to be shown beside its study's results.

    Attributes
    ----------
    name : str
        The registry key.
    title : str
        How the app names the publication in headings (e.g. ``"Smith (2020)"``).
    results : Path or None
        The study's results folder (``results.csv``, ``selections.csv``) the
        comparisons apply to; None: shown beside no results.
    results_label : str
        How the app names ``results`` among its results sources (default:
        ``title``). A record with a results folder and no comparisons makes
        a study's results a source of the app and nothing else.
    ranks_heading, ranks_help, ranks_note : str
        The rank tables' name (e.g. ``"Tables 4 and 5"``), the help of the
        choice to show them and a note on what they hold.
    compare_ranks : callable or None
        ``compare_ranks(results) -> RankComparison`` from the study's results
        table; None: the publication has no rank tables.
    method_order : tuple of str
        The publication's order of the methods (columns of the cell tables).
    similarity_heading, similarity_help : str
        As the ``ranks_*`` texts, for the similarity matrix.
    similarity_methods : tuple of str
        The methods of the published similarity matrix.
    similarity_budget : float
        The budget (% of the features) of the published matrix.
    compare_similarity : callable or None
        ``compare_similarity(ours) -> SimilarityComparison`` from our matrix of
        ``similarity_methods`` at ``similarity_budget``; None: no matrix.
    """

    name: str
    title: str
    results: Path | None = None
    results_label: str = ""
    ranks_heading: str = ""
    ranks_help: str = ""
    ranks_note: str = ""
    compare_ranks: Callable[[pd.DataFrame], RankComparison] | None = None
    method_order: tuple[str, ...] = ()
    similarity_heading: str = ""
    similarity_help: str = ""
    similarity_methods: tuple[str, ...] = ()
    similarity_budget: float = 50.0
    compare_similarity: Callable[[pd.DataFrame], SimilarityComparison] | None = None


_REGISTRY: dict[str, Published] = {}


def register_published(entry: Published) -> Published:
    """Register ``entry`` under its name (a later one replaces it).

    Parameters
    ----------
    entry : Published
        The record.

    Returns
    -------
    Published
        ``entry``, so a plug-in can keep it as a module constant.

    Raises
    ------
    ConfigError
        ``entry`` is not a :class:`Published` or has an empty name.
    """
    if not isinstance(entry, Published) or not entry.name:
        raise ConfigError("register_published takes a Published record with a name")
    _REGISTRY[entry.name] = entry
    return entry


def _load_installed_plugins() -> None:
    from .plugins import load_plugins

    load_plugins(entry_points=True, environment=True)


def registered_published() -> list[str]:
    """The names of the registered records, installed plug-ins' included.

    Returns
    -------
    list of str
        Sorted.
    """
    _load_installed_plugins()
    return sorted(_REGISTRY)


def get_published(name: str) -> Published:
    """The record registered as ``name``.

    Parameters
    ----------
    name : str
        A registered name.

    Returns
    -------
    Published

    Raises
    ------
    ConfigError
        No record has that name (the message lists those there are).
    """
    if name not in _REGISTRY:
        _load_installed_plugins()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise ConfigError(f"no published results named {name!r} (registered: {known})")
    return _REGISTRY[name]


def published_for(folder) -> list[Published]:
    """The records whose study's results are the folder ``folder``.

    Parameters
    ----------
    folder : str or Path
        A results folder.

    Returns
    -------
    list of Published
        By name; empty when none applies.
    """
    here = Path(folder).resolve()
    return [
        _REGISTRY[name]
        for name in registered_published()
        if _REGISTRY[name].results is not None
        and Path(_REGISTRY[name].results).resolve() == here
    ]
