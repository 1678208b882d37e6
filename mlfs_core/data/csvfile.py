"""CSV datasets: a header row of column names, then one numeric row per sample.

Label columns are chosen with ``labels=`` (names), ``label_prefix=`` or
``label_count=`` (``n > 0`` first ``n`` columns, ``n < 0`` last ``|n|``: the same
MEKA convention as for ARFF, so label columns placed last need a negative count).
Label values must be 0 or 1. Every other column is a numeric feature; empty cells,
``?`` and NaN are errors (missing values are not supported; impute before loading).
"""

from __future__ import annotations

import csv

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._encode import choose_labels
from ._text import Source, open_lines, source_name


def read_csv(
    source: Source,
    *,
    labels: list[str] | None = None,
    label_count: int | None = None,
    label_prefix: str | None = None,
) -> tuple[sp.csr_matrix, np.ndarray, list[str], list[str]]:
    """Return ``(X, Y, feature_names, label_names)`` from a CSV file.

    Examples
    --------
    >>> X, Y, f, l = read_csv(b"w1,w2,y\\n1,0,1\\n0,3,0\\n", label_count=-1)
    >>> X.toarray().tolist(), Y.ravel().tolist(), f, l
    ([[1.0, 0.0], [0.0, 3.0]], [1, 0], ['w1', 'w2'], ['y'])
    """
    where = source_name(source)
    header, rows, lines = _read_rows(source, where)
    values = _to_float(rows, lines, header, where)
    label_idx = choose_labels(
        header, where, labels=labels, label_count=label_count, label_prefix=label_prefix
    )
    if label_idx.size == len(header):
        raise DatasetError(f"{where}: zero features: every column is a label")
    Y = values[:, label_idx]
    bad = np.argwhere(~np.isin(Y, (0, 1)))
    if bad.size:
        row, col = bad[0]
        raise DatasetError(
            f"{where}, line {lines[row]}: label column {header[label_idx[col]]!r} has "
            f"value {Y[row, col]:g}, expected 0 or 1"
        )
    keep = np.setdiff1d(np.arange(len(header)), label_idx)
    X = sp.csr_matrix(values[:, keep])
    return (
        X,
        Y.astype(np.int8),
        [header[i] for i in keep],
        [header[i] for i in label_idx],
    )


def _read_rows(source: Source, where: str):
    rows, lines, header = [], [], None
    with open_lines(source) as text:
        reader = csv.reader(text, strict=True)
        try:
            for row in reader:
                if not row or all(not cell.strip() for cell in row):
                    continue
                if header is None:
                    header = [cell.strip() for cell in row]
                    _check_header(header, where, reader.line_num)
                    continue
                if len(row) != len(header):
                    what = "too many" if len(row) > len(header) else "too few"
                    raise DatasetError(
                        f"{where}, line {reader.line_num}: {what} values: {len(row)} "
                        f"for {len(header)} columns"
                    )
                rows.append(row)
                lines.append(reader.line_num)
        except csv.Error as exc:
            raise DatasetError(f"{where}, line {reader.line_num}: {exc}") from None
    if header is None:
        raise DatasetError(f"{where}: the file is empty")
    if not rows:
        raise DatasetError(f"{where}: no data rows after the header")
    return header, rows, lines


def _check_header(header: list[str], where: str, line: int) -> None:
    if "" in header:
        raise DatasetError(f"{where}, line {line}: a column has an empty name")
    if len(set(header)) != len(header):
        raise DatasetError(f"{where}, line {line}: repeated column names")


def _to_float(rows: list[list[str]], lines: list[int], header: list[str], where: str):
    cells = np.char.strip(np.asarray(rows, dtype=str))
    try:
        values = cells.astype(np.float64)
    except (ValueError, OverflowError):
        values = None
    bad = None
    if values is None:
        bad = next(
            (r, c)
            for r, row in enumerate(cells)
            for c, cell in enumerate(row)
            if not _is_number(cell)
        )
    elif not np.isfinite(values).all():
        bad = tuple(np.argwhere(~np.isfinite(values))[0])
    if bad is None:
        return values
    row, col = int(bad[0]), int(bad[1])
    cell = str(cells[row, col])
    hint = (
        "; missing values are not supported, impute them before loading"
        if cell in ("", "?") or not np.isfinite(_as_float(cell))
        else ""
    )
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


def _as_float(cell: str) -> float:
    try:
        return float(cell)
    except ValueError:
        return float("nan")
