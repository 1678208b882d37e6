"""Text helpers shared by the readers: opening sources, decoding, quoted tokens.

A *source* is a path (``str`` or :class:`os.PathLike`), raw ``bytes``, or an open
file object in text or binary mode. Bytes are decoded line by line as UTF-8 and,
when a line is not valid UTF-8, as Latin-1 (which accepts every byte); a UTF-8
byte-order mark at the start is dropped. A file in UTF-16 or UTF-32 (a byte-order
mark, or NUL bytes in its first line) is refused with a message that names the
encoding: save it as UTF-8.
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
            yield _strip_lines(handle, path)
    elif isinstance(source, bytes):
        yield _strip_lines(io.BytesIO(source), "<bytes>")
    else:
        yield _strip_lines(source, source_name(source))


_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
)


def _wide_encoding(first: bytes) -> str | None:
    """The UTF-16/UTF-32 encoding the first bytes of a file show, or None.

    Examples
    --------
    >>> _wide_encoding("@relation r\\n".encode("utf-16"))
    'UTF-16 (little-endian)'
    >>> _wide_encoding(b"@relation r") is None
    True
    """
    for bom, name in _WIDE_BOMS:
        if first.startswith(bom):
            return name
    if b"\x00" in first[:200]:
        return "UTF-16 or UTF-32 (NUL bytes in the first line)"
    return None


def _strip_lines(handle, where: str = "<text>") -> Iterator[str]:
    first = True
    for raw in handle:
        if first and isinstance(raw, bytes):
            encoding = _wide_encoding(raw)
            if encoding is not None:
                raise DatasetError(
                    f"{where}: the file is encoded in {encoding}; this reader takes "
                    "UTF-8 (or Latin-1): save it as UTF-8"
                )
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
    (so ``'Swainson\\'s Thrush'`` reads as ``Swainson's Thrush``, as Weka reads it),
    and ``\\t``, ``\\n``, ``\\r`` stand for a tab, a newline, a carriage return.

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


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}
"""Weka's backslash escapes that stand for a control character (``\\t`` is a
tab); any other escaped character stands for itself (``\\'`` is a quote)."""


def _read_quoted(text: str, pos: int) -> tuple[str, int]:
    """The quoted token at ``pos``: backslash escapes as Weka reads them
    (:data:`_ESCAPES`: ``'a\\tb'`` holds a tab), and the end.

    Examples
    --------
    >>> _read_quoted(r"'a\\tb\\'c' x", 0) == ("a" + chr(9) + "b'c", 9)
    True
    """
    quote, out, i, n = text[pos], [], pos + 1, len(text)
    while i < n:
        char = text[i]
        if char == "\\" and i + 1 < n:
            out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
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
