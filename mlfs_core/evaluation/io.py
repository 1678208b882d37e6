"""Readers of the experiment output tables ``results.csv`` and ``selections.csv``.

They read what :func:`mlfs_core.evaluation.outputs.write_run_files` writes,
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

RESULTS_REQUIRED = (DATASET, METHOD, METRIC, VALUE)
"""Columns every results table needs, besides ``budget`` or ``budget_pct``."""
FEATURE_NAMES = "feature_names"
"""The optional column of the ranked features' names (``|``-separated)."""
SELECTIONS_REQUIRED = (DATASET, METHOD, FEATURES)
"""Columns every selections table needs."""


def read_results(path: str | os.PathLike | IO) -> pd.DataFrame:
    """Read a tidy results table (one row per dataset, method, budget, fold, metric).

    Parameters
    ----------
    path : str, path-like or file object
        A CSV file; a path ending in ``.gz`` is read as gzip.

    Returns
    -------
    DataFrame
        The table as written, with at least the columns ``dataset, method,
        metric, value`` and ``budget`` or ``budget_pct``; ``value`` is numeric.

    Raises
    ------
    MLFSError
        If the file cannot be read as CSV, lacks a required column (the
        message names the file and every missing column) or its ``value``
        column is not numeric.

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
    table = _read_csv(path, name)
    missing = [c for c in RESULTS_REQUIRED if c not in table.columns]
    if BUDGET not in table.columns and BUDGET_PCT not in table.columns:
        missing.append(BUDGET)
    if missing:
        raise MLFSError(f"{name} lacks the column(s) {', '.join(missing)}")
    if not pd.api.types.is_numeric_dtype(table[VALUE]):
        raise MLFSError(f"{name}: the {VALUE} column is not numeric")
    return table


def read_selections(path: str | os.PathLike | IO) -> pd.DataFrame:
    """Read a selections table whose ``features`` column holds ranked indices.

    Parameters
    ----------
    path : str, path-like or file object
        A CSV file; a path ending in ``.gz`` is read as gzip. Each
        ``features`` cell holds space-separated feature indices, best first.

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
    table = _read_csv(path, name, dtype={FEATURES: object, FEATURE_NAMES: str})
    missing = [c for c in SELECTIONS_REQUIRED if c not in table.columns]
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


def _read_csv(path, name: str, *, dtype: dict | None = None) -> pd.DataFrame:
    try:
        return pd.read_csv(path, dtype=dtype, **EXACT_FLOATS)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise MLFSError(f"{name} is not a readable CSV file: {exc}") from None


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
