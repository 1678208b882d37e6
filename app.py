"""MLFS Explorer: the Streamlit app's router and shared sidebar.

Run with ``streamlit run app.py``. Pages live in ``pages/``; they read their
widgets, call the engine through :mod:`ui.cached` and render.
"""

import streamlit as st

from ui import state, widgets

st.set_page_config(page_title="MLFS Explorer", page_icon="📊", layout="wide")
state.init_state()

PAGES = {
    "Explore": [
        st.Page(
            "app_pages/data.py", title="Data", icon=":material/table:", default=True
        ),
        st.Page("app_pages/rank.py", title="Rank features", icon=":material/sort:"),
    ],
    "Compare methods": [
        st.Page(
            "app_pages/experiment.py", title="Experiment", icon=":material/science:"
        ),
        st.Page(
            "app_pages/average_ranks.py",
            title="Average ranks",
            icon=":material/leaderboard:",
        ),
        st.Page(
            "app_pages/similarity.py", title="Similarity", icon=":material/grid_on:"
        ),
        st.Page(
            "app_pages/budget.py",
            title="Metric vs budget",
            icon=":material/show_chart:",
        ),
    ],
    "Help": [st.Page("app_pages/about.py", title="About", icon=":material/info:")],
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
