"""Similarity: Kuncheva consistency of the selected subsets at a budget (Table 6)."""

import streamlit as st

from mlfs_core import views
from mlfs_core.plots import similarity_heatmap
from ui import cached, choices, presentation, widgets
from ui.sections import published

chart_area, options, shown = presentation.headed(
    "Similarity of selected subsets",
    "Kuncheva's index of two equal-size subsets: 1 = identical, 0 = the "
    "overlap expected by chance, negative = less overlap than chance; averaged "
    "over folds and datasets (as in Spolaôr and Tsoumakas (2013), Table 6).",
    "Results, methods, budget and notes",
    source=True,
)
with options:
    ref, table = choices.chosen_results(protocol="A", shown_in=shown)
    methods = choices.methods_picker(table, key="sim")
    by = choices.budget_axis(table.dropna(axis=1, how="all"))
    budget = choices.budget_slider(
        choices.budget_title(by), choices.budgets_of(table, by), by, key="sim_budget"
    )
matrix = widgets.call_or_error(
    "No similarity here", cached.similarity, ref, methods, budget, by == "budget_pct"
)
if matrix is not None and not matrix.empty:
    size = choices.budget_text(budget, by)
    fig = similarity_heatmap(matrix, title=f"Kuncheva similarity at {size}")
    with chart_area:
        widgets.show_figure(
            fig, matrix.reset_index(), key="sim_fig", filename="similarity", main=True
        )
    absent = [m for m in methods if m not in matrix.index]
    if absent:  # say why a chosen method has no row instead of dropping it silently
        every = [m for m in absent if m in views.keeps_all_features()]
        keeps = "keeps" if len(every) == 1 else "keep"
        why = f" ({', '.join(every)} {keeps} every feature)" if every else ""
        st.caption(
            f"Not in the heatmap: {', '.join(absent)}: no subset of {size}{why}."
        )
elif matrix is not None:
    st.info("Fewer than two methods have subsets of this size.")

published.kuncheva_beside_published(ref)
