"""Every view a link: widget values kept in the page's URL query string.

Pages create each user-facing widget with ``**links.bound("name")``: the name
is both the widget's session-state key and its query parameter, so a reload
and a pasted link open the same view (Streamlit's ``bind="query-params"``).

Streamlit 1.67 drops a page's bound parameters from the URL when another page
opens (``st.navigation`` keeps only the router's parameters, such as the
sidebar's ``dataset`` and ``seed``, and unbound ones such as the workspace's
``ws``), and Back/Forward restores a page with its widgets at their defaults.
So the router calls :func:`begin` before the page and :func:`finish` after
it: the values each bound widget last had are kept in session state, put
back when its page opens again, and if Streamlit's history navigation reset
them to their defaults anyway, one more run sets them (the URL then holds
them again). :func:`link` is the current view's URL, shown in the sidebar
with a copy button (:func:`show_link`).
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

_SAVED = "_links_saved"  # key -> the value its widget last had
_PAGE = "_links_page"  # the page of the last run
_SWITCHED = "_links_switched"  # this run opens a page another page preceded
_WANTED = "_links_wanted"  # key -> value put back on this run
_PENDING = "_links_pending"  # key -> value to put back on the next run
_BOUND = "_links_bound"  # keys bound on this run


def bound(key: str) -> dict[str, str]:
    """Keyword arguments that bind a widget to the query parameter ``key``.

    On the first run of a page opened from another page, a widget whose
    parameter is not in the URL gets back the value it had when the user
    last saw the page.

    Parameters
    ----------
    key : str
        The widget's key and its query parameter's name (short, readable,
        unique in the app: ``"rank_method"``).

    Returns
    -------
    dict
        ``{"key": key, "bind": "query-params"}``, to splat into the widget call.
    """
    state = st.session_state
    saved = state.setdefault(_SAVED, {})
    pending = state.get(_PENDING) or {}
    if key in pending:
        state[key] = pending.pop(key)
    elif state.get(_SWITCHED) and key not in st.query_params and key in saved:
        state[key] = saved[key]
        state.setdefault(_WANTED, {})[key] = saved[key]
    state.setdefault(_BOUND, []).append(key)
    return {"key": key, "bind": "query-params"}


def begin(page: str) -> None:
    """Start a run of ``page`` (the router calls it before the page runs)."""
    state = st.session_state
    previous = state.get(_PAGE)
    state[_SWITCHED] = previous is not None and previous != page
    state[_PAGE] = page
    state[_WANTED] = {}
    state[_BOUND] = []


def finish() -> None:
    """Remember the bound widgets' values; rerun once if some were reset.

    Back/Forward (Streamlit's history navigation) gives a bound widget whose
    parameter the URL lacks its default, over a value put back by
    :func:`bound`; that value is then set on a second run.
    """
    state = st.session_state
    wanted = state.get(_WANTED) or {}
    missed = {k: v for k, v in wanted.items() if k in state and differs(state[k], v)}
    saved = state.setdefault(_SAVED, {})
    for key in state.get(_BOUND) or []:
        if key in state and key not in missed:
            saved[key] = state[key]
    state[_WANTED] = {}
    if missed and not state.get(_PENDING):
        state[_PENDING] = missed
        st.rerun()
    state[_PENDING] = {}


def differs(a: object, b: object) -> bool:
    """Whether two widget values differ (arrays compared by their text)."""
    try:
        return bool(a != b)
    except (TypeError, ValueError):  # e.g. arrays: compare their text
        return repr(a) != repr(b)


def link() -> str:
    """The current view's URL: the page's address and every query parameter."""
    base = st.context.url or ""
    params = [(k, v) for k in st.query_params for v in st.query_params.get_all(k)]
    return base + ("?" + urlencode(params) if params else "")


def show_link(where) -> None:
    """Show :func:`link` in ``where`` (a container) with a copy button."""
    with where:
        st.caption(
            "Link to this view (copy it with the button at its right): it opens "
            "this page with these choices and your workspace (uploads, results). "
            "Whoever has it sees your workspace."
        )
        st.code(link(), language=None, wrap_lines=True)


def open_view(page, params: list[tuple[str, str]], keep: tuple[str, ...]) -> None:
    """Open ``page`` at the view ``params`` (as in a link), and nothing else.

    Every bound widget's remembered value and every query parameter but
    ``keep`` (unless ``params`` names it too) are forgotten, the widgets
    named by ``params`` lose their session value (so they open on the
    URL's), and ``page`` opens with
    ``params`` and ``keep`` as its query string (``st.switch_page``, also
    when it is the current page: its next run seeds the widgets from that
    query string). Keys with a session default (the sidebar's dataset and
    seed, :data:`ui.state.DEFAULTS`) are set, not removed.

    Streamlit refuses to set a query parameter bound to a widget of the
    last run; the bindings of the parameters replaced here are dropped
    first (the widgets bind again when the page draws them).
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from .state import DEFAULTS

    state = st.session_state
    named = {k for k, _ in params}
    for key in list(state.get(_SAVED) or {}) + sorted(named):
        if key not in keep and key not in DEFAULTS:
            state.pop(key, None)
    state[_SAVED] = {}
    query: dict[str, list[str]] = {  # the view's own value first
        k: st.query_params.get_all(k)
        for k in keep
        if k in st.query_params and k not in named
    }
    for key, value in params:
        query.setdefault(key, []).append(value)
        if key in DEFAULTS:
            state[key] = value
    with get_script_run_ctx().session_state.query_params() as qp:
        for key in list(st.query_params) + list(query):
            binding = qp.get_binding_for_param(key)
            if binding is not None:
                qp.unbind_widget(binding.widget_id)
    st.switch_page(page, query_params=query)


_MISSING = "_links_missing_dataset"  # the dataset a link named and nobody had


def missing_dataset(names, key: str = "dataset") -> str | None:
    """What to tell a user whose link names a dataset not among ``names``.

    A link to an uploaded dataset opens it only in the workspace its ``ws``
    token names: a student given the teacher's link without that token (or
    a server without the data folder's dataset) gets the sample instead, and
    this says so, as long as the sample is what they see. None otherwise.
    """
    wanted = st.query_params.get(key)
    if wanted and wanted not in names:
        st.session_state[_MISSING] = wanted
    missing = st.session_state.get(_MISSING)
    if not missing or st.session_state.get(key) not in (None, missing, *_sample(names)):
        st.session_state.pop(_MISSING, None)
        return None
    return (
        f"This link names the dataset “{missing}”, which is not available here, "
        "so the sample is shown instead. An uploaded dataset is only in the "
        "workspace of whoever uploaded it (their link's ws=...): upload the file "
        "on the Data page yourself, or ask for a link with that workspace. A "
        "dataset of the server's data folder must be in the folder MLFS_DATA_DIR "
        "names."
    )


def _sample(names) -> list:
    return list(names)[:1]  # the catalogue lists the sample first


_ONE_ENTRY = """<script>
(() => {
  if (window.__mlfsOneEntry) return;
  window.__mlfsOneEntry = true;
  const push = window.history.pushState.bind(window.history);
  const view = (url) => {
    const u = new URL(url, window.location.href);
    return [u.pathname, u.searchParams.get("lesson"), u.searchParams.get("step")]
      .join("|");
  };
  window.history.pushState = (state, title, url) =>
    url != null && view(url) === view(window.location.href)
      ? window.history.replaceState(state, title, url)
      : push(state, title, url);
})();
</script>"""


def one_history_entry_per_view() -> None:
    """Make each page visit (and each lesson step) one browser history entry.

    Streamlit's browser side pushes a history entry for every change of the
    URL's query string, so one page visit left about three (the page at its
    defaults, then each value :func:`bound` put back, then the ``ws`` token),
    and Back/Forward stopped on the page at its defaults. This script (run
    once per browser tab) turns a push that keeps the page, the lesson and
    its step into a replacement of the current entry: Back goes to the
    previous page (or step) as it was left.
    """
    # in the sidebar: in the page it took a row of the main column's layout
    st.sidebar.html(_ONE_ENTRY, unsafe_allow_javascript=True)
