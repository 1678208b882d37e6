"""Multi-label svmlight / LIBSVM files: ``l1,l2 idx:val idx:val ... # comment``.

Labels are non-negative integers (an empty label set is a line starting with a
feature or with whitespace); q is ``n_labels`` when given, else the largest label +
1. Feature indices are zero-based when the smallest index in the file is 0, else
one-based (scikit-learn's ``zero_based="auto"``); M is the largest index + 1.
``qid`` tokens are not supported. Values must be finite numbers. The file's
discovered size (rows, values, its largest feature or label index) is checked
line by line against :mod:`mlfs_core.data.limits`' budgets, before the matrix
is built.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._text import Source, open_lines, source_name
from .limits import current_limits, too_many


def read_svmlight(
    source: Source, *, n_labels: int | None = None
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Return ``(X, Y)`` from a multi-label svmlight file.

    Examples
    --------
    >>> X, Y = read_svmlight(b"0,2 1:1.5 3:2\\n1 2:1\\n")
    >>> X.toarray().tolist(), Y.tolist()
    ([[1.5, 0.0, 2.0], [0.0, 1.0, 0.0]], [[1, 0, 1], [0, 1, 0]])
    """
    where = source_name(source)
    limits = current_limits()
    label_sets, cols, vals, lens = [], [], [], []
    widest = 0
    with open_lines(source) as lines:
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0]
            if not line.strip():
                continue
            row_labels, row_cols, row_vals = _parse_line(line, where, number)
            widest = max(widest, max(row_cols, default=0), *row_labels, 0)
            n = len(cols) + len(row_cols)
            _check_size(len(lens) + 1, n, widest, limits, where, number)
            label_sets.append(row_labels)
            cols.extend(row_cols)
            vals.extend(row_vals)
            lens.append(len(row_cols))
    if not lens:
        raise DatasetError(f"{where}: the file has no data lines")
    return _build_X(cols, vals, lens, where), _build_Y(label_sets, n_labels, where)


def _check_size(rows: int, values: int, widest: int, limits, where="", line=0):
    """Refuse a file whose discovered size passes a budget (while it streams)."""
    for count, limit, what, var in (
        (rows, limits.max_instances, "{:,} rows", "MLFS_MAX_INSTANCES"),
        (values, limits.max_cells, "{:,} values", "MLFS_MAX_CELLS"),
        (widest, limits.max_attributes, "feature or label index {:,}", ""),
    ):
        if count > limit:
            var = var or "MLFS_MAX_ATTRIBUTES"
            raise DatasetError(
                f"{where}, line {line}: {what.format(count)}, above the budget of "
                f"{limit:,} (refused while reading, before the matrix is built; "
                f"set {var} to raise it)"
            )


def _parse_line(line: str, where: str, number: int):
    tokens = line.split()
    labels: list[int] = []
    if not line[0].isspace() and ":" not in tokens[0]:
        labels = _parse_labels(tokens.pop(0), where, number)
    cols, vals = [], []
    for token in tokens:
        index, sep, value = token.partition(":")
        try:
            col, val = int(index), float(value)
        except ValueError:
            col, val = -1, 0.0
        if not sep or col < 0 or index.lower() == "qid":
            raise DatasetError(
                f"{where}, line {number}: bad feature token {token[:30]!r}"
            )
        if not np.isfinite(val):
            raise DatasetError(
                f"{where}, line {number}: feature {col} has value {value!r}; missing "
                "values are not supported, impute them before loading"
            )
        cols.append(col)
        vals.append(val)
    if len(set(cols)) != len(cols):
        raise DatasetError(f"{where}, line {number}: a feature index appears twice")
    return labels, cols, vals


def _parse_labels(token: str, where: str, number: int) -> list[int]:
    try:
        labels = [int(part) for part in token.split(",")]
    except ValueError:
        raise DatasetError(
            f"{where}, line {number}: bad label list {token[:30]!r}"
        ) from None
    if min(labels) < 0:
        raise DatasetError(
            f"{where}, line {number}: labels must be non-negative integers"
        )
    return sorted(set(labels))


def _build_X(cols, vals, lens, where: str) -> sp.csr_matrix:
    if not cols:
        raise DatasetError(f"{where}: zero features (no idx:value pair in the file)")
    indices = np.asarray(cols, dtype=np.int64)
    if indices.min() > 0:
        indices -= 1
    if indices.max() >= 2**31 - 1:
        raise DatasetError(f"{where}: feature index {indices.max()} is too large")
    indptr = np.concatenate([[0], np.cumsum(lens)])
    shape = (len(lens), int(indices.max()) + 1)
    return sp.csr_matrix(
        (np.asarray(vals, dtype=np.float64), indices, indptr), shape=shape
    )


def _build_Y(
    label_sets: list[list[int]], n_labels: int | None, where: str
) -> np.ndarray:
    largest = max((max(s) for s in label_sets if s), default=-1)
    q = largest + 1 if n_labels is None else int(n_labels)
    if q <= 0:
        raise DatasetError(
            f"{where}: zero labels (no label in the file; pass label_count=)"
        )
    if largest >= q:
        raise DatasetError(f"{where}: label {largest} out of range for {q} labels")
    budget = current_limits().max_labels
    if q > budget:
        raise DatasetError(too_many("labels", q, budget, where))
    rows = np.repeat(np.arange(len(label_sets)), [len(s) for s in label_sets])
    Y = np.zeros((len(label_sets), q), dtype=np.int8)
    Y[rows, np.concatenate([np.asarray(s, dtype=np.int64) for s in label_sets])] = 1
    return Y
