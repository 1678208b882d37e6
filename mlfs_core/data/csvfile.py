"""CSV datasets: a header row of column names, then one numeric row per sample.

Label columns are chosen with ``labels=`` (names), ``label_prefix=`` or
``label_count=`` (``n > 0`` first ``n`` columns, ``n < 0`` last ``|n|``: the same
MEKA convention as for ARFF, so label columns placed last need a negative count).
Label values must be 0 or 1. Every other column is a numeric feature; empty cells,
``?`` and NaN are errors (missing values are not supported; impute before loading).
"""

from __future__ import annotations

import csv
import os

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._encode import choose_labels
from ._text import Source, open_lines, source_name
from .limits import check_names, current_limits, too_many

# Rows converted at once: bounds the Python strings alive to one chunk.
_CHUNK_CELLS = 1 << 18


def read_csv(
    source: Source,
    *,
    labels: list[str] | None = None,
    label_count: int | None = None,
    label_prefix: str | None = None,
) -> tuple[sp.csr_matrix, np.ndarray, list[str], list[str]]:
    """Return ``(X, Y, feature_names, label_names)`` from a CSV file.

    Rows are parsed by :mod:`csv` and converted to numbers in chunks of about
    ``2**18`` cells, each chunk's features going straight into a sparse
    block, so only one chunk of cell strings is ever alive. The header's
    columns are counted first (:func:`count_csv_columns`, a byte scan of the
    first line) against the attribute budget
    (:data:`~mlfs_core.data.limits.Limits.max_attributes`), the rows against
    ``max_instances`` as they are read, the names against ``max_name_chars``.

    Examples
    --------
    >>> X, Y, f, l = read_csv(b"w1,w2,y\\n1,0,1\\n0,3,0\\n", label_count=-1)
    >>> X.toarray().tolist(), Y.ravel().tolist(), f, l
    ([[1.0, 0.0], [0.0, 3.0]], [1, 0], ['w1', 'w2'], ['y'])
    """
    where = source_name(source)
    spec = {"labels": labels, "label_count": label_count, "label_prefix": label_prefix}
    limits = current_limits()
    if isinstance(source, (str, os.PathLike, bytes)):  # before the header is split
        n = count_csv_columns(source)
        if n > limits.max_attributes:
            raise DatasetError(too_many("columns", n, limits.max_attributes, where))
    spec["limits"] = limits
    with open_lines(source) as text:
        reader = csv.reader(text, strict=True)
        try:
            header, blocks = _read_blocks(reader, where, spec)
        except csv.Error as exc:
            raise DatasetError(f"{where}, line {reader.line_num}: {exc}") from None
    X = sp.vstack([b.X for b in blocks], format="csr")
    Y = np.concatenate([b.Y for b in blocks])
    return X, Y, header.feature_names, header.label_names


class _Header:
    """Column names and which columns are labels."""

    def __init__(self, names: list[str], where: str, line: int, spec: dict) -> None:
        spec = dict(spec)
        limits = spec.pop("limits")
        if len(names) > limits.max_attributes:
            raise DatasetError(
                too_many("columns", len(names), limits.max_attributes, where)
            )
        check_names(names, "column", f"{where}, line {line}", limits)
        _check_header(names, where, line)
        self.names = names
        self.max_rows = limits.max_instances
        self.label_idx = choose_labels(names, where, **spec)
        if self.label_idx.size == len(names):
            raise DatasetError(f"{where}: zero features: every column is a label")
        self.keep = np.setdiff1d(np.arange(len(names)), self.label_idx)
        self.feature_names = [names[i] for i in self.keep]
        self.label_names = [names[i] for i in self.label_idx]


class _Block:
    """One chunk of rows as a sparse feature block and int8 labels."""

    def __init__(self, rows, lines, header: _Header, where: str) -> None:
        values = _to_float(rows, lines, header.names, where)
        Y = values[:, header.label_idx]
        bad = np.argwhere(~np.isin(Y, (0, 1)))
        if bad.size:
            row, col = bad[0]
            raise DatasetError(
                f"{where}, line {lines[row]}: label column "
                f"{header.label_names[col]!r} has value {Y[row, col]:g}, "
                "expected 0 or 1"
            )
        self.X = sp.csr_matrix(values[:, header.keep])
        self.Y = Y.astype(np.int8)


