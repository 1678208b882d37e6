"""Learn: a greedy information-theoretic selection, each step's criterion in terms."""

import streamlit as st

import mlfs_core
from mlfs_core.explain import term_names
from mlfs_core.plots import criterion_path_figure, greedy_terms_figure
from ui import cached, links, presentation, widgets
from ui.sections import learn, methods

step_area, chart_area, note_area, options = presentation.headed(
    "A greedy step",
    "The information-theoretic greedy methods build the selected set S one "
    "feature at a time: every remaining feature f gets a criterion J(f | S), and "
    "the best joins S. J adds up relevance to the labels, label interactions and "
    "a redundancy penalty against what S already holds (in bits).",
    "Method, steps and formula",
    steps=True,
)
name, key, features, labels = learn.loaded_dataset()

with options:
    cols = st.columns([2, 3])
    names, family_of = learn.greedy_methods()
    if not names:
        st.error("No registered method has a criterion formula to show step by step.")
        st.stop()
    many = len(set(family_of.values())) > 1
    method = cols[0].selectbox(
        "Method",
        names,
        index=learn.first_default(names),
        # family after family; the family is named once there is more than one
        format_func=(lambda m: f"{m} · {family_of[m]}") if many else str,
        **links.bound("greedy_method"),
    )
    k = cols[1].slider(
        "Steps (features to select)",
        2,
        min(20, len(features)),
        min(8, len(features)),
        **links.bound("greedy_k"),
    )
    with st.expander(methods.options_title(method)):
        params = widgets.method_params(method, key="greedy")
    st.markdown(f"**{method}.** {mlfs_core.get_method(method).description}")
    learn.formula(
        f"J(f | S) = {mlfs_core.get_method(method).formula}\n"
        "R(f) = sum_i I(f; l_i);  I(f; s; l) = I(f; s) - I(f; s | l);  "
        "with S empty every redundancy term is 0"
    )

result = widgets.call_or_error(
    f"{method} could not rank {name}", cached.greedy_steps, key, method, k, params
)
if result is None:
    st.stop()

playing = learn.playing("greedy_step", last=k)
with step_area:
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    step = left.slider(
        "Step",
        1,
        k,
        on_change=learn.stop_playing,
        args=("greedy_step",),
        **links.bound("greedy_step"),
    )
    learn.play_button(
        right, "greedy_step", is_playing=playing, first=1, last=k, what="the steps"
    )
picked = result.path.iloc[step - 1]
with note_area:
    st.info(
        f"Step {step}: **{features[int(picked['feature'])]}** joins S with "
        f"J = {picked['criterion']:.4g} bits"
        + ("" if step > 1 else " (S is empty: no redundancy yet)")
        + "."
    )
shown = result.candidates[result.candidates["step"] == step]
with chart_area:
    widgets.show_figure(
        presentation.under_steps(
            greedy_terms_figure(shown, result.terms, feature_names=features)
        ),
        shown.assign(feature=[features[j] for j in shown["feature"]]).rename(
            columns=dict(zip(result.terms, term_names(result.terms), strict=True))
        ),
        key="learn_greedy_terms",
        filename=f"greedy_terms_{method}_step{step}",
    )
widgets.show_figure(
    criterion_path_figure(result.path, feature_names=features, upto=step),
    result.path.assign(feature=[features[j] for j in result.path["feature"]]),
    key="learn_greedy_path",
    filename=f"criterion_path_{method}",
)
planted = learn.planted_note(
    key, result.path["feature"].tolist()[:step], what=learn.first_picks(step)
)
path_table = result.path.head(step).assign(
    feature=[
        learn.feature_label(features, int(j), planted)
        for j in result.path["feature"][:step]
    ]
)
st.dataframe(
    path_table,
    hide_index=True,
    # the terms' formulas as headers are wider than a projector's page: short
    # headers, the formula in each header's help (and in the chart's legend)
    column_config=learn.term_columns(path_table.columns, terms=result.terms),
)
learn.play_next("greedy_step", is_playing=playing, current=step, last=k)
