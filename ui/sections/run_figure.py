"""The Experiment page's figure of the run just finished."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from mlfs_core import views
from mlfs_core.columns import METHOD, METRIC
from mlfs_core.plots import average_rank_curves, metric_vs_budget

from .. import cached, choices, widgets
from ..results import RESULTS_FILE, results_ref


def show_run_figure(folder: str) -> None:
    """Average ranks when the run covers 2 or more datasets, else metric vs budget."""
    path = Path(folder) / RESULTS_FILE
    if not path.is_file():
        return
    ref = results_ref(folder)
    table = cached.results(ref)
    metrics = [str(m) for m in table[METRIC].unique()]
    # the analysis pages' default metric (or the one chosen there last)
    carried = st.session_state.get(choices.METRIC_MEMORY)
    metric = carried if carried in metrics else choices.default_metric(metrics)
    methods = tuple(str(m) for m in table[METHOD].unique())
    if len(choices.datasets_in(table)) >= 2:
        # the analysis refuses a table with missing cells (a stopped run's): an
        # st.error naming them, not a traceback
        curves = widgets.call_or_error(
            "No average ranks for this run",
            cached.rank_curves,
            ref,
            metric,
            methods,
            False,
        )
        if curves is None:
            return
        by = choices.budget_axis(curves)
        fig = average_rank_curves(
            curves,
            x=by,
            x_title=choices.budget_title(by),
            title=f"This run: average rank by {metric} (lower is better)",
        )
    else:
        curves = cached.curves(ref, metric, methods)
        by = choices.budget_axis(curves)
        fig = metric_vs_budget(
            curves,
            metric_label=metric,
            x=by,
            higher_is_better=views.known_direction(metric),
            references=views.keeps_all_features(),
            title=f"This run: {metric} vs budget",
        )
        fig.update_xaxes(title_text=choices.budget_title(by))
        st.caption(
            "One dataset: metric vs budget. With 2 or more datasets this shows "
            "the methods' average ranks; the other metrics are on the analysis pages."
        )
    # the page's main chart: in presentation mode sized to end above the fold
    widgets.show_figure(fig, curves, key="exp_fig", filename=f"run_{metric}", main=True)
