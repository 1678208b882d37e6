"""Streaming ARFF reader that builds a CSR matrix directly.

Why not liac-arff: it rejects files Weka reads (SLASHDOT-F's ``%50`` comment after
the relation name) and materialises every row as Python objects before any matrix
exists; this reader parses line by line into flat token lists, converts them in
chunks with vectorised numpy calls, and never holds more than one chunk of Python
strings (see ``bench/bench_loading.py`` for time and peak-memory figures).

The result is a :class:`RawTable`: one column per attribute, numeric attributes as
floats, nominal attributes as the 0-based index of the value in the declaration
(Weka's internal coding, so an omitted entry of a sparse row is the first declared
value), string/date attributes as 0. Turning it into features and labels is the
job of :mod:`mlfs_core.data._encode`.

Missing values (``?``) and non-finite numbers (``nan``, ``inf``) are not supported:
they raise :class:`~mlfs_core.errors.DatasetError` naming the file, line and
attribute. Impute them before loading.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._arff_header import NOMINAL, NUMERIC, Attribute, parse_header
from ._text import (
    Source,
    open_lines,
    read_token,
    source_name,
    split_quoted,
    strip_comment,
)

_CHUNK_TOKENS = 50_000  # bounds the Python strings held at once (peak memory)


@dataclass
class RawTable:
    """Attributes and their raw values, one row per data line.

    Attributes
    ----------
    attributes : list of Attribute
    relation : str
    values : scipy.sparse.csr_matrix of shape (n_rows, n_attributes)
        Numeric values, or nominal value indices (see module docstring).
    row_lines : ndarray of shape (n_rows,)
        Line number of each row in the file, for error messages.
    where : str
        File name used in messages.
    """

    attributes: list[Attribute]
    relation: str
    values: sp.csr_matrix
    row_lines: np.ndarray
    where: str


def read_arff(source: Source) -> RawTable:
    """Read an ARFF file (dense and/or sparse rows) into a :class:`RawTable`.

    Parameters
    ----------
    source : path, bytes or file object
        The ARFF text.

    Returns
    -------
    RawTable

    Raises
    ------
    DatasetError
        A header declaring more attributes than the budget
        (:mod:`mlfs_core.data.limits`), empty file, no ``@data``, no rows, a
        row with too many or too few values, a
        sparse index out of range or repeated, an undeclared nominal value, ``?``
        or a non-finite number; the message names file, line and attribute.

    Examples
    --------
    >>> import io
    >>> text = ("@relation r\\n@attribute a real\\n@attribute b {x,y}\\n"
    ...         "@data\\n1.5,y\\n{1 y}\\n")
    >>> table = read_arff(io.StringIO(text))
    >>> table.values.toarray().tolist(), table.row_lines.tolist()
    ([[1.5, 1.0], [0.0, 1.0]], [5, 6])
    """
    import os

    from .limits import check_arff_budget, current_limits

    where = source_name(source)
    limits = current_limits()
    if isinstance(source, (str, os.PathLike)) and os.path.isfile(source):
        check_arff_budget(source, limits)  # before any parsing or allocation
    with open_lines(source) as lines:
        header = parse_header(lines, where, max_attributes=limits.max_attributes)
        reader = _RowReader(header.attributes, where)
        for number, raw in enumerate(lines, start=header.data_line + 1):
            reader.add_line(raw, number)
        values, row_lines = reader.finish()
    if values.shape[0] == 0:
        raise DatasetError(
            f"{where}: no data rows after @data (line {header.data_line})"
        )
    return RawTable(header.attributes, header.relation, values, row_lines, where)


class _RowReader:
    """Accumulate tokens of data lines and convert them to CSR in chunks."""

    def __init__(self, attributes: list[Attribute], where: str) -> None:
        self.converter = _ValueConverter(attributes, where)
        self.n_attributes = len(attributes)
        self.dense_cols = [str(i) for i in range(self.n_attributes)]
        self.where = where
        self.blocks: list[sp.csr_matrix] = []
        self.lines: list[int] = []
        self._reset()

    def _reset(self) -> None:
        self.cols: list[str] = []
        self.vals: list[str] = []
        self.lens: list[int] = []
        self.chunk_lines: list[int] = []

    def add_line(self, raw: str, number: int) -> None:
        line = raw.strip()
        if not line or line[0] == "%":
            return
        if "%" in line:
            line = strip_comment(line).strip()
            if not line:
                return
        if line[0] == "{":
            cols, vals = self._sparse(line, number)
        else:
            cols, vals = self.dense_cols, self._dense(line, number)
        self.cols.extend(cols)
        self.vals.extend(vals)
        self.lens.append(len(vals))
        self.chunk_lines.append(number)
        if len(self.vals) >= _CHUNK_TOKENS:
            self._flush()

    def _dense(self, line: str, number: int) -> list[str]:
        if "'" in line or '"' in line:
            try:
                values = split_quoted(line)
            except ValueError as exc:
                raise DatasetError(f"{self.where}, line {number}: {exc}") from None
        else:
            values = [value.strip() for value in line.split(",")]
        if len(values) != self.n_attributes:
            what = "too many" if len(values) > self.n_attributes else "too few"
            raise DatasetError(
                f"{self.where}, line {number}: {what} values: {len(values)} "
                f"for {self.n_attributes} attributes"
            )
        return values

    def _sparse(self, line: str, number: int) -> tuple[list[str], list[str]]:
        if not line.endswith("}"):
            raise DatasetError(
                f"{self.where}, line {number}: sparse row lacks a closing '}}'"
            )
        body = line[1:-1]
        if "'" in body or '"' in body:
            return self._sparse_quoted(body, number)
        parts = body.replace(",", " ").split()
        if len(parts) % 2 or body.count(",") + 1 != max(len(parts) // 2, 1):
            raise DatasetError(
                f"{self.where}, line {number}: sparse row must be "
                "'{{index value, ...}}'"
            )
        return parts[0::2], parts[1::2]

    def _sparse_quoted(self, body: str, number: int) -> tuple[list[str], list[str]]:
        cols, vals, pos = [], [], 0
        try:
            while pos < len(body):
                index, pos = read_token(body, pos)
                value, pos = read_token(body, pos, stop=",")
                cols.append(index)
                vals.append(value)
                rest = body[pos:].lstrip()
                if rest and rest[0] != ",":
                    raise ValueError(f"unexpected {rest[:10]!r}")
                pos = len(body) - len(rest) + 1
        except ValueError as exc:
            raise DatasetError(f"{self.where}, line {number}: {exc}") from None
        return cols, vals

    def _flush(self) -> None:
        if not self.lens:
            return
        indptr = np.zeros(len(self.lens) + 1, dtype=np.int64)
        np.cumsum(self.lens, out=indptr[1:])
        row_lines = np.asarray(self.chunk_lines, dtype=np.int64)
        locate = _Locator(indptr, row_lines)
        cols = self._columns(locate)
        data = self.converter.convert(cols, self.vals, locate)
        block = sp.csr_matrix(
            (data, cols, indptr), shape=(len(self.lens), self.n_attributes)
        )
        self.blocks.append(block)
        self.lines.extend(self.chunk_lines)
        self._reset()

    def _columns(self, locate: _Locator) -> np.ndarray:
        tokens = np.asarray(self.cols) if self.cols else np.zeros(0, dtype=str)
        try:
            cols = tokens.astype(np.int64)
        except (ValueError, OverflowError):
            k = _first_failure(self.cols, int)
            raise DatasetError(
                f"{self.where}, line {locate.line(k)}: sparse index {self.cols[k]!r} "
                "is not an integer"
            ) from None
        bad = np.flatnonzero((cols < 0) | (cols >= self.n_attributes))
        if bad.size:
            k = int(bad[0])
            raise DatasetError(
                f"{self.where}, line {locate.line(k)}: sparse index {cols[k]} out of "
                f"range 0..{self.n_attributes - 1}"
            )
        _check_repeats(cols, locate, self.n_attributes, self.where)
        return cols

    def finish(self) -> tuple[sp.csr_matrix, np.ndarray]:
        self._flush()
        if not self.blocks:
            empty = sp.csr_matrix((0, self.n_attributes), dtype=np.float64)
            return empty, np.zeros(0, dtype=np.int64)
        values = sp.vstack(self.blocks, format="csr")
        values.eliminate_zeros()
        values.sort_indices()
        return values, np.asarray(self.lines, dtype=np.int64)


class _Locator:
    """Map a flat token position to its row and line number."""

    def __init__(self, indptr: np.ndarray, row_lines: np.ndarray) -> None:
        self.indptr = indptr
        self.row_lines = row_lines

    def rows(self, positions: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.indptr, positions, side="right") - 1

    def line(self, position: int) -> int:
        return int(self.row_lines[self.rows(np.asarray([position]))[0]])


def _check_repeats(cols: np.ndarray, locate: _Locator, n_attr: int, where: str) -> None:
    rows = locate.rows(np.arange(cols.size))
    keys = rows * n_attr + cols
    uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
    if uniq.size == keys.size:
        return
    k = int(first[np.flatnonzero(counts > 1)[0]])
    raise DatasetError(
        f"{where}, line {locate.line(k)}: sparse index {cols[k]} appears twice "
        "in the row"
    )


def _first_failure(tokens: list[str], parse) -> int:
    for k, token in enumerate(tokens):
        try:
            parse(token)
        except (ValueError, OverflowError):
            return k
    return 0


class _ValueConverter:
    """Convert value tokens to floats / nominal codes, grouped by attribute type."""

    def __init__(self, attributes: list[Attribute], where: str) -> None:
        self.attributes = attributes
        self.where = where
        kinds = [a.kind for a in attributes]
        self.is_numeric = np.array([k == NUMERIC for k in kinds], dtype=bool)
        groups: dict[tuple[str, ...], int] = {}
        group_of = [
            groups.setdefault(a.values, len(groups)) if a.kind == NOMINAL else -1
            for a in attributes
        ]
        self.group_of = np.array(group_of, dtype=np.int64)
        self.lookups = [{v: i for i, v in enumerate(values)} for values in groups]

    def convert(
        self, cols: np.ndarray, tokens: list[str], locate: _Locator
    ) -> np.ndarray:
        out = np.zeros(len(tokens), dtype=np.float64)
        if not tokens:
            return out
        strings = np.asarray(tokens)
        numeric = self.is_numeric[cols]
        if numeric.any():
            out[numeric] = self._numbers(strings, np.flatnonzero(numeric), cols, locate)
        groups = self.group_of[cols]
        for group in np.unique(groups[groups >= 0]):
            where = np.flatnonzero(groups == group)
            out[where] = self._codes(strings[where], where, int(group), cols, locate)
        return out

    def _numbers(self, strings, where, cols, locate) -> np.ndarray:
        chosen = strings[where]
        try:
            values = chosen.astype(np.float64)
        except (ValueError, OverflowError):
            k = _first_failure(list(chosen), float)
            self._fail(int(where[k]), str(chosen[k]), cols, locate, "is not a number")
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            k = int(bad[0])
            self._fail(int(where[k]), str(chosen[k]), cols, locate, "is not finite")
        return values

    def _codes(self, strings, where, group, cols, locate) -> np.ndarray:
        uniq, inverse = np.unique(strings, return_inverse=True)
        lookup = self.lookups[group]
        codes = np.array([lookup.get(str(u), -1) for u in uniq], dtype=np.int64)[
            inverse
        ]
        bad = np.flatnonzero(codes < 0)
        if bad.size:
            k = int(bad[0])
            self._fail(
                int(where[k]), str(strings[k]), cols, locate, "is not a declared value"
            )
        return codes.astype(np.float64)

    def _fail(self, position, token, cols, locate, problem) -> None:
        name = self.attributes[int(cols[position])].name
        line = locate.line(position)
        if token == "?":
            raise DatasetError(
                f"{self.where}, line {line}, attribute {name!r}: missing value '?'; "
                "missing values are not supported, impute them before loading"
            )
        raise DatasetError(
            f"{self.where}, line {line}, attribute {name!r}: "
            f"value {token[:30]!r} {problem}"
        )
