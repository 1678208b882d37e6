"""Comparisons on per-dataset means over budgets, as paper 001's study makes them.

Paper 001's tables rank methods on each dataset's mean over the budgets
k = 1..50, count a method's wins and rank the criterion variants against the
same other methods; the study (``studies/paper001.py``) and the evaluations
of :mod:`mlfs_papers.paper001.evaluations` use these functions. The engine's
own analysis ranks fold by fold (:func:`mlfs_core.analysis.select`,
:func:`~mlfs_core.analysis.friedman_nemenyi`).

The input is the long table of :func:`mlfs_core.analysis.dataset_means`:
columns ``dataset, method, metric, mean`` (one row per dataset, method and
metric; the mean of the metric over every budget, e.g. k = 1..50 selected
features). Every
function here ranks methods within each (dataset, metric), 1 = best, ties
sharing the average of the ranks they span.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mlfs_core.analysis import (
    SUMMARY_COLUMNS,
    check_blocks,
    friedman_nemenyi,
    select,
)
from mlfs_core.columns import DATASET, MEAN, METHOD, METRIC, RANK, VALUE

# Parameters every function here shares, written once ({name} in a docstring).
_PARAMETER_DOCS = {
    "{means}": """means : DataFrame
        Columns ``dataset, method, metric, mean``.""",
    "{higher_is_better}": """higher_is_better : mapping of str to bool, optional
        Direction of each metric (default :data:`mlfs_core.evaluation.METRICS`).""",
    "{missing}": """missing : {"refuse", "drop-blocks"}, default="refuse"
        A (dataset, metric) on which some of ``methods`` has no mean refuses
        the table (:class:`~mlfs_core.errors.IncompleteTableError` names the
        missing (dataset, method, metric) cells); ``"drop-blocks"`` leaves
        such datasets out of that metric and says how many
        (:class:`~mlfs_core.errors.DroppedBlocksWarning`).""",
}

__all__ = ["friedman_on_means", "method_wins", "variant_ranks", "within_dataset_ranks"]

_MISSING = ("refuse", "drop-blocks")


def _directions(higher_is_better: Mapping[str, bool] | None) -> Mapping[str, bool]:
    """Metric name -> direction; default the engine's metric table."""
    if higher_is_better is not None:
        return higher_is_better
    from mlfs_core.evaluation import METRICS

    return {name: spec.higher_is_better for name, spec in METRICS.items()}


def _check_missing(missing: str, caller: str) -> None:
    """Refuse a ``missing=`` value other than ``"refuse"`` or ``"drop-blocks"``."""
    if missing not in _MISSING:
        raise ValueError(
            f"{caller}: missing={missing!r} is not one of "
            f"{', '.join(map(repr, _MISSING))}"
        )


def _complete_means(
    means: pd.DataFrame, methods: Sequence[str], missing: str, caller: str
) -> pd.DataFrame:
    """The rows of ``methods``, their (dataset, metric) blocks checked."""
    _check_missing(missing, caller)
    rows = means[means[METHOD].isin(list(methods))]
    if rows.empty:
        return rows
    table = rows.rename(columns={MEAN: VALUE})
    kept = check_blocks(
        table,
        [DATASET, METRIC],
        methods=list(dict.fromkeys(methods)),
        missing=missing,
        caller=caller,
        stacklevel=3,
    )
    return kept.rename(columns={VALUE: MEAN})


def within_dataset_ranks(
    means: pd.DataFrame,
    methods: Sequence[str],
    *,
    higher_is_better: Mapping[str, bool] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Rank ``methods`` within each (dataset, metric) by their mean.

    Parameters
    ----------
    {means}
    methods : sequence of str
        The methods to rank against each other.
    {higher_is_better}
    {missing}

    Returns
    -------
    DataFrame
        The rows of ``means`` for ``methods`` with a ``rank`` column added.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["a", "a", "a"], "metric": ["m"] * 3,
    ...                   "method": ["X", "Y", "Z"], "mean": [0.2, 0.9, 0.2]})
    >>> within_dataset_ranks(t, ["X", "Y", "Z"], higher_is_better={"m": True})[
    ...     "rank"].tolist()
    [2.5, 1.0, 2.5]
    """
    hib = _directions(higher_is_better)
    parts = []
    rows = _complete_means(means, methods, missing, "within_dataset_ranks")
    for metric, sub in rows.groupby(METRIC):
        ranks = sub.groupby(DATASET)[MEAN].rank(ascending=not hib[metric])
        parts.append(sub.assign(**{RANK: ranks}))
    if not parts:
        return means.iloc[:0].assign(**{RANK: pd.Series(dtype=float)})
    return pd.concat(parts)


def method_wins(
    means: pd.DataFrame,
    method: str,
    among: Sequence[str],
    *,
    higher_is_better: Mapping[str, bool] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Per metric: on how many datasets ``method`` is best among ``among``.

    Parameters
    ----------
    {means}
    method : str
        The method whose wins are counted (one of ``among``).
    among : sequence of str
        The methods ranked against each other.
    {higher_is_better}
    {missing}

    Returns
    -------
    DataFrame
        One row per metric (sorted): ``metric``, ``n_datasets`` (datasets on
        which ``method`` has a mean), ``n_best`` (of those, how many rank it
        first; a tie for first counts as a win only at rank 1.0), ``avg_rank``
        (its average rank, NaN if absent), ``best_method`` and
        ``best_avg_rank`` (the method with the lowest average rank).
    """
    ranked = within_dataset_ranks(
        means, among, higher_is_better=higher_is_better, missing=missing
    )
    rows = []
    for metric, sub in ranked.groupby(METRIC):
        mine = sub[sub[METHOD] == method]
        avg = sub.groupby(METHOD)[RANK].mean().sort_values()
        rows.append(
            {
                METRIC: metric,
                "n_datasets": mine[DATASET].nunique(),
                "n_best": int((mine[RANK] <= 1.0).sum()),
                "avg_rank": float(avg.get(method, np.nan)),
                "best_method": avg.index[0],
                "best_avg_rank": float(avg.iloc[0]),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            METRIC,
            "n_datasets",
            "n_best",
            "avg_rank",
            "best_method",
            "best_avg_rank",
        ],
    )


