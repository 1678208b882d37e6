"""Paper 000's published Tables 4-6 beside a reproduction.

The published cells are the tidy CSV ``studies/paper000/published.csv``
(columns ``table, row, column, dataset, source, method, other_method, measure,
budget_pct, statistic, value``, values as printed). These functions turn it and
a protocol-A results table into the paper's tables and compare them with
:mod:`mlfs_papers.compare`:

- :func:`published_ranks`, :func:`published_kuncheva`: Tables 4/5 (mean rank per
  budget) and Table 6 (Kuncheva at 50 %) as printed.
- :func:`reproduction_ranks`: our Tables 4 and 5 from results, ranked as the
  paper ranks them (Table 4 within each measure's four aggregations, Table 5
  among its six methods with AF, evaluated once, a reference at every budget).
- :func:`rank_comparison`: cells side by side, per-budget Spearman and best
  method, and the summary with the constant-rank floor, for both tables.
- :func:`kuncheva_comparison`: Table 6 pair by pair, mean |diff|, Spearman
  and the difference matrix.

The paper's rank tables are micro-F1 (:data:`PUBLISHED_METRIC`). Every table
here shows the paper's own method labels: the engine's random baseline
``Random`` is the paper's ``RFS`` (:data:`PAPER_LABELS`, the one place that
maps them; :func:`paper_label`, :func:`engine_name`, :func:`with_paper_labels`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mlfs_core.analysis import budget_column, rank_table, select
from mlfs_core.columns import BUDGET_PCT, MEAN, METHOD
from mlfs_core.errors import ConfigError
from mlfs_core.published import RankComparison, SimilarityComparison

from ..compare import (
    DIFF,
    OURS,
    PUBLISHED,
    _spearman,
    agreement_summary,
    per_budget_agreement,
    side_by_side,
)

CS_METHODS = ("MaxCS", "MeanCS", "RoRCS", "RaRCS")
BNS_METHODS = ("MaxBNS", "MeanBNS", "RoRBNS", "RaRBNS")
TABLE5_METHODS = ("MeanBNS", "RaRBNS", "MaxCS", "MeanCS", "RFS", "AF")
"""Table 5's methods, as the paper labels them."""
PAPER_LABELS = {"Random": "RFS"}
"""Engine method name -> paper 000's label, where the two differ.

The paper calls its random baseline RFS ("random feature selection"); in the
engine ``RFS`` is Nie et al.'s sparse-regression method (2010) and the random
baseline is ``Random``. The study's results carry the engine's names; every
table of this package that shows paper 000's numbers, or ours beside them,
carries the paper's labels.
"""
MEASURE = "measure"
PUBLISHED_METRIC = "micro_f1"
_COLUMNS = ("table", METHOD, MEASURE, BUDGET_PCT, "statistic", "value")


def paper_label(method: str) -> str:
    """Paper 000's label of the engine's method ``method`` (:data:`PAPER_LABELS`).

    Examples
    --------
    >>> paper_label("Random"), paper_label("MaxCS")
    ('RFS', 'MaxCS')
    """
    return PAPER_LABELS.get(method, method)


def engine_name(label: str) -> str:
    """The engine's name of paper 000's method label ``label``.

    Examples
    --------
    >>> engine_name("RFS"), engine_name("MaxCS")
    ('Random', 'MaxCS')
    """
    return _ENGINE_NAMES.get(label, label)


_ENGINE_NAMES = {label: name for name, label in PAPER_LABELS.items()}


