"""The engine's messages in the words of the app's forms.

A loader's error or warning gives the API's way out ("pass labels=,
label_count= or label_prefix="); a person who uploaded a file sees the
upload form's boxes named instead. The engine writes both, so a message and
its form wording cannot drift apart.
"""

from __future__ import annotations

import re

from ..data._encode import LABEL_OPTIONS_HINT

UPLOAD_FORM_HINT = (
    'fill in "Label names", "Label count" (with "Labels are the" first or last '
    'attributes) or "Label name prefix" below'
)
"""The upload form's way out of a file whose labels cannot be told apart
(names its boxes: "Label names", "Label count", "Labels are the", "Label
name prefix")."""
_FLIP = re.compile(r"pass label_count=(-?\d+) \(or the Mulan XML\)")


def _flip_words(match: re.Match) -> str:
    count = int(match.group(1))
    end = "last" if count < 0 else "first"
    return (
        f'set "Label count" to {abs(count)} with "Labels are the" {end} '
        "attributes (or upload the Mulan XML too)"
    )


def upload_form_words(message: str) -> str:
    """A loader's message about labels, its API advice put in the upload form's words.

    Parameters
    ----------
    message : str
        A :class:`~mlfs_core.DatasetError`'s or a loader warning's text.

    Returns
    -------
    str
        ``message`` with "pass labels=, label_count= or label_prefix=" as
        :data:`UPLOAD_FORM_HINT`, and "pass label_count=-3 (or the Mulan
        XML)" as 'set "Label count" to 3 with "Labels are the" last
        attributes (or upload the Mulan XML too)'; other text unchanged.

    Examples
    --------
    >>> text = upload_form_words("pass label_count=-3 (or the Mulan XML)")
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    set "Label count" to 3 with "Labels are the" last attributes (or upload the
    Mulan XML too)
    >>> upload_form_words("a file with no rows")
    'a file with no rows'
    """
    message = message.replace(LABEL_OPTIONS_HINT, UPLOAD_FORM_HINT)
    return _FLIP.sub(_flip_words, message)
