"""Export a figure as PNG bytes, offline (kaleido driving a local Chromium)."""

from __future__ import annotations

import importlib.util
import os
import shutil

import plotly.graph_objects as go

_CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def _find_browser() -> str | None:
    if os.environ.get("BROWSER_PATH"):
        return os.environ["BROWSER_PATH"]
    for name in _CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def png_export_available() -> bool:
    """Whether :func:`to_png_bytes` can work here (kaleido and a Chromium present)."""
    has_kaleido = importlib.util.find_spec("kaleido") is not None
    return has_kaleido and _find_browser() is not None


def to_png_bytes(
    fig: go.Figure, *, width: int = 1100, height: int | None = None, scale: float = 2.0
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

    Returns
    -------
    bytes
        A PNG file.

    Raises
    ------
    RuntimeError
        If kaleido or a Chromium browser is missing.
    """
    if not png_export_available():
        raise RuntimeError("PNG export needs kaleido and a Chromium browser")
    import kaleido

    height = height or fig.layout.height or 500
    opts = {"format": "png", "width": width, "height": height, "scale": scale}
    return kaleido.calc_fig_sync(fig.to_dict(), opts=opts, kopts=_kaleido_options())


def _kaleido_options() -> dict:
    """kaleido's options: no MathJax, and the browser found here passed as ``path``
    (the process environment is left alone)."""
    return {"mathjax": False, "path": _find_browser()}
