"""Export a figure as PNG bytes, offline (kaleido driving a local Chromium).

The browser is the ``browser`` argument when given (the app and scripts pass
kaleido's ``BROWSER_PATH`` variable, which they read; the engine reads no
environment variable), else the first of ``chromium``, ``chromium-browser``
and ``google-chrome`` found on ``PATH``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import shutil

import plotly.graph_objects as go

_CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def _find_browser(browser: str | None = None) -> str | None:
    if browser:
        return browser
    for name in _CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def png_export_available(browser: str | None = None) -> bool:
    """Whether :func:`to_png_bytes` can work here (kaleido and a Chromium present).

    Parameters
    ----------
    browser : str, optional
        Path of the Chromium to use; default: the first found on ``PATH``.
    """
    has_kaleido = importlib.util.find_spec("kaleido") is not None
    return has_kaleido and _find_browser(browser) is not None


def to_png_bytes(
    fig: go.Figure,
    *,
    width: int = 1100,
    height: int | None = None,
    scale: float = 2.0,
    browser: str | None = None,
) -> bytes:
    """Render ``fig`` to PNG bytes with kaleido, without any network access.

    kaleido's page loads plotly.js from the installed plotly package; MathJax,
    which it would otherwise fetch from a CDN, is switched off.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure to render.
    width : int
        Width in CSS pixels.
    height : int, optional
        Height in CSS pixels; defaults to the figure's own height or 500.
    scale : float
        Pixel density multiplier (2 gives a sharp image).
    browser : str, optional
        Path of the Chromium to drive; default: the first found on ``PATH``.

    Returns
    -------
    bytes
        A PNG file.

    Raises
    ------
    RuntimeError
        If kaleido or a Chromium browser is missing.
    """
    if not png_export_available(browser):
        raise RuntimeError("PNG export needs kaleido and a Chromium browser")
    import kaleido

    height = height or fig.layout.height or 500
    opts = {"format": "png", "width": width, "height": height, "scale": scale}
    with _quiet_browser_channel():
        return kaleido.calc_fig_sync(
            fig.to_dict(), opts=opts, kopts=_kaleido_options(browser)
        )


CHANNEL_LOGGER = "choreographer.channels.pipe"
"""The logger of choreographer's pipe to the browser."""


class _DropUndecodableMessages(logging.Filter):
    """Drop choreographer's "JSONError decoding message. Ignoring" records.

    When the browser closes, its last, partial message on the pipe cannot be
    decoded; choreographer ignores it but logs the error with a traceback
    (``logger.exception``), which lands on stderr although the PNG was
    written. Every other record passes.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("JSONError decoding message")


@contextlib.contextmanager
def _quiet_browser_channel():
    """While rendering, drop the ignored-message tracebacks of choreographer."""
    # choreographer creates its loggers with its own class (logistro's, with a
    # ``debug2`` level): import it first, so the logger is not made here as a
    # plain one
    with contextlib.suppress(ImportError):
        importlib.import_module(CHANNEL_LOGGER)
    logger = logging.getLogger(CHANNEL_LOGGER)
    quiet = _DropUndecodableMessages()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


def _kaleido_options(browser: str | None = None) -> dict:
    """kaleido's options: no MathJax, and the browser found here passed as ``path``
    (the process environment is left alone)."""
    return {"mathjax": False, "path": _find_browser(browser)}
