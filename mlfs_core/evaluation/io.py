"""Readers of the experiment output tables ``results.csv`` and ``selections.csv``.

They read what :func:`mlfs_core.evaluation.outputs.write_run_files` writes
(text cells escaped against spreadsheet formulas by :func:`escape_csv_text`,
undone here by :func:`unescape_csv_text`),
the studies' compact tables (gzip-compressed, by the ``.gz`` extension) and
uploaded files of the same layout, and raise
:class:`~mlfs_core.errors.MLFSError` naming the file and what is wrong with
it. This module imports pandas only, never scikit-learn.
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from ..columns import BUDGET, BUDGET_PCT, DATASET, FEATURES, METHOD, METRIC, VALUE
from ..errors import MLFSError

_RESULTS_REQUIRED = (DATASET, METHOD, METRIC, VALUE)
"""Columns every results table needs, besides ``budget`` or ``budget_pct``."""
FEATURE_NAMES = "feature_names"
"""The optional column of the ranked features' names (``|``-separated)."""
_SELECTIONS_REQUIRED = (DATASET, METHOD, FEATURES)
"""Columns every selections table needs."""


def read_results(path: str | os.PathLike | IO, *, limits=None) -> pd.DataFrame:
    """Read a tidy results table (one row per dataset, method, budget, fold, metric).

    Parameters
    ----------
    path : str, path-like or file object
        A CSV file; a path ending in ``.gz`` is read as gzip.
    limits : mlfs_core.data.limits.Limits, optional
        The budgets (default :func:`~mlfs_core.data.limits.current_limits`):
        more than ``max_text_mb`` megabytes of text, decompressed, are
        refused while reading.

    Returns
    -------
    DataFrame
        The table as written, with at least the columns ``dataset, method,
        metric, value`` and ``budget`` or ``budget_pct``; ``value`` is numeric.

    Raises
    ------
    MLFSError
        If the file cannot be read as CSV (the message names the file and the
        line: a row with extra fields, an unclosed quote), is above the text
        budget, lacks a required column (the message names the file and every
        missing column) or its ``value`` column is not numeric.

    Examples
    --------
    >>> import io
    >>> text = "dataset,method,budget,metric,value\\nd,MaxCS,10,micro_f1,0.5\\n"
    >>> read_results(io.StringIO(text))["value"].tolist()
    [0.5]
    >>> read_results(io.StringIO("dataset,method\\nd,MaxCS\\n"))
    Traceback (most recent call last):
    ...
    mlfs_core.errors.MLFSError: <stream> lacks the column(s) metric, value, budget
    """
    name = _file_name(path)
    table = _read_csv(path, name, limits=limits)
    missing = [c for c in _RESULTS_REQUIRED if c not in table.columns]
    if BUDGET not in table.columns and BUDGET_PCT not in table.columns:
        missing.append(BUDGET)
    if missing:
        raise MLFSError(f"{name} lacks the column(s) {', '.join(missing)}")
    if not pd.api.types.is_numeric_dtype(table[VALUE]):
        raise MLFSError(f"{name}: the {VALUE} column is not numeric")
    return table


def read_selections(path: str | os.PathLike | IO, *, limits=None) -> pd.DataFrame:
    """Read a selections table whose ``features`` column holds ranked indices.

    Parameters
    ----------
    path : str, path-like or file object
        A CSV file; a path ending in ``.gz`` is read as gzip. Each
        ``features`` cell holds space-separated feature indices, best first.
    limits : mlfs_core.data.limits.Limits, optional
        The budgets, as for :func:`read_results`.

    Returns
    -------
    DataFrame
        The table with ``features`` turned into int ndarrays (an empty cell
        gives an empty array); other columns as written, the ``feature_names``
        column of ``mlfs experiment`` (the ranking's names, ``|``-separated)
        as text.

    Raises
    ------
    MLFSError
        If the file cannot be read as CSV, lacks ``dataset``, ``method`` or
        ``features`` (the message names the file and the columns), or a
        ``features`` cell holds something other than integers.

    Examples
    --------
    >>> import io
    >>> text = "dataset,method,fold,features\\nd,MaxCS,0,3 1 2\\nd,Random,0,\\n"
    >>> [f.tolist() for f in read_selections(io.StringIO(text))["features"]]
    [[3, 1, 2], []]
    """
    name = _file_name(path)
    # Read features (and names) as text: a column of single indices would
    # otherwise be ints, and a feature named "12" would become a number.
    # (features as Python strings: they are parsed next, and pandas 3's
    # Arrow-backed strings would cost a conversion of the whole column first)
    types = {FEATURES: object, FEATURE_NAMES: str}
    table = _read_csv(path, name, dtype=types, limits=limits)
    missing = [c for c in _SELECTIONS_REQUIRED if c not in table.columns]
    if missing:
        raise MLFSError(f"{name} lacks the column(s) {', '.join(missing)}")
    table[FEATURES] = _parse_column(list(table[FEATURES]), name=name)
    return table