def with_paper_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the engine's method names replaced by paper 000's labels.

    The ``method`` column when there is one, else the index and the columns (a
    methods x methods matrix such as Kuncheva's).

    Examples
    --------
    >>> with_paper_labels(pd.DataFrame({"method": ["Random", "AF"]}))["method"].tolist()
    ['RFS', 'AF']
    >>> m = pd.DataFrame([[1.0]], index=["Random"], columns=["Random"])
    >>> float(with_paper_labels(m).loc["RFS", "RFS"])
    1.0
    """
    if METHOD in frame.columns:
        return frame.assign(**{METHOD: frame[METHOD].map(paper_label)})
    return frame.rename(index=paper_label, columns=paper_label)


def _cells(published: pd.DataFrame, table: int) -> pd.DataFrame:
    missing = [c for c in _COLUMNS if c not in published.columns]
    if missing:
        raise ConfigError(f"the published table lacks the column(s) {missing}")
    cells = published[published["table"].astype(str) == str(table)]
    if cells.empty:
        raise ConfigError(f"the published table has no Table {table} cells")
    return cells


def published_ranks(published: pd.DataFrame, table: int) -> pd.DataFrame:
    """Table 4 or 5 as printed: ``measure, budget_pct, method, mean``.

    Table 5's ``measure`` is empty. ``published`` is read with every column
    as a string (``dtype=str, keep_default_na=False``) or as numbers.

    Examples
    --------
    >>> p = pd.DataFrame({"table": ["5"], "method": ["AF"], "measure": [""],
    ...                   "budget_pct": ["10"], "statistic": ["mean"],
    ...                   "value": ["2.55"]})
    >>> published_ranks(p, 5).values.tolist()
    [['', 10.0, 'AF', 2.55]]
    """
    if table not in (4, 5):
        raise ConfigError(f"paper 000's rank tables are 4 and 5, not {table}")
    cells = _cells(published, table)
    cells = cells[cells["statistic"] == "mean"]
    return pd.DataFrame(
        {
            MEASURE: cells[MEASURE].astype(str).to_numpy() if table == 4 else "",
            BUDGET_PCT: cells[BUDGET_PCT].astype(float).to_numpy(),
            METHOD: cells[METHOD].to_numpy(),
            MEAN: cells["value"].astype(float).to_numpy(),
        }
    )


def published_kuncheva(published: pd.DataFrame) -> pd.DataFrame:
    """Table 6 as printed: methods x methods (both orders), diagonal 1; NaN
    across measures (the paper compares CS with CS and BNS with BNS only).
    """
    cells = _cells(published, 6)
    if "other_method" not in cells.columns:
        raise ConfigError("the published table lacks the column 'other_method'")
    matrix = cells.assign(value=cells["value"].astype(float)).pivot(
        index=METHOD, columns="other_method", values="value"
    )
    order = [m for m in CS_METHODS + BNS_METHODS if m in matrix.index]
    matrix = matrix.loc[order, order].to_numpy(dtype=float, copy=True)
    np.fill_diagonal(matrix, 1.0)
    return pd.DataFrame(matrix, index=order, columns=order)


def reproduction_ranks(
    results: pd.DataFrame, metric: str = PUBLISHED_METRIC
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our Tables 4 (with ``measure``, CS then BNS) and 5 (``measure`` empty).

    Parameters
    ----------
    results : DataFrame
        Protocol A results (``dataset, method, budget_pct, fold, metric,
        value``; AF once at 100 %).
    metric : str, default="micro_f1"
        The metric ranked (the paper's tables are micro-F1).

    Returns
    -------
    (DataFrame, DataFrame)
        :func:`~mlfs_core.analysis.rank_table` output of each table
        (``budget_pct, method, mean, std, n_datasets, best``) plus ``measure``,
        methods under the paper's labels (:func:`with_paper_labels`).
    """

    def ranks(methods: tuple[str, ...]) -> pd.DataFrame:
        sub = results[results[METHOD].isin([engine_name(m) for m in methods])]
        refs = ("AF",) if "AF" in methods else ()
        by = [budget_column(sub)]
        table = rank_table(select(sub, metric=metric, by=by, reference_methods=refs))
        # rank_table's order (budget, then method name), of the paper's labels
        return with_paper_labels(table).sort_values([*by, METHOD], ignore_index=True)

    table4 = pd.concat(
        [
            ranks(group).assign(**{MEASURE: name})
            for group, name in ((CS_METHODS, "CS"), (BNS_METHODS, "BNS"))
        ],
        ignore_index=True,
    )
    return table4, ranks(TABLE5_METHODS).assign(**{MEASURE: ""})


def rank_comparison(
    published: pd.DataFrame, table4: pd.DataFrame, table5: pd.DataFrame
) -> RankComparison:
    """Tables 4 and 5 against the paper: cells, per budget, summary with the floor.

    ``table4``/``table5`` are ours (:func:`reproduction_ranks`); the
    comparison covers the cells both sides have.
    """
    cells, per, summary = [], [], []
    for name, table, ours in (("Table 4", 4, table4), ("Table 5", 5, table5)):
        pub = published_ranks(published, table)
        groups = [MEASURE]
        tag = {"table": name}
        both = side_by_side(pub, ours, groups=groups)
        cells.append(both.assign(**tag))
        per.append(per_budget_agreement(both, groups=groups).assign(**tag))
        summary.append(agreement_summary(both, groups=groups).assign(**tag))

    def first(frames: list[pd.DataFrame]) -> pd.DataFrame:
        out = pd.concat(frames, ignore_index=True)
        return out[["table", *[c for c in out.columns if c != "table"]]]

    return RankComparison(first(cells), first(per), first(summary))


def kuncheva_comparison(
    published: pd.DataFrame, ours: pd.DataFrame
) -> SimilarityComparison:
    """Table 6 pair by pair: published vs our Kuncheva matrix at 50 %.

    Parameters
    ----------
    published : DataFrame
        The published cells (Table 6 is taken from them).
    ours : DataFrame
        Our Kuncheva matrix (methods x methods, both orders), under the
        engine's names or the paper's labels.

    Raises
    ------
    ConfigError
        The two matrices share no pair of methods.

    Examples
    --------
    >>> p = pd.DataFrame({"table": "6", "method": ["MaxCS", "MeanCS"],
    ...     "other_method": ["MeanCS", "MaxCS"], "measure": "", "budget_pct": "50",
    ...     "statistic": "kuncheva", "value": ["0.80", "0.80"]})
    >>> o = pd.DataFrame([[1.0, 0.6], [0.6, 1.0]], index=["MaxCS", "MeanCS"],
    ...                  columns=["MaxCS", "MeanCS"])
    >>> round(kuncheva_comparison(p, o).mean_abs_diff, 2)
    0.2
    """
    cells = _cells(published, 6)
    ours = with_paper_labels(ours)
    rows = [
        {"pair": f"{a}/{b}", PUBLISHED: float(v), OURS: float(ours.loc[a, b])}
        for a, b, v in cells[[METHOD, "other_method", "value"]].itertuples(index=False)
        if a < b and a in ours.index and b in ours.columns
    ]
    if not rows:
        raise ConfigError("the published and our Table 6 share no pair of methods")
    pairs = pd.DataFrame(rows)
    pairs[DIFF] = pairs[OURS] - pairs[PUBLISHED]
    theirs = published_kuncheva(published)
    shared = [m for m in theirs.index if m in ours.index]
    theirs = theirs.loc[shared, shared]
    mine = ours.loc[shared, shared].astype(float)
    return SimilarityComparison(
        pairs,
        theirs,
        mine,
        mine - theirs,
        float(pairs[DIFF].abs().mean()),
        _spearman(pairs[PUBLISHED].to_numpy(), pairs[OURS].to_numpy()),
    )
