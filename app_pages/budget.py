"""Metric vs budget: curves of a metric over budgets, per dataset, and the
per-dataset means."""

import streamlit as st

from mlfs_core import views
from mlfs_core.evaluation import escape_csv_text
from mlfs_core.plots import figure_from_dict, highlight_figure
from mlfs_core.selectors import reference_methods
from ui import cached, choices, links, presentation, tables, widgets

# Most curves (datasets x methods) shown with spread bands when the chart
# opens: each band is one more trace, and plotly.js's drawing time follows the
# traces (4 panels of 12 methods: 96 traces with bands, 48 without).
BANDS_UP_TO = 36
# Datasets drawn when the chart opens (more on request): 11 panels of 12 lines
# are hard to read, and each highlight redraws every panel. In presentation
# mode the first row only, so the chart fits a 1280 x 720 screen.
FIRST_PANELS = 4
FIRST_PANELS_PRESENTING = 2

first_panels = FIRST_PANELS_PRESENTING if presentation.is_on() else FIRST_PANELS
chart_area, options, shown = presentation.headed(
    "Metric vs number of selected features",
    "Mean over folds and repeats; the band spans mean ± one standard deviation "
    "(or the interval the results file gives), drawn with the *Spread bands* "
    f"toggle: on when the chart opens on at most {BANDS_UP_TO} curves "
    "(datasets x methods), off above that. The chart "
    f"opens on {first_panels} datasets (the sidebar's, if the results have it, "
    "and the first others); pick others or all of them "
    "with *Show the datasets*. Baselines drawn as references are long-dashed "
    "flat lines across the budgets: a baseline that keeps all features (AF) "
    "has one value, not a curve.",
    "Results, metric, methods and notes",
    source=True,
)


@st.fragment
def _random_references(methods: tuple[str, ...]) -> list[str]:
    """The random-features baselines the reader draws as flat reference lines."""
    randoms = [m for m in reference_methods("random") if m in methods]
    if not randoms:
        return []
    listed = ", ".join(randoms)
    drawn_flat = st.toggle(
        f"Draw {listed} (random features) as a reference line too",
        value=False,
        help=f"The mean of {listed} over the budgets as a flat line, like "
        "the baselines that keep every feature, instead of a curve.",
        **links.bound("budget_rfs_reference"),
    )
    return randoms if drawn_flat else []


def _chart(curves, methods: tuple[str, ...], datasets: list[str]) -> None:
    """The chart and its controls: changing them reruns only this part, and a
    highlight restyles the cached figure rather than drawing it again."""
    figure_area, controls = presentation.chart_first("Chart choices")
    with controls:
        highlight, shown = choices.chart_controls(
            methods,
            datasets,
            key="budget",
            panel_word="datasets",
            first=first_panels,
            lead=widgets.current_dataset()[0],  # the sidebar's dataset first
        )
    if not shown:
        controls.info("Pick at least one dataset to draw.")
        return
    references = list(views.keeps_all_features())  # the registry's baselines
    with controls:
        references += _random_references(methods)
        few = len(shown) * len(methods) <= BANDS_UP_TO
        # each case keeps its own choice
        bands = st.toggle(
            "Spread bands (mean ± one standard deviation)",
            value=few,
            help=f"On by default for up to {BANDS_UP_TO} curves: with more "
            "the bands double what the browser draws on every change.",
            **links.bound(f"budget_bands_{'few' if few else 'many'}"),
        )
    drawn = curves[curves["dataset"].isin(shown)]
    if not bands:
        drawn = drawn.drop(columns=["lower", "upper"], errors="ignore")
    with figure_area, st.spinner("Drawing the chart ..."):  # 11 x 12 lines: ~1 s
        spec = cached.budget_figure(
            drawn,
            metric,
            by,
            choices.budget_title(by),
            hib,
            tuple(references),
            1 if len(shown) == 1 else 2,
        )
        fig = figure_from_dict(highlight_figure(spec, highlight))
        widgets.show_figure(
            fig, curves, key="budget_fig", filename=f"curves_{metric}", main=True
        )


# one indicator for the whole first open: its parts are each shorter than
# a spinner's 0.5 s delay, together longer than 1.5 s on a loaded machine
with st.spinner("Averaging over folds and drawing the curves ..."):
    with options:
        ref, table = choices.chosen_results(protocol="B", shown_in=shown)
        metric, methods = choices.metric_and_methods(table, key="budget")
    curves = widgets.call_or_error(
        "No curves here", cached.curves, ref, metric, methods
    )
    if curves is None or curves.empty:
        st.info("Choose at least one method with results.")
        st.stop()

    datasets = choices.datasets_in(curves)
    hib = views.known_direction(metric)
    by = choices.budget_axis(curves)

    with chart_area:
        _chart(curves, methods, datasets)

    st.subheader(f"Mean {metric} over all budgets, per dataset (best in bold)")
    means = cached.means_by_dataset(ref, metric, methods)
    tables.show_wide(
        lambda cols: tables.best_bold(means, higher_is_better=hib, columns=cols),
        list(means.columns),
    )
    st.download_button(
        "Download the table (CSV)",
        escape_csv_text(means.reset_index()).to_csv(index=False),
        file_name=f"means_{metric}.csv",
        mime="text/csv",
        key="means_csv",
        on_click="ignore",
    )
