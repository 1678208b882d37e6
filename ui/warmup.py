"""Start the browser's plotly.js download at the top of a session's first run.

Streamlit's frontend loads its plotly chunk (about 4.6 MB of JavaScript) only
when the first plotly element arrives. On the first page that is after the
script has imported pandas, plotly and the engine (about 0.7 s) and built
the page, so the two downloads and the imports ran one after the other. A
blank, 10-px plotly chart sent first makes the browser fetch and compile
plotly.js while the script works; :func:`end` removes it when the page is
built (``MLFS_PLOTLY_WARMUP=0`` turns this off, for ``bench/bench_app.py``'s
reference). Only the session's first run sends the chart, but every run keeps the
empty slot: the page's elements then keep their positions from run to run,
so Streamlit does not remount them (an open expander would close).
"""

from __future__ import annotations

import gc
import importlib
import os
import pkgutil
import threading

import streamlit as st

_DONE = "plotly_warm_up_done"
_IMPORTS = threading.Lock()
_IMPORTED = False
HEAVY = ("pandas", "plotly.graph_objects", "ui.state", "ui.cached", "ui.widgets")
"""Modules every page needs, imported once per process by :func:`import_all`."""


def import_all() -> None:
    """Import the app's heavy modules and every ``ui.sections`` module, once.

    Streamlit runs each session's script in its own thread. When a class opens
    the app at the same moment, several first runs imported pandas, plotly and
    the engine at once, and one could get a partly initialised module
    ("partially initialized module 'pandas' has no attribute 'Series'", seen
    by ``bench/bench_classroom.py`` with 4 sessions). Here one thread imports
    them while the others wait; later runs return at once.

    Then the collector is frozen (``gc.freeze``): the modules' objects (about
    180,000: pandas, plotly, scipy, scikit-learn, the engine) live as long as
    the server, and Streamlit runs a full collection after every script run
    (``runner.postScriptGC``), which walked them all each time: 0.1-0.4
    CPU-s per run and session, the largest part of what a session's first
    page and each interaction cost the server. Frozen, they are left out of
    the collections, which then see only what later runs made (still
    collected as before).
    """
    global _IMPORTED
    if _IMPORTED:
        return
    with _IMPORTS:
        if _IMPORTED:
            return
        for name in HEAVY:
            importlib.import_module(name)
        sections = importlib.import_module("ui.sections")
        for info in pkgutil.iter_modules(sections.__path__):
            importlib.import_module(f"ui.sections.{info.name}")
        freeze_imported()
        _IMPORTED = True


def freeze_imported() -> None:
    """Collect once, then move every object alive now out of the collector.

    What stays is the imported modules' state, alive for the whole process;
    a later ``gc.collect`` no longer traverses it. Called once per process by
    :func:`import_all` (calling it again only freezes what was made since).
    """
    gc.collect()
    gc.freeze()


def start():
    """An empty slot, holding a blank plotly chart on the session's first run."""
    slot = st.empty()
    if st.session_state.get(_DONE) or os.environ.get("MLFS_PLOTLY_WARMUP") == "0":
        return slot
    st.session_state[_DONE] = True
    with _IMPORTS:  # not while another thread is importing plotly's pandas
        import plotly.graph_objects as go

    blank = go.Figure(layout={"height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}})
    blank.update_xaxes(visible=False)
    blank.update_yaxes(visible=False)
    slot.plotly_chart(blank, config={"displayModeBar": False, "staticPlot": True})
    return slot


def end(slot) -> None:
    """Remove the blank chart of :func:`start` (the slot stays, empty)."""
    slot.empty()