_INT64 = np.iinfo(np.int64)
_SIGN_INSIDE = re.compile(r"[0-9+-][+-]|[+-](?![0-9])")
"""A sign after a digit or a sign, or one not followed by a digit."""


def _parse_column(cells: list, *, name: str) -> list[np.ndarray]:
    """Every ``features`` cell as an int array, in one parse of the column.

    A study's selections hold millions of indices: one ``np.fromstring`` of
    the joined cells is about 4x faster than a conversion per cell. Cells
    that are not single-space separated integers (or an index at the int64
    limits, where the fast parse would saturate) go cell by cell through
    :func:`_parse_indices`, which gives the same arrays and its error.
    """
    texts = [c if isinstance(c, str) else "" for c in cells]
    counts = [c.count(" ") + 1 if c else 0 for c in texts]
    joined = " ".join(t for t in texts if t)
    # Only digits, spaces and a sign opening a token reach the fast parse: on
    # "1-2" numpy < 2 stops early with a DeprecationWarning and numpy 2 raises,
    # so such cells, and any warning of the parse, go cell by cell.
    plain = not joined.encode("utf-8").translate(None, b"0123456789 +-")
    # (the regex only where a sign occurs: on a study's 30 MB of indices it
    # cost 3 s where the substring tests cost milliseconds)
    signed = "-" in joined or "+" in joined
    plain = plain and not (signed and _SIGN_INSIDE.search(joined))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            flat = np.fromstring(joined, dtype=np.int64, sep=" ") if plain else None
    except (ValueError, DeprecationWarning):  # "1-2": unparsed text
        flat = None
    regular = flat is not None and flat.size == sum(counts)
    if regular and flat.size:
        regular = _INT64.min < flat.min() and flat.max() < _INT64.max
    if not regular:
        return [
            _parse_indices(cell, name=name, row=row)
            for row, cell in enumerate(cells, start=2)
        ]
    return np.split(flat, np.cumsum(counts)[:-1])


