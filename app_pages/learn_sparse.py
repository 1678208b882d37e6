"""Learn: a sparse-regression method (RFS, LLSF, MIFS), iteration by iteration."""

import streamlit as st

import mlfs_core
from mlfs_core.plots import (
    objective_path_figure,
    ranking_settles_figure,
    shrinkage_figure,
)
from ui import cached, choices, links, presentation, widgets
from ui.sections import learn, methods

FAMILY = "sparse-regression"

chart_area, options = presentation.headed(
    "Sparse regression, iteration by iteration",
    "These methods fit the labels from the features with a coefficient matrix W "
    "(a row per feature) under a penalty that empties whole rows; a feature's "
    "score is the length of its row, ||W_i||. They improve W step by step: the "
    "objective falls, the ranking settles, and a larger penalty shrinks the rows.",
    "Method, features followed and options",
)
name, key, features, labels = learn.loaded_dataset()

with options:
    names = mlfs_core.list_methods(FAMILY)
    if not names:
        st.error("No sparse-regression method is registered.")
        st.stop()
    cols = st.columns([2, 3])
    method = cols[0].selectbox(
        "Method",
        names,
        index=learn.first_default(names),
        **links.bound("sparse_method"),
    )
    top = cols[1].slider(
        "Features to follow (the final best)",
        3,
        min(12, len(features)),
        min(8, len(features)),
        **links.bound("sparse_top"),
    )
    with st.expander(methods.options_title(method)):
        # one key per method: alpha, beta, tol ... have other defaults in each
        params = widgets.method_params(method, key=f"sparse_{method.lower()}")
    spec = mlfs_core.get_method(method)
    st.markdown(f"**{method}** ({spec.citation}). {spec.description}")

result = widgets.call_or_error(
    f"{method} could not fit {name}", cached.sparse_steps, key, method, top, params
)
if result is None:
    st.stop()

iterations = int(result.objective["iteration"].iloc[-1])
with chart_area:
    widgets.show_figure(
        objective_path_figure(result.objective, method=method),
        result.objective,
        key="learn_sparse_objective",
        filename=f"objective_{method}",
        main=True,
    )
    st.caption(
        f"{method} stopped after {choices.plural(iterations, 'iteration')}: the "
        "relative change of the objective fell below tol, or max_iter was reached "
        "(set tol to 0 in the options to run every iteration)."
    )

st.subheader("The top features as the ranking settles")
named = result.positions.assign(name=[features[j] for j in result.positions["feature"]])
widgets.show_figure(
    ranking_settles_figure(result.positions, feature_names=features, top=result.top),
    named,
    key="learn_sparse_positions",
    filename=f"ranking_settles_{method}",
)
st.subheader(f"The row norms shrink as {result.penalty} grows")
st.caption(
    f"The same fit again with {result.penalty} at 0.1 to 10 times its value: a "
    "larger penalty pushes more rows of W towards zero, and only the strongest "
    "features keep a long row."
)
shrunk = result.shrinkage.assign(
    name=[features[j] for j in result.shrinkage["feature"]]
)
widgets.show_figure(
    shrinkage_figure(
        result.shrinkage, penalty=result.penalty, feature_names=features, top=result.top
    ),
    shrunk,
    key="learn_sparse_shrinkage",
    filename=f"shrinkage_{method}",
)
