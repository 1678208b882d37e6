"""A publication's numbers beside its study (docs: the app, results sources).

Used by the Average ranks page (rank tables) and the Similarity page (a
similarity matrix) when their results source is a study a plug-in registered
published numbers for (:mod:`mlfs_core.published`; e.g. the papers' package
``mlfs_papers`` registers one publication's rank tables and similarity matrix).
The comparisons
are the plug-in's (through :mod:`ui.cached`); this module only lays them out.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mlfs_core.columns import BUDGET_PCT, METHOD
from mlfs_core.plots import similarity_heatmap
from mlfs_core.published import Published, published_for

from .. import cached, links, widgets
from ..results import ResultsRef

CHOICES = ("ours", "published beside ours")
NOT_SHOWN = (
    "Ours only: the study's numbers are the chart and tables above. Choose "
    '"published beside ours" to set the paper\'s own numbers next to them.'
)
FLOOR_NOTE = (
    "The floor gives every method the same rank (m + 1) / 2 at every budget: "
    "ranks no closer to the paper's than that say nothing about it."
)


def published_entry(ref: ResultsRef, compare: str) -> Published | None:
    """The registered publication with a ``compare`` function for ``ref``.

    None when there is none (without the papers' package no study is a
    source: :func:`ui.results.choose_source` says how to install it).
    """
    for entry in published_for(ref.folder):
        if getattr(entry, compare) is not None:
            return entry
    return None


def _pct(values: pd.Series) -> pd.Series:
    return values.map("{:g}%".format)


def _summary(summary: pd.DataFrame) -> pd.DataFrame:
    shown = summary.assign(
        table=(summary["table"] + " " + summary["measure"]).str.strip()
    ).sort_values(["table", "ranks"], ascending=[True, False], kind="stable")
    return (
        shown[
            ["table", "ranks", "mean_abs_diff", "spearman_mean"]
            + ["best_agree", "best_tie", "best_disagree"]
        ]
        .rename(
            columns={
                "mean_abs_diff": "mean |diff|",
                "spearman_mean": "mean Spearman",
                "best_agree": "best agrees",
                "best_tie": "best tied",
                "best_disagree": "best differs",
            }
        )
        .set_index(["table", "ranks"])
    )  # row labels, not a stray 0, 2, 1, 3 ... index


def _cells(cells: pd.DataFrame, order: tuple[str, ...]) -> pd.DataFrame:
    """Budgets x methods of "paper / ours" cells, methods in ``order`` first."""
    text = cells.assign(
        cell=cells["published"].map("{:.2f}".format)
        + " / "
        + cells["ours"].map("{:.2f}".format)
    )
    wide = text.pivot(index=BUDGET_PCT, columns=METHOD, values="cell")
    rest = [m for m in wide.columns if m not in order]
    wide = wide[[m for m in order if m in wide.columns] + rest]
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


KINDS = {
    "ranks": (("Ranks shown", "ranks_published"), cached.published_ranks),
    "similarity": (("Matrices shown", "sim_published"), cached.published_similarity),
}
"""Kind of comparison -> (its choice's label and key, the cached comparison)."""


def _comparison(ref: ResultsRef, kind: str) -> tuple[Published, object] | None:
    """The registered publication with a ``compare_<kind>`` for ``ref`` and,
    under its heading and "ours / published beside ours" choice, its
    comparison when chosen (None when there is none, it is not chosen, or on
    error: the error is shown).
    """
    entry = published_entry(ref, f"compare_{kind}")
    if entry is None:
        return None
    (label, key), compare = KINDS[kind]
    heading = getattr(entry, f"{kind}_heading")
    st.subheader(f"Published vs ours: {entry.title}'s {heading}")
    shown = st.radio(
        label,
        CHOICES,
        horizontal=True,
        help=getattr(entry, f"{kind}_help"),
        **links.bound(key),
    )
    if shown == CHOICES[0]:
        st.caption(NOT_SHOWN)
        return None
    comparison = widgets.call_or_error(
        "Could not compare with the paper", compare, ref, entry.name
    )
    return None if comparison is None else (entry, comparison)


def ranks_beside_published(ref: ResultsRef, n_datasets: int) -> None:
    """A publication's rank tables beside ours, when one is registered for ``ref``."""
    found = _comparison(ref, "ranks")
    if found is None:
        return
    entry, comparison = found
    st.caption(f"{entry.ranks_note}, ours over {n_datasets}. {FLOOR_NOTE}")
    st.table(_summary(comparison.summary).style.format(precision=2, na_rep=""))
    blocks = comparison.cells.groupby(["table", "measure"], sort=False)
    names = [f"{t} {m}".strip() for t, m in blocks.groups]
    for tab, (key, cells) in zip(st.tabs(names), blocks):
        per = comparison.per_budget.set_index(["table", "measure"]).loc[[key]]
        tab.markdown("Mean rank, paper / ours")
        tab.table(_cells(cells, entry.method_order))
        tab.markdown("Per budget: Spearman's correlation and the best method")
        tab.table(_per_budget(per.reset_index()).style.format(precision=2))


def kuncheva_beside_published(ref: ResultsRef) -> None:
    """A publication's similarity matrix beside ours, when one is registered."""
    found = _comparison(ref, "similarity")
    if found is None:
        return
    entry, comparison = found
    cols = st.columns(3)
    cols[0].metric("Method pairs", f"{len(comparison.pairs)}")
    cols[1].metric("Mean |ours - published|", f"{comparison.mean_abs_diff:.2f}")
    cols[2].metric("Spearman (pairs)", f"{comparison.spearman:.2f}")
    left, right = st.columns(2)
    budget = f"{entry.similarity_budget:g} %"
    for col, matrix, title, key in (
        (left, comparison.published, f"Published ({entry.title})", "sim_pub"),
        (right, comparison.ours, "Ours (the study)", "sim_ours"),
    ):
        col.plotly_chart(
            widgets.styled(similarity_heatmap(matrix, title=title)),
            key=f"{key}_chart",
            config={"displaylogo": False},
            theme=None,  # the figure's own look, as every chart of the app
        )
    fig = similarity_heatmap(
        comparison.difference,
        title=f"Ours - published (Kuncheva at {budget})",
        scale_title="difference",
    )
    widgets.show_figure(
        fig,
        comparison.pairs,
        key="sim_diff",
        filename="kuncheva_ours_minus_published",
    )
