"""Metric vs budget: paper 001 Figures 1-6 and the per-dataset means (Tables 3-8)."""

import streamlit as st

from mlfs_core.plots import figure_from_dict, highlight_figure
from mlfs_core.selectors import reference_methods
from ui import cached, tables, widgets

st.title("Metric vs number of selected features")
BANDS_UP_TO = 36
"""Most curves (datasets x methods) shown with spread bands by default: each
band is one more trace, and plotly.js's drawing time follows the traces
(4 panels of 12 methods: 96 traces with bands, 48 without)."""
FIRST_PANELS = 4
"""Datasets drawn when the chart opens (more on request): 11 panels of 12
lines are hard to read, and each highlight redraws every panel."""
st.caption(
    "Mean over folds and repeats; the band spans mean ± one standard deviation "
    "(or the interval the results file gives), drawn by default when the chart "
    f"shows at most {BANDS_UP_TO} curves. The chart opens on the first "
    f"{FIRST_PANELS} datasets; "
    "pick others or all of them above it. Baselines drawn as references "
    "are long-dashed flat lines across the budgets: a baseline that keeps all "
    "features (AF) has one value, not a curve."
)


@st.fragment
def _chart(curves, methods: tuple[str, ...], datasets: list[str]) -> None:
    """The chart and its controls: changing them reruns only this part, and a
    highlight restyles the cached figure rather than drawing it again."""
    highlight, shown = widgets.chart_controls(
        methods, datasets, key="budget", panel_word="datasets", first=FIRST_PANELS
    )
    if not shown:
        st.info("Pick at least one dataset to draw.")
        return
    references = list(cached.keeps_all_features())  # the registry's baselines
    randoms = [m for m in reference_methods("random") if m in methods]
    if randoms:
        listed = ", ".join(randoms)
        if st.toggle(
            f"Draw {listed} (random features) as a reference line too",
            value=False,
            key="budget_rfs_reference",
            help=f"The mean of {listed} over the budgets as a flat line, like the "
            "baselines that keep every feature, instead of a curve.",
        ):
            references += randoms
    few = len(shown) * len(methods) <= BANDS_UP_TO
    bands = st.toggle(
        "Spread bands (mean ± one standard deviation)",
        value=few,
        key=f"budget_bands_{'few' if few else 'many'}",  # each case keeps its choice
        help=f"On by default for up to {BANDS_UP_TO} curves: with more "
        "the bands double what the browser draws on every change.",
    )
    drawn = curves[curves["dataset"].isin(shown)]
    if not bands:
        drawn = drawn.drop(columns=["lower", "upper"], errors="ignore")
    with st.spinner("Drawing the chart ..."):  # 11 panels x 12 methods: ~1 s
        spec = cached.budget_figure(
            drawn,
            metric,
            by,
            widgets.budget_title(by),
            hib,
            tuple(references),
            1 if len(shown) == 1 else 2,
        )
    fig = figure_from_dict(highlight_figure(spec, highlight))
    widgets.show_figure(fig, curves, key="budget_fig", filename=f"curves_{metric}")


# one indicator for the whole first open: its parts are each shorter than
# a spinner's 0.5 s delay, together longer than 1.5 s on a loaded machine
with st.spinner("Averaging over folds and drawing the curves ..."):
    ref, table = widgets.chosen_results(prefer=("paper 001 study", "protocol b"))

    metric, methods = widgets.metric_and_methods(
        table, key="budget", default_metric="hamming_loss"
    )
    curves = widgets.call_or_error(
        "No curves here", cached.curves, ref, metric, methods
    )
    if curves is None or curves.empty:
        st.info("Choose at least one method with results.")
        st.stop()

    datasets = widgets.datasets_in(curves)
    hib = widgets.is_higher_better(metric)
    by = widgets.budget_axis(curves)

    _chart(curves, methods, datasets)

    st.subheader(f"Mean {metric} over all budgets, per dataset (best in bold)")
    means = cached.means_by_dataset(ref, metric, methods)
    tables.show_wide(
        lambda cols: tables.best_bold(means, higher_is_better=hib, columns=cols),
        list(means.columns),
    )
    st.download_button(
        "Download the table (CSV)",
        means.to_csv(),
        file_name=f"means_{metric}.csv",
        mime="text/csv",
        key="means_csv",
        on_click="ignore",
    )
