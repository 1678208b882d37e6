"""MLFS Explorer: the Streamlit app's router and shared sidebar.

Run with ``streamlit run app.py``. Pages live in ``pages/<section>/``, one
folder per navigation section; they read their widgets, call the engine
through :mod:`ui.cached` and render.

Why the sub-folders: Streamlit still switches to its legacy "v1" multipage
mode whenever a ``pages/`` folder holds ``*.py`` files directly beside the main
script. In that mode the first run of a fresh server (a deep link such as
``/rank``) and every AppTest rerun execute the page script alone, without this
router's sidebar and session defaults. Scripts in sub-folders are not picked
up by that scan, so ``st.navigation`` below is always in charge.
"""

import streamlit as st

from ui import warmup

st.set_page_config(page_title="MLFS Explorer", page_icon="📊", layout="wide")
warm_up = warmup.start()  # before the heavy imports below

from ui import state, widgets  # noqa: E402

state.init_state()

PAGES = {
    "Explore": [
        st.Page(
            "pages/explore/data.py", title="Data", icon=":material/table:", default=True
        ),
        st.Page("pages/explore/rank.py", title="Rank features", icon=":material/sort:"),
    ],
    "Compare methods": [
        st.Page(
            "pages/compare/experiment.py", title="Experiment", icon=":material/science:"
        ),
        st.Page(
            "pages/compare/average_ranks.py",
            title="Average ranks",
            icon=":material/leaderboard:",
        ),
        st.Page(
            "pages/compare/similarity.py", title="Similarity", icon=":material/grid_on:"
        ),
        st.Page(
            "pages/compare/budget.py",
            title="Metric vs budget",
            icon=":material/show_chart:",
        ),
    ],
    "Learn": [
        st.Page(
            "pages/learn/score.py",
            title="A score, step by step",
            icon=":material/calculate:",
        ),
        st.Page(
            "pages/learn/aggregation.py",
            title="An aggregation, step by step",
            icon=":material/merge:",
        ),
        st.Page(
            "pages/learn/greedy.py", title="A greedy step", icon=":material/stairs:"
        ),
    ],
    "Help": [st.Page("pages/help/about.py", title="About", icon=":material/info:")],
}

pg = st.navigation(PAGES)

with st.sidebar:
    names = list(widgets.dataset_catalogue())
    if st.session_state[state.DATASET] not in names:
        st.session_state[state.DATASET] = state.SAMPLE_NAME
    st.selectbox(
        "Dataset",
        names,
        key=state.DATASET,
        help="The sample, datasets in MLFS_DATA_DIR and your uploads.",
    )
    st.number_input(
        "Seed",
        min_value=0,
        step=1,
        key=state.SEED,
        help="One seed for every random choice (RaR, RFS, folds).",
    )
    st.caption("MLFS Explorer: multi-label feature selection, two papers live.")

pg.run()
warmup.end(warm_up)
