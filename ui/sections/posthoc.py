"""The Average ranks page's post-hoc tests: which pairs of methods differ.

Under the CD diagram: a heatmap of pairwise p-values (Wilcoxon signed-rank
with Holm's correction, or Nemenyi), significant cells marked, and a table of
every method against a chosen control method (Bonferroni-Dunn or
Wilcoxon-Holm), on the same metric, methods and budget as the Friedman test
above it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mlfs_core.analysis import control_comparisons, nemenyi_pvalues, wilcoxon_holm
from mlfs_core.columns import METHOD, METRIC
from mlfs_core.plots import figure_from_dict, pvalue_heatmap
from mlfs_core.selectors import default_methods

from .. import cached, links, widgets
from ..results import ResultsRef

ALPHA = 0.05
TESTS = {
    "Wilcoxon signed-rank, Holm-adjusted": ("wilcoxon-holm", wilcoxon_holm),
    "Nemenyi (from the average ranks)": ("bonferroni-dunn", nemenyi_pvalues),
}
"""Label -> (the control-method test to pair with it, the pairwise function)."""
CONTROL = "control"
"""The :attr:`~mlfs_core.MethodSpec.default_for` place of the default control
method: the first such registered method among those compared (registry order)."""


def _direction(metric: str) -> bool:
    """The metric's direction; an unknown (uploaded) metric counts as higher-better,
    as on the rest of the page (the metric selector says so)."""
    known = widgets.is_higher_better(metric)
    return True if known is None else known


def _table(ref: ResultsRef, metric: str, methods: tuple[str, ...]) -> pd.DataFrame:
    table = cached.results(ref)
    return table[(table[METRIC] == metric) & table[METHOD].isin(methods)]


def _choice(metric: str, budget: float) -> dict:
    return {
        "metric": metric,
        "budget": budget,
        "higher_is_better": _direction(metric),
        "reference_methods": cached.keeps_all_features(),
    }


# Cached: the page reruns on every widget above (budget slider, metric), and
# the tests, their heatmap and table take about a second together.
@st.cache_data(show_spinner=False, **cached.BOUNDS)
def _pvalues(
    ref: ResultsRef, metric: str, methods: tuple[str, ...], budget: float, label: str
) -> pd.DataFrame:
    pairwise = TESTS[label][1]
    return pairwise(_table(ref, metric, methods), **_choice(metric, budget))


@st.cache_data(show_spinner=False, **cached.BOUNDS)
def _heatmap(pvalues: pd.DataFrame, title: str) -> dict:
    return pvalue_heatmap(pvalues, alpha=ALPHA, title=title).to_dict()


@st.cache_data(show_spinner=False, **cached.BOUNDS)
def _compared(
    ref: ResultsRef,
    metric: str,
    methods: tuple[str, ...],
    budget: float,
    control: str,
    test: str,
) -> pd.DataFrame:
    table = _table(ref, metric, methods)
    return control_comparisons(
        table, control, test=test, alpha=ALPHA, **_choice(metric, budget)
    )


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
        "No post-hoc test here", _pvalues, ref, metric, methods, budget, label
    )
    if pvalues is None:
        return
    where = widgets.budget_text(budget, by)
    widgets.show_figure(
        figure_from_dict(_heatmap(pvalues, f"{label}: {metric} at {where}")),
        pvalues.reset_index(),
        key="posthoc_fig",
        filename=f"posthoc_{control_test}_{metric}",
    )
    st.caption(
        f"Cells marked * (bold, framed) have p ≤ {ALPHA:g}: those two methods "
        "differ significantly. Rows and columns run from the best average rank."
    )
    names = list(pvalues.index)
    default = next((m for m in default_methods(CONTROL) if m in names), names[0])
    opening = widgets.settle("posthoc_control", names, lambda m: m in names, default)
    control = st.selectbox(
        "Control method (every other method against it)",
        names,
        index=0 if opening is None else names.index(opening),
        **links.bound("posthoc_control"),
    )
    widgets.remember("posthoc_control")
    compared = widgets.call_or_error(
        "No control comparison here",
        _compared,
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
