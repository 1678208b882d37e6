"""Learn: a greedy information-theoretic selection, each step's criterion in terms."""

import streamlit as st

import mlfs_core
from mlfs_core.plots import criterion_path_figure, greedy_terms_figure
from ui import cached, widgets
from ui.sections import learn

st.title("A greedy step")
st.caption(
    "The information-theoretic methods of paper 001 build the selected set S one "
    "feature at a time: every remaining feature f gets a criterion J(f | S), and "
    "the best joins S. J adds up relevance to the labels, label interactions and "
    "a redundancy penalty against what S already holds (in bits)."
)
name, key = widgets.current_dataset()
if not widgets.load_or_error(key):
    st.stop()
_, features, labels = cached.names(key)

cols = st.columns([2, 3])
methods, family_of = learn.greedy_methods()
if not methods:
    st.error("No registered method has a criterion formula to show step by step.")
    st.stop()
many = len(set(family_of.values())) > 1
method = cols[0].selectbox(
    "Method",
    methods,
    index=learn.first_default(methods),
    key="learn_greedy_method",
    # family after family; the family is named once there is more than one
    format_func=(lambda m: f"{m} · {family_of[m]}") if many else str,
)
k = cols[1].slider(
    "Steps (features to select)",
    2,
    min(20, len(features)),
    min(8, len(features)),
    key="learn_greedy_k",
)
with st.expander(f"{method} options (discretization, tau, variant)"):
    params = widgets.method_params(method, key="learn_greedy")
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

step = st.slider("Step", 1, k, 1, key="learn_greedy_step")
picked = result.path.iloc[step - 1]
st.info(
    f"Step {step}: **{features[int(picked['feature'])]}** joins S with "
    f"J = {picked['criterion']:.4g} bits"
    + ("" if step > 1 else " (S is empty: no redundancy yet)")
    + "."
)
shown = result.candidates[result.candidates["step"] == step]
widgets.show_figure(
    greedy_terms_figure(shown, result.terms, feature_names=features),
    shown.assign(feature=[features[j] for j in shown["feature"]]),
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
