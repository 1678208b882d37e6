"""Paper 000 as published beside the Paper 000 study (docs: the app, results sources).

Used by the Average ranks page (Tables 4 and 5) and the Similarity page
(Table 6) when their results source is the Paper 000 study. The comparison
itself is :mod:`mlfs_papers.paper000.published` (through
:mod:`ui.cached`); this module only lays it out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pandas as pd
import streamlit as st

from mlfs_core.columns import BUDGET_PCT, METHOD
from mlfs_core.plots import similarity_heatmap
from mlfs_papers.paper000.published import BNS_METHODS, CS_METHODS
from mlfs_core.selectors import reference_methods

from .. import cached, links, widgets
from ..results import STUDIES_DIR, STUDY_SOURCES, ResultsRef

PAPER000 = STUDY_SOURCES["Paper 000 study"]
CHOICES = ("ours", "published beside ours")
NOT_SHOWN = (
    "Ours only: the study's numbers are the chart and tables above. Choose "
    '"published beside ours" to set the paper\'s own numbers next to them.'
)
T = TypeVar("T")
FLOOR_NOTE = (
    "The floor is a reproduction that gives every method the same rank "
    "(m + 1) / 2 at every budget: a table no closer to the paper's than that "
    "says nothing about it."
)


def is_paper000_study(ref: ResultsRef) -> bool:
    """Whether ``ref`` is the Paper 000 study's results folder."""
    return Path(ref.folder).resolve() == (STUDIES_DIR / PAPER000 / "app").resolve()


def _pct(values: pd.Series) -> pd.Series:
    return values.map("{:g}%".format)


def _summary(summary: pd.DataFrame) -> pd.DataFrame:
    shown = summary.assign(
        table=(summary["table"] + " " + summary["measure"]).str.strip()
    ).sort_values(["table", "reproduction"], ascending=[True, False], kind="stable")
    return (
        shown[
            ["table", "reproduction", "mean_abs_diff", "spearman_mean"]
            + ["best_agree", "best_tie", "best_disagree"]
        ]
        .rename(
            columns={
                "reproduction": "ranks",
                "mean_abs_diff": "mean |diff|",
                "spearman_mean": "mean Spearman",
                "best_agree": "best agrees",
                "best_tie": "best tied",
                "best_disagree": "best differs",
            }
        )
        .set_index(["table", "ranks"])
    )  # row labels, not a stray 0, 2, 1, 3 ... index


def _cells(cells: pd.DataFrame) -> pd.DataFrame:
    """Budgets x methods of "paper / ours" cells."""
    text = cells.assign(
        cell=cells["published"].map("{:.2f}".format)
        + " / "
        + cells["ours"].map("{:.2f}".format)
    )
    wide = text.pivot(index=BUDGET_PCT, columns=METHOD, values="cell")
    # the paper's order: CS, BNS, then the baselines (the registry's)
    order = [*CS_METHODS, *BNS_METHODS, *reference_methods()]
    wide = wide[[m for m in order if m in wide.columns]]
    wide.index = _pct(pd.Series(wide.index)).to_list()
    return wide.rename_axis("budget")


def _per_budget(per: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "budget": _pct(per[BUDGET_PCT]).to_numpy(),
            "Spearman": per["spearman"].to_numpy(),
            "mean |diff|": per["mean_abs_diff"].to_numpy(),
            "best (paper)": per["published_best"].to_numpy(),
            "best (ours)": per["ours_best"].to_numpy(),
            "best method": per["outcome"].to_numpy(),
        }
    ).set_index("budget")


def _comparison(
    ref: ResultsRef,
    tables: str,
    widget: tuple[str, str],
    help_text: str,
    compare: Callable[[ResultsRef], T],
) -> T | None:
    """Heading and "ours / published beside ours" choice; the comparison when
    chosen (None if not, if ``ref`` is not the Paper 000 study, or on error).
    """
    if not is_paper000_study(ref):
        return None
    st.subheader(f"Published vs ours: paper 000's {tables}")
    label, key = widget
    shown = st.radio(
        label, CHOICES, horizontal=True, help=help_text, **links.bound(key)
    )
    if shown == CHOICES[0]:
        st.caption(NOT_SHOWN)
        return None
    return widgets.call_or_error("Could not compare with the paper", compare, ref)


def ranks_beside_published(ref: ResultsRef, n_datasets: int) -> None:
    """Tables 4 and 5 as published beside ours, when ``ref`` is the Paper 000 study."""
    comparison = _comparison(
        ref,
        "Tables 4 and 5",
        ("Ranks shown", "ranks_published"),
        "The paper's own mean ranks (micro-F1, its 20 datasets) cell by cell "
        "beside the study's.",
        cached.paper000_rank_comparison,
    )
    if comparison is None:
        return
    st.caption(
        "micro-F1, the metric of the paper's tables, whatever metric is chosen "
        f"above. The paper averages over its 20 datasets, ours over {n_datasets}. "
        + FLOOR_NOTE
    )
    st.table(_summary(comparison.summary).style.format(precision=2, na_rep=""))
    blocks = comparison.cells.groupby(["table", "measure"], sort=False)
    names = [f"{t} {m}".strip() for t, m in blocks.groups]
    for tab, (key, cells) in zip(st.tabs(names), blocks):
        per = comparison.per_budget.set_index(["table", "measure"]).loc[[key]]
        tab.markdown("Mean rank, paper / ours")
        tab.table(_cells(cells))
        tab.markdown("Per budget: Spearman's correlation and the best method")
        tab.table(_per_budget(per.reset_index()).style.format(precision=2))


def kuncheva_beside_published(ref: ResultsRef) -> None:
    """Table 6 as published beside ours (50 %), when ``ref`` is the Paper 000 study."""
    comparison = _comparison(
        ref,
        "Table 6 at 50 %",
        ("Matrices shown", "sim_published"),
        "The paper's Kuncheva index at 50 % of the features (its 20 datasets) "
        "beside the study's, and their difference.",
        cached.paper000_kuncheva_comparison,
    )
    if comparison is None:
        return
    cols = st.columns(3)
    cols[0].metric("Method pairs", f"{len(comparison.pairs)}")
    cols[1].metric("Mean |ours - published|", f"{comparison.mean_abs_diff:.2f}")
    cols[2].metric("Spearman (pairs)", f"{comparison.spearman:.2f}")
    left, right = st.columns(2)
    for col, matrix, title, key in (
        (left, comparison.published, "Published (paper 000)", "sim_pub"),
        (right, comparison.ours, "Ours (Paper 000 study)", "sim_ours"),
    ):
        col.plotly_chart(
            widgets.styled(similarity_heatmap(matrix, title=title)),
            key=f"{key}_chart",
            config={"displaylogo": False},
            theme=None,  # the figure's own look, as every chart of the app
        )
    fig = similarity_heatmap(
        comparison.difference,
        title="Ours - published (Kuncheva at 50 %)",
        scale_title="difference",
    )
    widgets.show_figure(
        fig,
        comparison.pairs,
        key="sim_diff",
        filename="kuncheva_ours_minus_published",
    )