EXACT_FLOATS: dict[str, str] = (
    {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
)
"""``pd.read_csv`` keywords that read floats exactly as written: before pandas 3
the C parser's default may be 1 ulp off (and ``mlfs verify`` compares values
exactly); pandas 3 reads them exactly by default and deprecates the option."""


_FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_EOF_IN_STRING = re.compile(r"EOF inside string starting at row (\d+)")


def _read_csv(
    path, name: str, *, dtype: dict | None = None, limits=None
) -> pd.DataFrame:
    """``pd.read_csv`` through :func:`~mlfs_core.data.limits.bounded_stream`,
    its errors turned into messages naming the file and line."""
    from ..data.limits import bounded_stream

    try:
        with bounded_stream(path, name, limits) as stream:
            table = pd.read_csv(stream, dtype=dtype, **EXACT_FLOATS)
        return unescape_csv_text(table)
    except MLFSError:
        raise
    except pd.errors.EmptyDataError:
        raise MLFSError(
            f"{name} is not a readable CSV file: it is empty (no header row)"
        ) from None
    except (OSError, ValueError, UnicodeDecodeError, EOFError) as exc:
        raise MLFSError(_parse_message(name, exc)) from None


def _parse_message(name: str, exc: Exception) -> str:
    """What a pandas/gzip/decoding error means, naming the file and line."""
    text = " ".join(str(exc).split())
    fields = _FIELDS.search(text)
    if fields:
        expected, line, saw = fields.groups()
        return (
            f"{name}, line {line}: {saw} fields where the header row has "
            f"{expected} (a comma in an unquoted value, or rows of another "
            "table?)"
        )
    quote = _EOF_IN_STRING.search(text)
    if quote:
        line = int(quote.group(1)) + 1
        return f"{name}, line {line}: a quoted value is never closed"
    if isinstance(exc, UnicodeDecodeError):
        return f"{name} is not UTF-8 text ({exc.reason} at byte {exc.start})"
    return f"{name} is not a readable CSV file: {text}"


def _parse_indices(cell, *, name: str, row: int) -> np.ndarray:
    """Space-separated indices -> int array; NaN (an empty cell) -> empty array."""
    if not isinstance(cell, str):
        return np.array([], dtype=np.int64)
    try:
        return np.array(cell.split(), dtype=np.int64)
    except ValueError:
        raise MLFSError(
            f"{name}, line {row}: {FEATURES} must hold space-separated integers, "
            f"got {cell[:40]!r}"
        ) from None


def _file_name(path) -> str:
    """The file's name for messages; ``<stream>`` for an unnamed file object."""
    if isinstance(path, (str, os.PathLike)):
        return Path(path).name
    return Path(str(getattr(path, "name", "<stream>"))).name


_FORMULA_START = "=+-@\t\r"
"""First characters that make a spreadsheet read a CSV cell as a formula
(OWASP, "CSV Injection")."""


def escape_csv_text(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each text cell that a spreadsheet would run defused.

    OWASP's rule for CSV injection: a text cell that starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``, so
    a spreadsheet shows it as text instead of evaluating ``=cmd|...``. A
    cell that starts with ``'`` gets one too, so :func:`unescape_csv_text`
    (which the readers of :mod:`mlfs_core.evaluation.io` apply) gives every
    name back exactly. Only text cells of text (object or string) columns
    are touched (and column names: a pivot's header holds method names),
    never numbers, nor text that reads as a number (``-1.5``).

    Examples
    --------
    >>> t = pd.DataFrame({"f": ["=cmd|' /C calc'!A0", "-1.5", "a-b"], "v": [-1, 2, 3]})
    >>> escape_csv_text(t)["f"].tolist()
    ["'=cmd|' /C calc'!A0", '-1.5', 'a-b']
    >>> unescape_csv_text(escape_csv_text(t)).equals(t)
    True
    """
    return _replace_text(table, _formula_like, lambda v: "'" + v)


def unescape_csv_text(table: pd.DataFrame) -> pd.DataFrame:
    """The inverse of :func:`escape_csv_text`: one leading ``'`` off text cells
    that start with it."""
    return _replace_text(table, lambda v: v.startswith("'"), lambda v: v[1:])


def _formula_like(text: str) -> bool:
    if not text or text[0] not in _FORMULA_START + "'":
        return False
    try:
        float(text)
    except ValueError:
        return True
    return False  # a number written as text ("-1.5") stays as it is


def _replace_text(table: pd.DataFrame, test, change) -> pd.DataFrame:
    """``table`` with ``change(v)`` for each text cell ``v`` where ``test(v)``.

    Each column's distinct values are tested once (a results table repeats a
    few names over many rows); only object and string columns are looked at,
    and the column names (a pivot's header holds method names).
    """
    out = None
    names = [change(c) if isinstance(c, str) and test(c) else c for c in table.columns]
    if names != list(table.columns):  # a pivot's header holds names too
        out = table.set_axis(names, axis=1)
    for position, column in enumerate(table.columns):
        cells = table.iloc[:, position]
        if not (cells.dtype == object or pd.api.types.is_string_dtype(cells.dtype)):
            continue
        try:
            distinct = pd.unique(cells.to_numpy(dtype=object))
        except TypeError:  # unhashable cells (arrays): not a text column
            continue
        changed = {
            v: change(v)
            for v in distinct
            if isinstance(v, str) and test(v)  # ndarray cells are not text
        }
        if changed:
            out = table.copy() if out is None else out
            hit = cells.isin(list(changed))
            out.isetitem(position, cells.mask(hit, cells[hit].map(changed)))
    return table if out is None else out
