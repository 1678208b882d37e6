"""Learn: one chi-squared / BNS score, step by step, and the per-label score heatmap."""

import streamlit as st

from mlfs_core.measures import MEASURE_LABELS
from mlfs_core.plots import label_score_heatmap
from ui import cached, links, presentation, widgets
from ui.sections import learn, methods

st.title("A score, step by step")
presenting = presentation.is_on()
# presentation mode: the heatmap (section 4) right under the title, its
# choices in an expander under it, then the steps with Play as usual
if presenting:
    chart_area = st.container()
    chart_options = st.expander(
        "The heatmap's measure and features", icon=":material/tune:"
    )
st.caption(
    "Spolaôr and Tsoumakas (2013) score every feature once per label (Binary "
    "Relevance) from a 2x2 "
    "table: in how many samples the feature is present or absent, and the label "
    "positive or negative. Pick a feature and a label to see the numbers, or "
    "press Play to see them for every label in turn."
)
# one indicator for the whole first open: its parts are each shorter than
# a spinner's 0.5 s delay, together longer than 1.5 s on a loaded machine
with st.spinner("Scoring the features ..."):
    name, key, features, labels = learn.loaded_dataset()

    cols = st.columns([3, 2, 2])
    binarize = learn.present_when(cols[2], key="score_rule")
    choices = cached.feature_choices(key, "chi2", min(200, len(features)))
    # it opens on a pair that co-occurs (the first label's best such feature)
    first_feature, first_label = cached.opening_pair(key, binarize)
    if first_feature not in choices:
        choices = [first_feature, *choices]
    feature = cols[0].selectbox(
        "Feature (the 200 best by their best CS)",
        choices,
        index=choices.index(first_feature),
        format_func=lambda j: learn.feature_label(features, j),
        **links.bound("score_feature"),
    )
    # Play shows this feature's table and scores for every label in turn
    playing = learn.playing("score_label", last=len(labels) - 1)
    label = cols[1].selectbox(
        "Label",
        range(len(labels)),
        index=first_label,
        format_func=labels.__getitem__,
        on_change=learn.stop_playing,
        args=("score_label",),
        **links.bound("score_label"),
    )
    learn.play_button(
        cols[1],
        "score_label",
        is_playing=playing,
        first=0,
        last=len(labels) - 1,
        what="this feature's table and scores for every label",
    )
    if binarize == learn.PRESENCE:  # CS and BNS count a non-zero value as present
        measures = [MEASURE_LABELS[m] for m in learn.EXPLAINED_MEASURES]
        methods.dense_note(key, name, names=measures, cure=learn.DENSE_CURE)
    steps = widgets.call_or_error(
        "Could not score", cached.score_steps, key, feature, label, binarize
    )
    if steps is None:
        st.stop()

    st.subheader(f"1. The 2x2 table of {features[feature]} and {labels[label]}")
    st.table(steps.table())
    # one after the other, not side by side: at 1024 px a half-width column cuts
    # the BNS table's last column (quantile)
    left, right = st.container(), st.container()
    with left:
        st.subheader("2. Chi-squared (CS)")
        st.caption(
            "Compare each cell with what it would hold if feature and label were "
            "independent (the expected count); big gaps mean a strong association."
        )
        learn.formula(learn.CS_FORMULA)
        st.table(steps.cs_terms.set_index("cell").style.format("{:.4g}"))
        st.metric("CS = sum of the four terms", f"{steps.cs:.4g}")
    with right:
        st.subheader("3. Bi-Normal Separation (BNS)")
        st.caption(
            "How far apart the feature's rate among positives (tpr) and among "
            "negatives (fpr) are, on the normal-quantile scale; rates are clipped so "
            "that 0 and 1 stay finite."
        )
        learn.formula(learn.BNS_FORMULA)
        st.table(steps.bns_rates.style.format("{:.4g}"))
        st.metric("BNS = |F⁻¹(tpr) − F⁻¹(fpr)|", f"{steps.bns:.4g}")
    learn.planted_note(key, [feature], what="this feature", marked=False)

    with chart_options if presenting else st.container():
        st.subheader("4. Every label's score of the top features")
        measure = st.radio(
            "Measure",
            learn.EXPLAINED_MEASURES,
            format_func=MEASURE_LABELS.get,
            horizontal=True,
            **links.bound("score_measure"),
        )
        top = st.slider(
            "Top features (by their best label score)",
            5,
            40,
            20,
            **links.bound("score_top"),
        )
    matrix = cached.top_scores(key, measure, top, binarize)
    short = MEASURE_LABELS[measure]
    drawn, _, rows_note = presentation.fewer_rows(matrix)
    with chart_area if presenting else st.container():
        widgets.show_figure(
            label_score_heatmap(
                drawn,
                title=f"{short} of the top {top} features, per label",
                zmax=cached.largest_score(key, measure, binarize),
            ),
            matrix.reset_index(names="label"),
            key="learn_heat",
            filename=f"label_scores_{measure}",
            main=True,
        )
        if rows_note:
            st.caption(rows_note)
    st.caption(
        "A feature can be excellent for one label and useless for the others: the "
        "aggregation (next page) decides how such rows become one ranking."
    )
    st.page_link("app_pages/aggregation.py", label="Next: an aggregation, step by step")
learn.play_next("score_label", is_playing=playing, current=label, last=len(labels) - 1)
