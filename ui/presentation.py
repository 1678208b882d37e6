"""Presentation mode: charts a projector can show, the main chart above the fold.

A sidebar toggle bound to the URL flag ``present`` (``?present=true``): a
teacher's link opens the lesson in presentation mode. In that mode
:func:`ui.widgets.show_figure` restyles each figure with
:func:`mlfs_core.plots.for_projector` (text of 16 px and more, near-black,
legend at the top, rows of panels apart), and the analysis pages draw their
main chart right under the page title, sized to fit a 1280 x 720 screen, with
their captions and choices in an expander below it (:func:`chart_first`).
"""

from __future__ import annotations

import contextlib

import streamlit as st

from . import links

KEY = "present"
"""The toggle's session-state key and URL flag."""
MAIN_CHART_PX = 470
"""Height of an analysis page's main chart in presentation mode: under the
app's header and the page title it ends above 720 pixels."""


MAX_BARS = 32
"""Most bars a page's main bar chart stands side by side in presentation mode:
upright 16-pixel tick labels need 20 pixels each, and the plot area of a
chart in the main column at 1280 pixels is about 720 pixels wide (medical's
45 labels overlapped); with more, the bars are drawn across, a row each."""


MAX_COLUMNS = 24
"""Most columns of a label x label heatmap in presentation mode: each upright
16-pixel name needs 20 pixels, and the plot area beside the row names and
the colour bar is about 600 pixels wide at 1280 pixels (40 of medical's
labels overlapped). The most frequent labels are drawn, as the title says."""


def heatmap_labels() -> int | None:
    """Most labels a label x label heatmap draws: :data:`MAX_COLUMNS` in
    presentation mode, else None (the figure's own limit)."""
    return MAX_COLUMNS if is_on() else None


def bars_across(n_bars: int) -> bool:
    """Whether a main chart of ``n_bars`` bars draws them across (one row each):
    in presentation mode above :data:`MAX_BARS`."""
    return is_on() and n_bars > MAX_BARS


def toggle() -> bool:
    """The sidebar's "Presentation mode" toggle (bound to the URL flag ``present``)."""
    return st.toggle(
        "Presentation mode",
        help="For a projector: larger, darker chart text, each analysis page's "
        "chart first and sized to the screen, the choices below it. Kept in "
        "the link (present=true).",
        **links.bound(KEY),
    )


def is_on() -> bool:
    """Whether presentation mode is on in this session."""
    return bool(st.session_state.get(KEY, False))


def chart_first(label: str):
    """Two containers in the page's order: ``(chart, options)``.

    Without presentation mode the options come first, as usual, and the
    chart under them; with it the chart comes first, right under the page
    title, and the options (captions, results source, metric, methods ...)
    in a closed expander named ``label`` under it. The page writes into
    each container with ``with``; which is above is this function's choice.

    Parameters
    ----------
    label : str
        The expander's label in presentation mode.

    Returns
    -------
    tuple
        ``(chart, options)``, two Streamlit containers.
    """
    if is_on():
        chart = st.container()
        return chart, st.expander(label, icon=":material/tune:")
    options = st.container()
    return st.container(), options


MAX_ROWS = 10
"""Most label rows of a heatmap that is a page's main chart in presentation
mode: 16-pixel labels one under the other in a :data:`MAIN_CHART_PX` chart."""


def fewer_rows(matrix, *, keep=(), limit: int = MAX_ROWS):
    """The rows of a label x feature ``matrix`` a page's main heatmap draws.

    Without presentation mode, or with at most :data:`MAX_ROWS` rows, the
    matrix as it is; else the rows in ``keep`` (positions, e.g. the labels
    whose turn it was) and those with the highest scores, ``limit`` in all,
    in the matrix's order, and a caption under the chart saying how many of
    how many are shown.

    Parameters
    ----------
    matrix : pandas.DataFrame
        Labels down, features across.
    keep : iterable of int, optional
        Positions of rows always drawn (at most ``limit`` of them).
    limit : int, optional
        Most rows drawn: :data:`MAX_ROWS`, fewer for a chart under a step
        row (:data:`ROWS_UNDER_STEPS`).

    Returns
    -------
    tuple
        ``(matrix, rows, note)``: the rows drawn, their positions in
        ``matrix`` and the caption to show under the chart (``None`` when
        every row is drawn).
    """
    import numpy as np

    from mlfs_core.plots import label_rows

    if not is_on() or len(matrix) <= limit:
        return matrix, np.arange(len(matrix)), None
    rows = label_rows(matrix, keep=keep, limit=limit)
    note = (
        f"Presentation mode draws {len(rows)} of the {len(matrix)} labels (those "
        "with the highest scores) so the chart fits the screen; turn it off in "
        "the sidebar to see every label, or download the data (CSV)."
    )
    return matrix.iloc[rows], rows, note


STEP_ROW_PX = 25
"""How much shorter a Learn page's main chart is in presentation mode when
its step slider and Play button are drawn above it (:func:`under_steps`), so
both fit above the fold (checked in a browser at 1280 x 720)."""
ROWS_UNDER_STEPS = 8
"""Most label rows of a heatmap drawn under a step row in presentation mode."""


def under_steps(fig):
    """``fig`` sized to fit under a step row above the fold, in presentation mode.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        A page's main chart, to be drawn under its step slider and Play.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself, :data:`MAIN_CHART_PX` minus :data:`STEP_ROW_PX` high
        in presentation mode, else unchanged.
    """
    if is_on():
        fig.update_layout(height=MAIN_CHART_PX - STEP_ROW_PX)
    return fig


def headed(title: str, caption: str, label: str, *, steps: bool = False, source=False):
    """A page's title, its areas and, first in its options area, its caption.

    Parameters
    ----------
    title : str
        The page's title (``st.title``).
    caption : str
        What the page shows, in a sentence or two (``st.caption``).
    label : str
        The options' expander label in presentation mode.
    steps : bool
        A Learn page's four areas ``(step, chart, note, options)`` (in
        presentation mode the step slider and Play right under the title,
        the chart under them, the step's text under it) instead of an
        analysis page's two (:func:`chart_first`).
    source : bool
        Also a slot right under the title (returned last) for the caption
        naming the results an analysis page shows, on screen in presentation
        mode too (the results' radio is then in the closed expander).

    Returns
    -------
    tuple
        The areas, the options last (then the source slot if asked).
    """
    st.title(title)
    slot = st.empty() if source else None
    areas = _step_first(label) if steps else chart_first(label)
    with areas[-1]:
        st.caption(caption)
    return (*areas, slot) if source else areas


def _step_first(label: str):
    """The Learn pages' four areas ``(step, chart, note, options)``: in
    presentation mode the step slider and Play right under the title, the chart
    under them (both above the fold), the step's text under it and the other
    choices in a closed expander named ``label``; without it, every area is the
    page's own flow, in the order the page writes them."""
    if is_on():
        return st.container(), st.container(), st.container(), st.expander(label)
    here = contextlib.nullcontext()
    return here, here, here, here
