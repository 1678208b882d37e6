"""Every view a link: widget values kept in the page's URL query string.

Pages create each user-facing widget with ``**links.bound("name")``: the name
is both the widget's session-state key and its query parameter, so a page
switch, Back/Forward, a reload and a pasted link open the same view.
"""

from __future__ import annotations


def bound(key: str) -> dict[str, str]:
    """Keyword arguments that bind a widget to the query parameter ``key``.

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
    return {"key": key, "bind": "query-params"}