def _read_blocks(reader, where: str, spec: dict) -> tuple[_Header, list[_Block]]:
    header, blocks, rows, lines, n_rows = None, [], [], [], 0
    for row in reader:
        if not row or all(not cell.strip() for cell in row):
            continue
        if header is None:
            names = [cell.strip() for cell in row]
            header = _Header(names, where, reader.line_num, spec)
            chunk_rows = max(1, _CHUNK_CELLS // len(names))
            continue
        if len(row) != len(header.names):
            what = "too many" if len(row) > len(header.names) else "too few"
            raise DatasetError(
                f"{where}, line {reader.line_num}: {what} values: {len(row)} "
                f"for {len(header.names)} columns"
            )
        rows.append(row)
        lines.append(reader.line_num)
        n_rows += 1
        if n_rows > header.max_rows:
            raise DatasetError(
                f"{where}, line {reader.line_num}: more than {header.max_rows:,} "
                "rows, above the budget (refused while reading; set "
                "MLFS_MAX_INSTANCES to raise it)"
            )
        if len(rows) == chunk_rows:
            blocks.append(_Block(rows, lines, header, where))
            rows, lines = [], []
    if header is None:
        raise DatasetError(f"{where}: the file is empty")
    if rows:
        blocks.append(_Block(rows, lines, header, where))
    if not blocks:
        raise DatasetError(f"{where}: no data rows after the header")
    return header, blocks


def count_csv_columns(source) -> int:
    """Columns of a CSV file's first non-blank line, by a byte scan.

    The delimiters of the line plus one, counted one block at a time without
    splitting the line (a comma inside a quoted name counts too: an upper
    bound). ``source`` is a path or bytes.

    Examples
    --------
    >>> count_csv_columns(b"\\n a,b,c\\n1,2,3\\n")
    3
    """
    if isinstance(source, bytes):
        blocks = iter([source])
        handle = None
    else:
        handle = open(source, "rb")  # noqa: SIM115 (closed below)
        blocks = iter(lambda: handle.read(1 << 22), b"")
    try:
        commas, started = 0, False
        for block in blocks:
            if not started:  # skip blank lines before the header
                stripped = block.lstrip(b" \t\r\n")
                if not stripped:
                    continue
                block, started = stripped, True
            end = block.find(b"\n")
            commas += block.count(b",", 0, end if end >= 0 else len(block))
            if end >= 0:
                return commas + 1
        return commas + 1 if started else 0
    finally:
        if handle is not None:
            handle.close()


def _check_header(header: list[str], where: str, line: int) -> None:
    if "" in header:
        raise DatasetError(f"{where}, line {line}: a column has an empty name")
    if len(set(header)) != len(header):
        raise DatasetError(f"{where}, line {line}: repeated column names")


def _to_float(rows: list[list[str]], lines: list[int], header: list[str], where: str):
    try:  # float() per cell: it strips blanks, as the old np.char.strip did
        values = np.array(rows, dtype=np.float64)
    except (ValueError, OverflowError):
        values = None
    bad = None
    if values is None:
        bad = next(
            (r, c)
            for r, row in enumerate(rows)
            for c, cell in enumerate(row)
            if not _is_number(cell)
        )
    elif not np.isfinite(values).all():
        bad = tuple(np.argwhere(~np.isfinite(values))[0])
    if bad is None:
        return values
    row, col = int(bad[0]), int(bad[1])
    cell = rows[row][col].strip()
    if cell in ("", "?") or (_is_number(cell) and not np.isfinite(float(cell))):
        hint = "; missing values are not supported, impute them before loading"
    elif not _is_number(cell):
        hint = (
            f"; column {header[col]!r} holds text, and every feature must be a "
            "number: drop the column or encode it as numbers before loading"
        )
    else:
        hint = ""
    raise DatasetError(
        f"{where}, line {lines[row]}, column {header[col]!r}: "
        f"value {cell[:30]!r} is not a "
        f"finite number{hint}"
    )


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
