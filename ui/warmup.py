"""Start the browser's plotly.js download at the top of a session's first run.

Streamlit's frontend loads its plotly chunk (about 4.6 MB of JavaScript) only
when the first plotly element arrives. On the first page that is after the
script has imported pandas, plotly and the engine (about 0.7 s) and built
the page, so the two downloads and the imports ran one after the other. A
blank, 10-px plotly chart sent first makes the browser fetch and compile
plotly.js while the script works; :func:`end` removes it when the page is
built. Only the session's first run does this.
"""

from __future__ import annotations

import streamlit as st

_DONE = "plotly_warm_up_done"


def start():
    """Send a blank plotly chart on the session's first run; return its slot or None."""
    if st.session_state.get(_DONE):
        return None
    st.session_state[_DONE] = True
    import plotly.graph_objects as go

    slot = st.empty()
    blank = go.Figure(layout={"height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}})
    blank.update_xaxes(visible=False)
    blank.update_yaxes(visible=False)
    slot.plotly_chart(blank, config={"displayModeBar": False, "staticPlot": True})
    return slot


def end(slot) -> None:
    """Remove the blank chart of :func:`start` (no-op for None)."""
    if slot is not None:
        slot.empty()