def variant_ranks(
    means: pd.DataFrame,
    methods: Sequence[str],
    variants: Mapping[str, Mapping[str, str]],
    *,
    higher_is_better: Mapping[str, bool] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Average rank of some methods under each of their variants.

    For each variant, the methods named in it are replaced by the variant's
    labels and the resulting set is ranked within each dataset, so every
    variant is ranked against the same other methods.

    Parameters
    ----------
    {means}
    methods : sequence of str
        The base set of methods.
    variants : mapping of str to mapping of str to str
        Variant name -> {method in ``methods``: its label under that variant},
        e.g. ``{"definition": {"PMU": "PMU"}, "variant": {"PMU":
        "PMU-ref"}}``.
    {higher_is_better}
    {missing}

    Returns
    -------
    DataFrame
        Columns ``metric, method, variant, avg_rank``: one row per metric
        (sorted), variant and method (in the given orders) whose label has
        results.
    """
    columns = [METRIC, METHOD, "variant", "avg_rank"]
    hib = _directions(higher_is_better)
    rows = []
    for metric, sub in means.groupby(METRIC):
        for variant, names in variants.items():
            keep = [m for m in methods if m not in names] + list(names.values())
            one = within_dataset_ranks(
                sub, keep, higher_is_better={metric: hib[metric]}, missing=missing
            )
            avg = one.groupby(METHOD)[RANK].mean()
            rows += [
                {METRIC: metric, METHOD: base, "variant": variant, "avg_rank": avg[lab]}
                for base, lab in names.items()
                if lab in avg
            ]
    return pd.DataFrame(rows, columns=columns)


def friedman_on_means(
    means: pd.DataFrame,
    methods: Sequence[str],
    *,
    metric: str | Sequence[str] | None = None,
    higher_is_better: Mapping[str, bool] | None = None,
    alpha: float = 0.05,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Friedman test and Nemenyi CD across datasets on the means, per metric.

    Parameters
    ----------
    {means}
    methods : sequence of str
        The methods compared.
    metric : str or sequence of str, optional
        Test only this metric (or these); default every metric of ``means``.
        A name not in ``means`` is an error.
    {higher_is_better}
    alpha : float, default=0.05
        Significance level of the critical difference.
    {missing}

    Metrics with fewer than 2 complete datasets are skipped.

    Returns
    -------
    DataFrame
        One row per metric: ``metric, statistic, pvalue, iman_davenport,
        iman_davenport_pvalue, cd, n_datasets, best`` and a ``rank_<method>``
        column per method (average rank); no rows (but these columns) when
        fewer than 2 datasets are complete.
    """
    hib = _directions(higher_is_better)
    if metric is not None:
        wanted = [metric] if isinstance(metric, str) else list(metric)
        present = set(means[METRIC].dropna())
        absent = [m for m in wanted if m not in present]
        if absent:
            raise ValueError(
                f"friedman_on_means: metric {absent[0]!r} is not in the table, "
                f"which holds {', '.join(map(repr, sorted(present))) or 'no metric'}"
            )
        means = means[means[METRIC].isin(wanted)]
    rows = []
    chosen = _complete_means(means, methods, missing, "friedman_on_means")
    for name, sub in chosen.groupby(METRIC):
        table = sub.rename(columns={MEAN: VALUE})[[DATASET, METHOD, VALUE]]
        if table[DATASET].nunique() < 2:
            continue
        res = friedman_nemenyi(select(table, higher_is_better=hib[name]), alpha=alpha)
        ranks = res.ranks[MEAN]
        summary = res.summary()
        del summary["n_methods"]  # the same for every metric: not a column here
        rows.append(
            {
                METRIC: name,
                **summary,
                "best": ranks.idxmin(),
                **{f"rank_{m}": ranks[m] for m in ranks.index},
            }
        )
    shared = [c for c in SUMMARY_COLUMNS if c != "n_methods"]
    columns = [METRIC, *shared, "best"]
    ranks_columns = [c for c in (rows[0] if rows else {}) if c not in columns]
    return pd.DataFrame(rows, columns=[*columns, *ranks_columns])


for _f in (within_dataset_ranks, method_wins, variant_ranks, friedman_on_means):
    for _name, _text in _PARAMETER_DOCS.items():
        _f.__doc__ = _f.__doc__.replace(_name, _text)
