"""Text helpers shared by the readers: opening sources, decoding, quoted tokens.

A *source* is a path (``str`` or :class:`os.PathLike`), raw ``bytes``, or an open
file object in text or binary mode. Bytes are decoded line by line as UTF-8 and,
when a line is not valid UTF-8, as Latin-1 (which accepts every byte), so decoding
never fails; a UTF-8 byte-order mark at the start is dropped.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Union

from ..errors import DatasetError

Source = Union[str, "os.PathLike[str]", bytes, IO[str], IO[bytes]]

_QUOTES = "'\""


def source_name(source: Source) -> str:
    """Return a display name for ``source`` (its path, or the file object's name).

    Examples
    --------
    >>> source_name("data/x.arff")
    'data/x.arff'
    >>> source_name(io.StringIO("a"))
    '<text>'
    """
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, bytes):
        return "<bytes>"
    name = getattr(source, "name", None)
    return str(name) if isinstance(name, str) else "<text>"


def _decode(raw: bytes | str) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@contextmanager
def open_lines(source: Source) -> Iterator[Iterator[str]]:
    """Yield an iterator over the decoded lines of ``source`` (newlines stripped).

    Examples
    --------
    >>> with open_lines(b"a\\r\\nb\\xe9\\n") as lines:
    ...     list(lines)
    ['a', 'bé']
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise DatasetError(f"{path}: no such file")
        with open(path, "rb") as handle:
            yield _strip_lines(handle)
    elif isinstance(source, bytes):
        yield _strip_lines(io.BytesIO(source))
    else:
        yield _strip_lines(source)


def _strip_lines(handle) -> Iterator[str]:
    first = True
    for raw in handle:
        line = _decode(raw)
        if first:
            line = line.lstrip("\ufeff")
            first = False
        yield line.rstrip("\r\n")


def read_bytes(source: Source) -> bytes:
    """Return the whole content of ``source`` as bytes (text is UTF-8 encoded)."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise DatasetError(f"{path}: no such file")
        with open(path, "rb") as handle:
            return handle.read()
    if isinstance(source, bytes):
        return source
    data = source.read()
    return data.encode("utf-8") if isinstance(data, str) else data


def split_quoted(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` on ``sep`` outside quotes, unquote and strip each part.

    Quotes are ``'`` or ``"``; inside them a backslash escapes the next character
    (so ``'Swainson\\'s Thrush'`` reads as ``Swainson's Thrush``, as Weka reads it).

    Raises
    ------
    ValueError
        On an unterminated quote (callers turn it into a ``DatasetError``).

    Examples
    --------
    >>> split_quoted("a, 'b c', 'd\\\\'e'")
    ['a', 'b c', "d'e"]
    """
    parts: list[str] = []
    pos, n = 0, len(text)
    while True:
        token, pos = read_token(text, pos, stop=sep)
        parts.append(token)
        while pos < n and text[pos] in " \t":
            pos += 1
        if pos >= n:
            return parts
        if text[pos] != sep:
            raise ValueError(f"unexpected {text[pos]!r} after a quoted value")
        pos += 1


def read_token(text: str, pos: int, stop: str = "") -> tuple[str, int]:
    """Read one (possibly quoted) token starting at ``pos``; return it and the end.

    An unquoted token ends at whitespace when ``stop`` is empty, otherwise at the
    first ``stop`` character (and is stripped).

    Examples
    --------
    >>> read_token("  'a b' rest", 0)
    ('a b', 7)
    >>> read_token("x y, z", 0, stop=",")
    ('x y', 3)
    """
    n = len(text)
    while pos < n and text[pos] in " \t":
        pos += 1
    if pos < n and text[pos] in _QUOTES:
        return _read_quoted(text, pos)
    end = pos
    if stop:
        while end < n and text[end] not in stop:
            end += 1
        return text[pos:end].strip(), end
    while end < n and text[end] not in " \t":
        end += 1
    return text[pos:end], end


def _read_quoted(text: str, pos: int) -> tuple[str, int]:
    quote, out, i, n = text[pos], [], pos + 1, len(text)
    while i < n:
        char = text[i]
        if char == "\\" and i + 1 < n:
            out.append(text[i + 1])
            i += 2
            continue
        if char == quote:
            return "".join(out), i + 1
        out.append(char)
        i += 1
    raise ValueError("unterminated quote")


def strip_comment(text: str) -> str:
    """Remove a trailing ``%`` comment that is outside quotes.

    Examples
    --------
    >>> strip_comment("@relation 'a %b' %50")
    "@relation 'a %b' "
    """
    if "%" not in text:
        return text
    quote = ""
    i = 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in _QUOTES:
            quote = char
        elif char == "%":
            return text[:i]
        i += 1
    return text
