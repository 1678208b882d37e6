"""The Average ranks page's post-hoc tests: which pairs of methods differ.

Under the CD diagram: a heatmap of pairwise p-values (Wilcoxon signed-rank
with Holm's correction, or Nemenyi), significant cells marked, and a table of
every method against a chosen control method (Bonferroni-Dunn or
Wilcoxon-Holm), on the same metric, methods and budget as the Friedman test
above it.
"""

from __future__ import annotations

import streamlit as st

from mlfs_core import views
from mlfs_core.plots import figure_from_dict
from mlfs_core.selectors import default_methods

from .. import cached, choices, links, widgets
from ..results import ResultsRef

TESTS = {
    "Wilcoxon signed-rank, Holm-adjusted": ("wilcoxon-holm", "wilcoxon-holm"),
    "Nemenyi (from the average ranks)": ("bonferroni-dunn", "nemenyi"),
}
"""Label -> (the control-method test to pair with it, the pairwise test of
:data:`mlfs_core.views.PAIRWISE_TESTS`)."""
CONTROL = "control"
"""The :attr:`~mlfs_core.MethodSpec.default_for` place of the default control
method: the first such registered method among those compared (registry order)."""


def show_posthoc(
    ref: ResultsRef, metric: str, methods: tuple[str, ...], budget: float, by: str
) -> None:
    """Pairwise p-value heatmap and control-method table at one budget."""
    st.subheader("Which pairs differ? Post-hoc tests")
    label = st.radio(
        "Pairwise test",
        list(TESTS),
        horizontal=True,
        **links.bound("posthoc_test"),
        help="Benavoli et al. (2016) recommend the Wilcoxon signed-rank test with "
        "Holm's correction: its verdict on two methods does not depend on which "
        "other methods are compared, unlike the mean-ranks tests (Nemenyi).",
    )
    control_test = TESTS[label][0]
    pvalues = widgets.call_or_error(
        "No post-hoc test here",
        cached.posthoc_pvalues,
        ref,
        metric,
        methods,
        budget,
        TESTS[label][1],
    )
    if pvalues is None:
        return
    where = choices.budget_text(budget, by)
    widgets.show_figure(
        figure_from_dict(
            cached.pvalue_figure(pvalues, f"{label}: {metric} at {where}")
        ),
        pvalues.reset_index(),
        key="posthoc_fig",
        filename=f"posthoc_{control_test}_{metric}",
    )
    st.caption(
        f"Cells marked * (bold, framed) have p ≤ {views.POSTHOC_ALPHA:g}: those "
        "two methods "
        "differ significantly. Rows and columns run from the best average rank."
    )
    _against_control(ref, metric, methods, budget, list(pvalues.index), control_test)


def _against_control(
    ref: ResultsRef,
    metric: str,
    methods: tuple[str, ...],
    budget: float,
    names: list[str],
    control_test: str,
) -> None:
    """The control-method picker and the table of every method against it."""
    default = next((m for m in default_methods(CONTROL) if m in names), names[0])
    opening = choices.settle("posthoc_control", names, lambda m: m in names, default)
    control = st.selectbox(
        "Control method (every other method against it)",
        names,
        index=0 if opening is None else names.index(opening),
        **links.bound("posthoc_control"),
    )
    choices.remember("posthoc_control")
    compared = widgets.call_or_error(
        "No control comparison here",
        cached.control_table,
        ref,
        metric,
        methods,
        budget,
        control,
        control_test,
    )
    if compared is None:
        return
    name = "Bonferroni-Dunn" if control_test == "bonferroni-dunn" else "Wilcoxon-Holm"
    st.markdown(f"Every method against **{control}**, by {name}:")
    st.dataframe(
        compared.drop(columns=["control"]).round(
            {"rank": 2, "control_rank": 2, "statistic": 3}
        ),
        hide_index=True,
        column_config={
            "pvalue": st.column_config.NumberColumn("p", format="%.4g"),
            "pvalue_adjusted": st.column_config.NumberColumn(
                "p (adjusted)", format="%.4g"
            ),
        },
    )
