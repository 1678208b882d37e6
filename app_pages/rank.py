"""Rank features: one method's ranking, a side-by-side comparison, planted truth."""

import streamlit as st

from mlfs_core.evaluation import escape_csv_text
from mlfs_core.plots import feature_score_bar, precision_at_k_curve
from mlfs_core.selectors import topk_side_by_side
from ui import cached, links, presentation, widgets
from ui.sections import full_ranking, methods

st.title("Rank features")
# presentation mode: the score chart right under the title, the choices and
# the table in an expander under it; else choices, table and chart as usual
chart_area, options = presentation.chart_first("Method, features shown and the table")
# one indicator for the whole first open: its parts are each shorter than
# a spinner's 0.5 s delay, together longer than 1.5 s on a loaded machine
with st.spinner("Ranking the features ..."):
    name, key = widgets.current_dataset()
    seed = widgets.seed()
    if not widgets.load_or_error(key, dense_note_apart=True):
        st.stop()

    with options:
        # on dense data MaxCS opens with binarize = "median", not on ties
        method, params = methods.pick_method(key="rank_a", dense=cached.is_dense(key))
        top = st.slider("Features to show", 5, 100, 20, **links.bound("rank_top"))
    n_features = cached.load(key).X.shape[1]
    k_default = min(20, n_features)
    # the comparison's top k, before its widget (further down) is drawn
    k = min(int(st.session_state.get("rank_k") or k_default), n_features)
    table = full_ranking.top_ranking(
        key, method, params, seed, max(top, k), what=f"{method} could not rank {name}"
    )
    if table is None:
        st.stop()

    shown = min(top, len(table))  # flags has M = 43: "top 43", not "top 100"
    with options:
        presenting = presentation.is_on()
        st.subheader(f"Top {shown} features of {name} by {method}")
        # in the open, above the table and the chart (under the chart when
        # presenting): CS/BNS on dense data rank noise
        with chart_area if presenting else st.container():
            methods.dense_note(key, name, [(method, params)], shown=table.head(shown))
        order_only = full_ranking.is_order_only(method)
        tie = None if order_only else full_ranking.tie_note(table.head(shown))
        if tie:
            st.caption(tie)
        if order_only:  # no chart: when presenting, this in its place
            (chart_area if presenting else st).info(
                f"{method} ranks features by their order alone (for instance ranks "
                "of ranks, a random draw, or a random order), so it has no score "
                "of strength: "
                f"the “score” is the position turned around, {n_features} for the "
                f"1st feature, {n_features - 1} for the 2nd and so on. It orders the "
                "features and says nothing about how far apart they are, so no bar "
                "chart is drawn. To see how strongly features relate to the labels, "
                "rank with MaxCS or MeanBNS, or open Learn: aggregation.",
                icon=":material/info:",
            )
        elif full_ranking.is_stepwise(method):
            st.caption(
                "Score: the criterion value J(f | S) when the feature was selected."
            )
        # the table, then the chart: side by side, half of a 1024 px page hides the
        # score column
        left = st.container()
        right = None if order_only else (chart_area if presenting else st.container())
        left.dataframe(
            full_ranking.display_table(
                table.head(shown), order_only=order_only, n_features=n_features
            ),
            hide_index=True,
            height=full_ranking.table_height(shown),
            column_config=full_ranking.column_config(order_only=order_only),
        )
        with left:
            full = table if len(table) == n_features else None
            if full is None:
                full = full_ranking.full_ranking(
                    key, method, params, seed, n_features=n_features
                )
            if full is not None:
                st.download_button(
                    "Download the full ranking (CSV)",
                    escape_csv_text(full).to_csv(index=False),
                    file_name=f"ranking_{method}.csv",
                    mime="text/csv",
                    key="rank_csv",
                    on_click="ignore",
                )
    if right is not None:
        with right:
            widgets.show_figure(
                feature_score_bar(table, top=shown, title=f"{method}: top {shown}"),
                table.head(shown),
                key="rank_bar",
                filename=f"scores_{method}",
                main=True,
            )

    st.subheader("Compare with another method")
    with st.container(border=True):
        other, other_params = methods.pick_method(
            key="rank_b",
            default_family="information-theoretic",
            dense=cached.is_dense(key),
        )
        k = st.number_input(
            "Top k to compare", 1, n_features, k_default, **links.bound("rank_k")
        )
        if int(k) > len(table):  # a link's k, larger than what was ranked above
            table = full_ranking.top_ranking(
                key, method, params, seed, int(k), what=f"{method} could not rank"
            )
            if table is None:
                st.stop()
        other_table = full_ranking.top_ranking(
            key,
            other,
            other_params,
            seed,
            int(k),
            what=f"{other} could not rank {name}",
        )
        if other_table is not None:
            side, overlap = topk_side_by_side(
                table, other_table, int(k), (method, other)
            )
            st.metric(f"Features in both top-{k} lists", f"{overlap} of {k}")
            st.dataframe(
                side, hide_index=True, height=full_ranking.table_height(len(side))
            )

    if cached.planted_truth(key):
        st.subheader("Planted-truth recovery (precision@k)")
        chosen = st.multiselect(
            "Methods",
            methods.all_methods(),
            default=methods.default_comparison(),
            **links.bound("rank_truth"),
        )
        k_max = st.slider("Largest k", 5, 200, 50, **links.bound("rank_kmax"))
        curves = cached.precision_curves(key, tuple(chosen), seed, k_max)
        widgets.show_figure(
            precision_at_k_curve(curves), curves, key="truth", filename="precision_at_k"
        )
