"""The on-disk format of one cache entry: its key, a checksum, then its value.

An entry file reads ``{"key":"<64 hex>","sha256":"<64 hex>","value":VALUE}``:
``VALUE`` is the JSON text of the value, and ``sha256`` the SHA-256 of exactly
that text. Reading an entry checks, in this order, that the file parses, that
it carries the key it is stored under (a file copied or renamed into another
entry's place is refused), that the checksum matches the value's text (an
edited value is refused) and, where the caller gives one, that the value has
the shape its task produces (:func:`check_selection`, :func:`check_fit`). A
refused entry is removed with one :class:`CacheEntryWarning` naming its file,
and the task is recomputed.

An entry without the key and checksum (a bare JSON value, as entries were
written before them) is refused like any other bad entry: without a checksum
an edited value could not be told from a computed one.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable

_PREFIX = '{"key":"'
_MIDDLE = '","sha256":"'
_VALUE = '","value":'
_HEAD = len(_PREFIX) + 64 + len(_MIDDLE) + 64 + len(_VALUE)

Check = Callable[[object], "str | None"]


class CacheEntryWarning(UserWarning):
    """A cache entry was malformed, tampered with or out of range: recomputed."""


def encode(key: str, value_text: str) -> str:
    """The file text of the entry ``key`` whose value's JSON text is ``value_text``.

    Examples
    --------
    >>> text = encode("ab" * 32, '{"a":1}')
    >>> decode(text, "ab" * 32)
    (True, {'a': 1})
    """
    digest = hashlib.sha256(value_text.encode("utf-8")).hexdigest()
    return f"{_PREFIX}{key}{_MIDDLE}{digest}{_VALUE}{value_text}}}"


def decode(text: str, key: str) -> tuple[bool, object]:
    """``(True, value)`` for a good entry, ``(False, reason)`` for a bad one.

    A bare JSON value (an entry from before checksums) is refused: it carries
    neither the key nor the checksum.

    Examples
    --------
    >>> text = encode("cd" * 32, "[1, 2]")
    >>> decode(text[:-3] + "3]}", "cd" * 32)
    (False, 'its checksum does not match its content')
    >>> decode("{}", "cd" * 32)
    (False, 'carries no key and checksum (a bare JSON value)')
    """
    if not text.startswith(_PREFIX):
        try:
            json.loads(text)
        except ValueError as exc:
            return False, f"is not valid JSON ({exc})"
        return False, "carries no key and checksum (a bare JSON value)"
    stored_key = text[len(_PREFIX) : len(_PREFIX) + 64]
    at = len(_PREFIX) + 64
    digest = text[at + len(_MIDDLE) : at + len(_MIDDLE) + 64]
    layout = (
        text[at : at + len(_MIDDLE)] == _MIDDLE
        and text[_HEAD - len(_VALUE) : _HEAD] == _VALUE
        and text.endswith("}")
    )
    if not layout:
        return False, "is not a complete entry"
    if stored_key != key:
        return False, f"holds the entry of another task ({stored_key[:12]}...)"
    body = text[_HEAD:-1]
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != digest:
        return False, "its checksum does not match its content"
    try:
        return True, json.loads(body)
    except ValueError as exc:  # pragma: no cover - a matching checksum of bad JSON
        return False, f"is not valid JSON ({exc})"


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_selection(n_features: int, k: int) -> Check:
    """A check of a selection entry: ``{"order": [k distinct ints in [0, M)], ...}``.

    Examples
    --------
    >>> check = check_selection(5, 2)
    >>> check({"order": [3, 1], "seconds": 0.1}) is None
    True
    >>> check({"order": [3, -1], "seconds": 0.1})
    'its ranking holds -1, outside [0, 5)'
    """

    def check(value) -> str | None:
        if not isinstance(value, dict) or not isinstance(value.get("order"), list):
            return "is not a selection (no 'order' list)"
        order = value["order"]
        if not _number(value.get("seconds", 0.0)):
            return "has a non-numeric 'seconds'"
        if len(order) != k:
            return f"ranks {len(order)} features, not {k}"
        if not all(type(i) is int for i in order):  # JSON ints only (no bool)
            bad = next(i for i in order if type(i) is not int)
            return f"its ranking holds {bad!r}, not a feature index"
        if order and not 0 <= min(order) <= max(order) < n_features:
            bad = next(i for i in order if not 0 <= i < n_features)
            return f"its ranking holds {bad}, outside [0, {n_features})"
        if len(set(order)) != len(order):
            return "its ranking names a feature twice"
        return None

    return check


def check_fit(metrics) -> Check:
    """A check of a fit entry: ``metrics`` holds exactly ``metrics``' names, numbers.

    Examples
    --------
    >>> check = check_fit(["micro_f1"])
    >>> check({"metrics": {"micro_f1": 0.5}, "fit_seconds": 0.0,
    ...        "predict_seconds": 0.0}) is None
    True
    >>> check({})
    "is not a fit (no 'metrics' table)"
    """
    wanted = set(metrics)

    def check(value) -> str | None:
        if not isinstance(value, dict) or not isinstance(value.get("metrics"), dict):
            return "is not a fit (no 'metrics' table)"
        got = value["metrics"]
        if set(got) != wanted:
            return f"scores {sorted(got)}, not {sorted(wanted)}"
        for name, v in got.items():
            if v is not None and not _number(v):
                return f"its {name} is {v!r}, not a number"
            if _number(v) and math.isinf(v):
                return f"its {name} is infinite"
        for field in ("fit_seconds", "predict_seconds"):
            if not _number(value.get(field)):
                return f"has no numeric {field!r}"
        return None

    return check
