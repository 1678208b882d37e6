"""Learn: RF-ML for one reference instance, its neighbours and the weights it moves."""

import streamlit as st

from mlfs_core.plots import neighbour_scatter, weight_shift_figure
from mlfs_core.selectors import SCALINGS
from ui import cached, links, presentation, widgets
from ui.sections import learn

AXIS_TITLE_PX = 30

step_area, chart_area, note_area, options = presentation.headed(
    "Neighbours and weights (RF-ML)",
    "RF-ML (Spolaôr, Cherman, Monard and Lee, 2013) is ReliefF for multi-label "
    "data. Each instance in turn is a reference: its k nearest instances by "
    "feature distance are compared with it. A feature gains weight when it "
    "differs where their labels differ, and loses weight when it differs where "
    "their labels agree.",
    "Neighbours, scaling and features shown",
    steps=True,
)
name, key, features, labels = learn.loaded_dataset()
n = int(cached.stats(key)["N"])
if n < 2:
    st.error(f"{name} has {n} instance: RF-ML needs two to compare.")
    st.stop()

with options:
    cols = st.columns(3)
    k = cols[0].slider(
        "Neighbours k",
        1,
        max(2, min(30, n - 1)),
        min(10, n - 1),
        **links.bound("relief_k"),
    )
    k = min(k, n - 1)
    scaling = cols[1].selectbox(
        "Feature scaling", SCALINGS, **links.bound("relief_scaling")
    )
    top = cols[2].slider("Features shown", 5, 30, 12, **links.bound("relief_top"))
    learn.formula(
        "d_Y(r, j) = Hamming(Y_r, Y_j) / q;  diff_i(r, j) = |x_ri - x_ji|\n"
        "N_Y += d_Y / k;  N_F[i] += diff_i / k;  N_YF[i] += d_Y diff_i / k\n"
        "W[i] = N_YF[i] / N_Y - (N_F[i] - N_YF[i]) / (m - N_Y)"
    )

playing = learn.playing("relief_reference", last=n - 1)
with step_area:
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    reference = left.slider(
        "Reference instance",
        0,
        n - 1,
        0,
        on_change=learn.stop_playing,
        args=("relief_reference",),
        **links.bound("relief_reference"),
    )
    learn.play_button(
        right,
        "relief_reference",
        is_playing=playing,
        first=0,
        last=n - 1,
        what="the instances",
    )

steps = widgets.call_or_error(
    f"RF-ML could not compare the instances of {name}",
    cached.relief_steps,
    key,
    reference,
    k,
    scaling,
)
if steps is None:
    st.stop()

near = steps.neighbours
scatter = presentation.under_steps(
    neighbour_scatter(
        steps.points,
        title=f"Instance {reference}: its {steps.k} nearest neighbours "
        "among the other instances",
    )
)
if presentation.is_on():  # its x-axis title needs a line more above the fold
    scatter.update_layout(height=scatter.layout.height - AXIS_TITLE_PX)
with chart_area:
    widgets.show_figure(
        scatter,
        steps.points,
        key="learn_relief_neighbours",
        filename=f"relief_neighbours_{reference}",
    )
    if len(steps.points) < steps.n_points:
        st.caption(
            f"{len(steps.points)} of the {steps.n_points} other instances are "
            "drawn: every neighbour, the rest evenly spaced by distance."
        )
with note_area:
    st.info(
        f"Instance {reference}: its {steps.k} nearest neighbours lie at feature "
        f"distance {near['feature_distance'].min():.3g} to "
        f"{near['feature_distance'].max():.3g} and differ, on average, in "
        f"{near['label_distance'].mean() * len(labels):.2g} of its "
        f"{len(labels)} labels. N_Y moves from {steps.n_y[0]:.4g} to "
        f"{steps.n_y[1]:.4g}."
    )

widgets.show_figure(
    weight_shift_figure(steps.weights, feature_names=features, top=top),
    steps.weights.assign(name=[features[j] for j in steps.weights["feature"]]),
    key="learn_relief_weights",
    filename=f"relief_weights_{reference}",
)
st.caption(
    "Without this instance: the weights from every other reference; with it: "
    "RF-ML's weights, which rank the features. The features shown are the "
    f"{top} of highest weight."
)
st.dataframe(
    near.assign(labels_differing=(near["label_distance"] * len(labels)).round()),
    hide_index=True,
)
learn.play_next("relief_reference", is_playing=playing, current=reference, last=n - 1)
