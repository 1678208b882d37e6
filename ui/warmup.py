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

import base64
import contextlib
import functools
import gc
import importlib
import os
import pkgutil
import threading
import time
from pathlib import Path

import streamlit as st

_DONE = "plotly_warm_up_done"
FAVICON = Path(__file__).with_name("favicon.png")
"""The app's page icon (32 x 32 px, three bars), shipped with the app."""


@functools.cache
def favicon() -> str:
    """:data:`FAVICON` as a ``data:`` URL, which Streamlit passes on as it is."""
    return "data:image/png;base64," + base64.b64encode(FAVICON.read_bytes()).decode()


_IMPORTS = threading.RLock()  # re-entrant: a first run holds it through its page
_COUNT = threading.Lock()  # guards the two counters below
_WAITING = [0]  # page runs waiting for _IMPORTS (import_all yields to them)
_STARTED = [False]  # the background import_all has been started
_IMPORTED = False
_NEEDED = False
HEAVY = (
    "pandas",
    "plotly.graph_objects",
    "ui.state",
    "ui.cached",
    "ui.widgets",
    "ui.uploads",
    "ui.sections.methods",
)
"""What the router and the first page need, imported by :func:`import_needed`."""


def import_needed() -> None:
    """Import :data:`HEAVY`, once per process, one thread at a time.

    Streamlit runs each session's script in its own thread. When a class opens
    the app at the same moment, several first runs imported pandas, plotly and
    the engine at once, and one could get a partly initialised module
    ("partially initialized module 'pandas' has no attribute 'Series'", seen
    by ``bench/bench_classroom.py`` with 4 sessions). Here one thread imports
    them while the others wait. The rest of the app (every ``ui.sections``
    module: scikit-learn, the experiment runner, scipy.stats; about 1.8 s more
    on the development machine) is imported after the first page is built
    (:func:`settling`); until then every run holds the import lock through its
    page (:func:`settling`), so no two threads ever import at once.
    """
    global _NEEDED
    if _NEEDED:
        return
    with _IMPORTS:
        if not _NEEDED:
            for name in HEAVY:
                importlib.import_module(name)
            gc.freeze()  # see import_all: the first run's own collection skips them
            _NEEDED = True


REST_FIRST = ("scipy.stats", "sklearn.base", "sklearn.svm", "sklearn.neighbors")
"""Imported by :func:`import_all` before the ``ui.sections`` modules, one at a
time: scipy.stats (the analysis pages' tests) and scikit-learn (the
experiment runner) are most of the rest's import time, and importing them
apart lets a page run slip in between (see :func:`import_all`)."""


def import_all() -> None:
    """Import :data:`HEAVY` and every ``ui.sections`` module, once, then freeze.

    Later calls return at once. The modules are imported one at a time, each
    under the import lock, and before each one the importing thread waits
    while a page run is waiting for the lock (:func:`settling`): a page
    opened right after the first one runs at once instead of waiting for
    the whole rest (scikit-learn, about a second) to be imported.

    Then the collector is frozen (``gc.freeze``):
    the modules' objects (about
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
        import_needed()
        sections = importlib.import_module("ui.sections")
    names = [*REST_FIRST]
    names += [f"ui.sections.{i.name}" for i in pkgutil.iter_modules(sections.__path__)]
    for name in names:
        _yield_to_pages()
        with _IMPORTS:
            importlib.import_module(name)
    _yield_to_pages()
    with _IMPORTS:
        if _IMPORTED:
            return
        _load_server_plugins()
        freeze_imported()
        _IMPORTED = True


def _yield_to_pages(timeout: float = 30.0) -> None:
    """Wait (at most ``timeout`` s) while a page run waits for the import lock."""
    deadline = time.monotonic() + timeout
    while _WAITING[0] and time.monotonic() < deadline:
        time.sleep(0.005)


@contextlib.contextmanager
def settling():
    """Hold the import lock around a run until everything is imported.

    A page run before :func:`import_all` has finished may import what it
    needs itself (a deep link opens any page first); holding the lock makes
    those imports one thread at a time too. While a run waits for the lock,
    :func:`import_all` starts no further import. When the run ends, the
    rest of the app is imported in the background
    (:func:`import_rest_in_background`). Once everything is imported, runs
    no longer take the lock.
    """
    if _IMPORTED:
        yield
        return
    with _COUNT:
        _WAITING[0] += 1
    try:
        _IMPORTS.acquire()
    finally:
        with _COUNT:
            _WAITING[0] -= 1
    try:
        yield
    finally:  # however the run ended (st.stop and reruns are exceptions)
        _IMPORTS.release()
        import_rest_in_background()


def import_rest_in_background() -> None:
    """Start :func:`import_all` in a daemon thread, unless it is done or started.

    Under Streamlit's AppTest (tests, where test code imports too) the rest
    is imported at once instead.
    """
    if _IMPORTED:
        return
    from streamlit import config

    if config.get_option("global.appTest"):
        import_all()
        return
    with _COUNT:
        if _STARTED[0]:
            return
        _STARTED[0] = True
    threading.Thread(target=import_all, name="mlfs-imports", daemon=True).start()


def _load_server_plugins() -> None:
    """Load the server's plug-ins (entry points, ``MLFS_PLUGINS``) now.

    The first page (Data) lists no method, so the router loads them only for
    the other pages (:func:`ui.sections.methods.server_plugins`, which shows
    a failure as an ``st.error``); importing them here, under the import lock,
    takes their imports (scikit-learn, the classifiers) off the first page's
    path. A failure is left for those pages to report.
    """
    from mlfs_core.errors import ConfigError
    from mlfs_core.plugins import load_plugins

    try:
        load_plugins()
    except ConfigError:
        pass


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
