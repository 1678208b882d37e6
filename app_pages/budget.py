"""Metric vs budget: paper 001 Figures 1-6 and the per-dataset means (Tables 3-8)."""

import streamlit as st

from mlfs_core.plots import metric_vs_budget
from ui import cached, tables, widgets

st.title("Metric vs number of selected features")
st.caption("Mean over folds and repeats; the band spans mean ± one standard deviation.")
ref, table = widgets.chosen_results(prefer=("paper 001 study", "protocol b"))

metric, methods = widgets.metric_and_methods(
    table, key="budget", default_metric="hamming_loss"
)
curves = widgets.call_or_error("No curves here", cached.curves, ref, metric, methods)
if curves is None or curves.empty:
    st.info("Choose at least one method with results.")
    st.stop()

hib = widgets.is_higher_better(metric)
by = widgets.budget_axis(curves)
fig = metric_vs_budget(curves, metric_label=metric, x=by, higher_is_better=hib)
fig.update_xaxes(title_text=widgets.budget_title(by))
widgets.show_figure(fig, curves, key="budget_fig", filename=f"curves_{metric}")

st.subheader(f"Mean {metric} over all budgets, per dataset (best in bold)")
means = cached.means_by_dataset(ref, metric, methods)
st.table(tables.best_bold(means, higher_is_better=hib))
st.download_button(
    "Download the table (CSV)",
    means.to_csv(),
    file_name=f"means_{metric}.csv",
    mime="text/csv",
    key="means_csv",
    on_click="ignore",
)
