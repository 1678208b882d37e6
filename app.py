"""MLFS Explorer: the Streamlit app's router and shared sidebar.

Run with ``streamlit run app.py`` (or ``mlfs app``). The page scripts live in
``app_pages/``, one script per page; ``st.navigation`` below groups them into
sections. They read their widgets, call the engine through :mod:`ui.cached`
and render; page-specific helpers are in :mod:`ui.sections`.
"""

import streamlit as st

import mlfs_core  # noqa: F401  # first: pins OpenBLAS before numpy loads
from ui import warmup

warm_up = warmup.start()  # first of all: the browser starts on plotly.js at once
# The icon is the app's own PNG as a data URL (warmup.favicon): an emoji is
# checked against Streamlit's whole emoji catalogue (0.2 s on a first run), a
# file is opened with PIL (0.15 s), and a Material icon makes the browser
# fetch it from a font server.
st.set_page_config(
    page_title="MLFS Explorer", page_icon=warmup.favicon(), layout="wide"
)
warmup.import_needed()  # one thread at a time: sessions starting together

from ui import lessons, links, state, widgets  # noqa: E402
from ui.sections import methods  # noqa: E402

# section -> its pages: (script in app_pages/, title, Material icon name)
NAVIGATION = {
    "Explore": [("data", "Data", "table"), ("rank", "Rank features", "sort")],
    "Compare methods": [
        ("experiment", "Experiment", "science"),
        ("average_ranks", "Average ranks", "leaderboard"),
        ("similarity", "Similarity", "grid_on"),
        ("budget", "Metric vs budget", "show_chart"),
    ],
    "Learn": [
        ("score", "A score, step by step", "calculate"),
        ("aggregation", "An aggregation, step by step", "merge"),
        ("greedy", "A greedy step", "stairs"),
        ("learn_sparse", "Sparse regression, iteration by iteration", "compress"),
        ("learn_relief", "Neighbours and weights (RF-ML)", "hub"),
    ],
    "Help": [("about", "About", "info")],
}
PAGES = {
    section: [
        st.Page(
            f"app_pages/{script}.py",
            title=title,
            icon=f":material/{icon}:",
            default=script == "data",
        )
        for script, title, icon in pages
    ]
    for section, pages in NAVIGATION.items()
}
DATA_PAGE = PAGES["Explore"][0]
BY_NAME = {  # page name (its script) -> its st.Page: a lesson step's view names it
    script: page
    for section, rows in NAVIGATION.items()
    for (script, _, _), page in zip(rows, PAGES[section], strict=True)
}


def sidebar(page: str):
    """The dataset and seed every page shares; returns the slot of the view's link.

    Both are bound to the URL (``?dataset=...&seed=...``, :func:`ui.links.bound`).
    The workspace was restored before (:func:`ui.state.init_state`), so a
    restored upload named by the URL is already among the options.
    """
    names = list(widgets.dataset_catalogue())
    if (missing := links.missing_dataset(names)) is not None:
        st.warning(missing, icon=":material/dataset:")  # above the page
    with st.sidebar:
        if st.session_state[state.DATASET] not in names:
            st.session_state[state.DATASET] = state.SAMPLE_NAME
        st.selectbox(
            "Dataset",
            names,
            help="The sample, datasets in MLFS_DATA_DIR and your uploads.",
            **links.bound(state.DATASET),
        )
        st.text_input(  # a text box: a number box would turn "1e25" into 1 silently
            "Seed",
            help="One seed for every random choice (RaR, Random, folds): a whole "
            f"number from 0 to {widgets.SEED_MAX}.",
            **links.bound(state.SEED),
        )
        widgets.presentation.toggle()  # ui.presentation: projector-sized charts
        lessons.recorder(page, list(BY_NAME))  # ui.lessons: record a lesson
        st.caption("MLFS Explorer: multi-label feature selection, two papers live.")
        note = st.session_state.pop(state.WORKSPACE_NOTE, None)
        if note:
            st.warning(note, icon=":material/delete_sweep:")
        return st.expander("Link to this view", icon=":material/link:")


# Until the whole app is imported (a few seconds after the server's first page),
# every run holds the import lock: sessions starting together never import at once.
with warmup.settling():
    links.one_history_entry_per_view()  # Back/Forward: one entry per page visit
    state.init_state()  # first: restores the URL's workspace (uploads, results)
    pg = st.navigation(PAGES)
    page = next(name for name, p in BY_NAME.items() if p.url_path == pg.url_path)
    # ?lesson=NAME&step=N: that step's view, its note and question
    playing = lessons.follow(page, BY_NAME, widgets.dataset_catalogue())
    links.begin(pg.url_path)
    if pg.url_path != DATA_PAGE.url_path:  # the Data page lists no method
        methods.server_plugins()  # installed entry points, MLFS_PLUGINS; never uploads
    link_slot = sidebar(page)
    try:
        if (problem := widgets.seed_problem()) is not None:
            st.error(f"{problem} Fix it in the sidebar: nothing runs until then.")
        else:
            if playing:
                lessons.panel(playing)  # the step's note, question, Previous/Next
            pg.run()
            if playing:
                lessons.slides(playing)  # the figures it drew, as slides
    finally:  # a page that stopped (st.stop) keeps its work and its link too
        state.save_workspace()
        links.show_link(link_slot)
    links.finish()
warmup.end(warm_up)
