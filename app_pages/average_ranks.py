"""Average ranks (as Spolaôr and Tsoumakas (2013), Figure 1, Tables 4/5), the
Friedman test and the CD diagram."""

import streamlit as st

from mlfs_core.plots import figure_from_dict, highlight_figure
from ui import cached, choices, links, presentation, tables, widgets
from ui.sections import posthoc, published

chart_area, options, shown = presentation.headed(
    "Average ranks",
    "For each dataset and budget the methods are ranked by the metric (1 = "
    "best, ties share the average rank); the curves show the mean rank over "
    "datasets.",
    "Results, metric, methods and notes",
    source=True,
)
# one indicator for the whole page: a progress bar at once on the first open
# (its parts are each shorter than a spinner's delay), a spinner after
with widgets.page_wait("average_ranks", "Ranking the methods ...") as step:
    with options:
        ref, table = choices.chosen_results(protocol="A", shown_in=shown)
    step(0.2)

    n_datasets = len(choices.datasets_in(table))
    with options:
        if n_datasets < 2:
            st.info(
                'These results cover one dataset, so each "average" rank is just '
                "that dataset's rank (std 0) and there is no Friedman test: average "
                "ranks need results on at least 2 datasets (e.g. a registered "
                "study)."
            )
        metric, methods = choices.metric_and_methods(table, key="ranks")
        by_measure = st.toggle(
            "A panel per measure (rank CS and BNS methods separately)",
            value=True,
            help="As Spolaôr and Tsoumakas (2013), Figure 1: each panel ranks "
            "one measure's methods, "
            "with the baselines Random and AF in every panel as references.",
            **links.bound("ranks_by_measure"),
        )
    curves = widgets.call_or_error(
        "Could not rank", cached.rank_curves, ref, metric, methods, by_measure
    )
    if curves is None or curves.empty:
        st.info("Choose at least two methods with results.")
        st.stop()

    step(0.4)
    by = choices.budget_axis(curves)
    panels = [str(p) for p in curves["panel"].unique() if p]

    per_panel = int(curves.groupby("panel")["method"].nunique().max())

    @st.fragment
    def _chart(curves, methods: tuple[str, ...], panels: list[str]) -> None:
        """The chart and its controls: changing them reruns only this part (not
        the Friedman test, CD diagram and post-hoc tests below), and a highlight
        restyles the cached figure rather than drawing it again."""
        figure_area, controls = presentation.chart_first("Chart choices")
        with controls:
            highlight, shown = choices.chart_controls(
                methods, panels, key="ranks", panel_word="panels", per_panel=per_panel
            )
        if panels and not shown:
            controls.info("Pick at least one panel to draw.")
            return
        with figure_area, st.spinner("Drawing the chart ..."):
            spec = cached.rank_figure(
                curves[curves["panel"].isin(shown)] if panels else curves,
                by,
                choices.budget_title(by),
                f"Average rank by {metric} (lower is better)",
                1 if len(shown) == 1 else 2,
            )
            widgets.show_figure(
                figure_from_dict(highlight_figure(spec, highlight)),
                curves,
                key="ranks_fig",
                filename=f"average_ranks_{metric}",
                main=True,
            )

    with chart_area:
        _chart(curves, methods, panels)
    step(0.6)

    st.subheader("Mean (std) of the ranks; the best of each row in bold")
    for panel, part in curves.groupby("panel", sort=False):
        if panel:
            st.markdown(f"**{panel}**")
        tables.show_wide(
            lambda cols, part=part: tables.mean_std_styler(part, by=by, columns=cols),
            list(dict.fromkeys(part["method"])),
        )

    published.ranks_beside_published(ref, n_datasets)
    step(0.75)

    @st.fragment
    def _tests(curves, methods: tuple[str, ...]) -> None:
        """Friedman test, CD diagram and post-hoc tests at one budget: moving
        the budget slider reruns only this part, not the chart and tables above."""
        st.subheader("Friedman test and critical difference at one budget")
        budget = choices.budget_slider(
            "Budget", choices.budgets_of(curves, by), by, key="ranks_budget"
        )
        if n_datasets < 2:
            st.info(
                "The Friedman test and the CD diagram need results on at least "
                "two datasets: run an experiment on several datasets or upload "
                "such results."
            )
            return
        result = widgets.call_or_error(
            "No Friedman test here", cached.friedman, ref, metric, methods, budget
        )
        if result is not None:
            cols = st.columns(4)
            cols[0].metric("Friedman chi-squared", f"{result.statistic:.2f}")
            cols[1].metric("p-value", f"{result.pvalue:.3g}")
            cols[2].metric(
                "CD (α = 0.05)",
                f"{result.cd:.2f}",
                help="Nemenyi's critical difference of average ranks at alpha 0.05",
            )
            cols[3].metric(
                "Datasets x methods", f"{result.n_datasets} x {result.n_methods}"
            )
            cols = st.columns(4)
            cols[0].metric("Iman-Davenport F", f"{result.iman_davenport:.2f}")
            cols[1].metric("p-value (F)", f"{result.iman_davenport_pvalue:.3g}")
            cols[2].caption(
                "Demšar (2006) recommends Iman-Davenport's F over the "
                "chi-squared form, which is too conservative."
            )
            ranks = result.ranks["mean"]
            where = choices.budget_text(budget, by)
            widgets.show_figure(
                figure_from_dict(
                    cached.cd_figure(ranks, result.cd, f"{metric} at {where}")
                ),
                result.ranks.reset_index(),
                key="cd_fig",
                filename="cd_diagram",
            )
            posthoc.show_posthoc(ref, metric, methods, budget, by)

    _tests(curves, methods)
