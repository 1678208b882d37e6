"""Turn a :class:`~mlfs_core.data.arff.RawTable` into features ``X`` and labels ``Y``.

Which attributes are labels
---------------------------
In this order of precedence: ``labels=`` (names), ``label_count=`` (MEKA
convention: ``n > 0`` the first ``n`` attributes, ``n < 0`` the last ``|n|``),
``label_prefix=`` (every attribute whose name starts with it), the Mulan XML (by
name), the MEKA ``-C n`` option of the relation name. With none of these the loader
raises. Labels always keep the file's attribute order; features are the remaining
attributes in file order.

Nominal encoding rule
---------------------
* A nominal attribute with one or two declared values becomes ONE 0/1 column that is
  1 where the value is the *positive* value: of a two-value declaration, the value
  that reads as true (``1``, ``yes``, ``true``, ``t``, ``y``, ``+1``, case-insensitive)
  when the other reads as false (``0``, ``no``, ``false``, ``f``, ``n``, ``-1``);
  otherwise the LAST declared value (``{a, b}`` -> ``b`` = 1; ``{YES, NO}`` ->
  ``YES`` = 1; ``{0, 1}`` -> ``1`` = 1). The column keeps the attribute's name.
* A nominal attribute with more than two declared values becomes one 0/1 column per
  declared value, in declaration order, named ``attribute=value`` (one-hot).
* Exception: such an attribute with a different value in every row, in a file of
  at least ``_MIN_ROWS_FOR_IDENTIFIER`` (10) rows, is an identifier (genbase's
  protein ID) and is dropped with a
  :class:`UserWarning` naming it.
* ``string`` and ``date`` attributes are dropped with a :class:`UserWarning`.

Label attributes must be binary: numeric with values in {0, 1}, or nominal with two
values (positive value as above).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._arff_header import NOMINAL, NUMERIC, STRING, Attribute
from .arff import RawTable

_TRUE = {"1", "yes", "true", "t", "y", "+1"}
_FALSE = {"0", "no", "false", "f", "n", "-1"}
_MIN_ROWS_FOR_IDENTIFIER = 10
LABEL_OPTIONS_HINT = "pass labels=, label_count= or label_prefix="
"""The API's way out of :data:`_NO_LABELS_MESSAGE` (the app names its widgets)."""
_NO_LABELS_MESSAGE = (
    "no way to tell which attributes are labels (no Mulan XML, no MEKA '-C n' in the "
    "relation name); " + LABEL_OPTIONS_HINT
)


class AmbiguousLabelsWarning(UserWarning):
    """Labels taken as the first n by a count, while the last n are 0/1 too.

    A count (``label_count=`` or MEKA's ``-C``) only says "the first n" or
    "the last n"; a Mulan ARFF read without its XML often has ``-C n`` in its
    relation name and its labels LAST, so "the first n" silently takes n
    binary features instead. Attributes: ``where``, ``n``, ``chosen``
    (``"first"`` or ``"last"``), ``source`` (what gave the count).
    """

    def __init__(self, where: str, n: int, chosen: str, source: str) -> None:
        self.where, self.n, self.chosen, self.source = where, n, chosen, source
        other = "last" if chosen == "first" else "first"
        flip = -n if chosen == "first" else n
        attrs, are = ("attribute", "is") if n == 1 else (f"{n} attributes", "are")
        super().__init__(
            f"{where}: the labels were taken as the {chosen} {attrs} "
            f"({source}), but the {other} {attrs} {are} 0/1 as well: check the "
            f"label names; if the labels are the {other} ones, pass label_count="
            f"{flip} (or the Mulan XML)"
        )


def count_is_ambiguous(table: RawTable, label_idx: np.ndarray) -> bool:
    """Whether the ``len(label_idx)`` attributes at the other end are all binary.

    ``label_idx`` is a first-n or last-n block; the same number of attributes
    at the other end, not overlapping it, are checked (0/1 numeric values or a
    two-value nominal).
    """
    n_attrs, n = len(table.attributes), len(label_idx)
    if 2 * n > n_attrs:
        return False
    first = label_idx[0] == 0
    other = np.arange(n_attrs - n, n_attrs) if first else np.arange(n)
    return all(_is_binary(table, int(i)) for i in other)


def _is_binary(table: RawTable, i: int) -> bool:
    attr = table.attributes[i]
    if attr.kind == NOMINAL:
        return len(attr.values) == 2
    if attr.kind != NUMERIC:
        return False
    column = table.values[:, i]
    return bool(np.isin(column.data, (0.0, 1.0)).all())


def _positive_index(values: tuple[str, ...]) -> int:
    """Return the index of the value encoded as 1 for a one/two-value nominal.

    Examples
    --------
    >>> [_positive_index(v) for v in [("YES", "NO"), ("a", "b"), ("0", "1")]]
    [0, 1, 1]
    """
    if len(values) == 2:
        low = [v.lower() for v in values]
        if low[0] in _TRUE and low[1] in _FALSE:
            return 0
    return len(values) - 1


def _label_list(labels) -> list[str]:
    """``labels=`` as a list of names: one string is one name, not its letters.

    Examples
    --------
    >>> _label_list("topic00"), _label_list(("a", "b"))
    (['topic00'], ['a', 'b'])
    """
    if isinstance(labels, str):
        return [labels]
    return [str(x) for x in labels]


def choose_labels(
    names: list[str],
    where: str,
    *,
    labels: list[str] | None = None,
    label_count: int | None = None,
    label_prefix: str | None = None,
    xml_labels: list[str] | None = None,
    meka_count: int | None = None,
) -> np.ndarray:
    """Return the sorted column indices of the label attributes (see module doc).

    Examples
    --------
    >>> choose_labels(["a", "b", "c"], "f", label_count=-1).tolist()
    [2]
    >>> choose_labels(["a", "b", "c"], "f", xml_labels=["c", "a"]).tolist()
    [0, 2]
    """
    given = [x is not None for x in (labels, label_count, label_prefix)]
    if sum(given) > 1:
        raise DatasetError("give only one of labels=, label_count=, label_prefix=")
    if labels is not None:
        return _by_name(
            names,
            _label_list(labels),
            f"{where}: label {{!r}} from labels= is not an attribute",
        )
    if label_count is not None:
        return _by_count(len(names), int(label_count), where, "label_count=")
    if label_prefix is not None:
        found = [i for i, n in enumerate(names) if n.startswith(label_prefix)]
        if not found:
            raise DatasetError(
                f"{where}: no attribute name starts with {label_prefix!r}"
            )
        return np.asarray(found, dtype=np.int64)
    if xml_labels is not None:
        return _by_name(
            names,
            xml_labels,
            f"{where}: XML label {{!r}} is missing from the attributes",
        )
    if meka_count is not None:
        return _by_count(len(names), meka_count, where, "the relation's -C")
    raise DatasetError(f"{where}: {_NO_LABELS_MESSAGE}")


def _by_name(names: list[str], wanted: list[str], message: str) -> np.ndarray:
    position = {n: i for i, n in enumerate(names)}
    missing = [w for w in wanted if w not in position]
    if missing:
        raise DatasetError(message.format(missing[0]))
    return np.unique(np.asarray([position[w] for w in wanted], dtype=np.int64))


def _by_count(n_columns: int, count: int, where: str, what: str) -> np.ndarray:
    if count == 0 or abs(count) >= n_columns:
        raise DatasetError(
            f"{where}: {what} {count} must be non-zero and leave at least one feature "
            f"of {n_columns} attributes"
        )
    if count > 0:
        return np.arange(count, dtype=np.int64)
    return np.arange(n_columns + count, n_columns, dtype=np.int64)


def encode_labels(
    table: RawTable, label_idx: np.ndarray
) -> tuple[np.ndarray, list[str]]:
    """Return ``Y`` (n, q) int8 and the label names; label attributes must be binary."""
    attrs = [table.attributes[i] for i in label_idx]
    for attr in attrs:
        if attr.kind == STRING or (attr.kind == NOMINAL and len(attr.values) != 2):
            raise DatasetError(
                f"{table.where}: label attribute {attr.name!r} is not binary "
                f"({_describe(attr)})"
            )
    sub = table.values[:, label_idx].tocoo()
    numeric = np.array([a.kind == NUMERIC for a in attrs], dtype=bool)
    bad = np.flatnonzero(numeric[sub.col] & (sub.data != 1))
    if bad.size:
        k = int(bad[0])
        raise DatasetError(
            f"{table.where}, line {table.row_lines[sub.row[k]]}: label attribute "
            f"{attrs[sub.col[k]].name!r} has value {sub.data[k]:g}, expected 0 or 1"
        )
    Y = sub.tocsr().astype(np.int8).toarray()
    flip = np.array(
        [a.kind == NOMINAL and _positive_index(a.values) == 0 for a in attrs]
    )
    Y[:, flip] = 1 - Y[:, flip]
    return Y, [a.name for a in attrs]


def _describe(attr: Attribute) -> str:
    if attr.kind == NOMINAL:
        return f"nominal with {len(attr.values)} values"
    return attr.kind


def encode_features(
    table: RawTable, label_idx: np.ndarray
) -> tuple[sp.csr_matrix, list[str]]:
    """Return ``X`` (CSR float64) and feature names by the module's encoding rule."""
    is_label = np.zeros(len(table.attributes), dtype=bool)
    is_label[label_idx] = True
    plan = _plan_features(table, np.flatnonzero(~is_label))
    if not plan["order"]:
        raise DatasetError(
            f"{table.where}: no feature attributes left after the labels"
        )
    blocks, keys, names = [], [], []
    for build in (_direct, _flipped, _one_hot):
        block, block_keys, block_names = build(table, plan)
        blocks.append(block)
        keys.extend(block_keys)
        names.extend(block_names)
    order = np.argsort(np.asarray(keys), kind="stable")
    X = sp.hstack(blocks, format="csr")[:, order]
    X.eliminate_zeros()
    return sp.csr_matrix(X, dtype=np.float64), [names[i] for i in order]


def _plan_features(table: RawTable, candidates: np.ndarray) -> dict:
    plan = {"direct": [], "flip": [], "onehot": [], "order": []}
    attributes = table.attributes
    wide = [
        i
        for i in candidates
        if attributes[i].kind == NOMINAL and len(attributes[i].values) > 2
    ]
    identifiers = set(_identifiers(table, wide))
    for i in candidates:
        attr = attributes[i]
        if attr.kind == STRING:
            warnings.warn(
                f"{table.where}: string/date attribute {attr.name!r} dropped",
                UserWarning,
                stacklevel=4,
            )
        elif i in identifiers:
            warnings.warn(
                f"{table.where}: nominal attribute {attr.name!r} has a different value "
                "in every row (an identifier); dropped",
                UserWarning,
                stacklevel=4,
            )
        elif attr.kind == NUMERIC or _positive_index(attr.values) == 1:
            plan["direct"].append(int(i))
        elif len(attr.values) <= 2:
            plan["flip"].append(int(i))
        else:
            plan["onehot"].append(int(i))
        if attr.kind != STRING and i not in identifiers:
            plan["order"].append(int(i))
    plan["width"] = 1 + max((len(a.values) for a in attributes), default=1)
    return plan


def _identifiers(table: RawTable, columns: list[int]) -> list[int]:
    n_rows = table.values.shape[0]
    if not columns or n_rows < _MIN_ROWS_FOR_IDENTIFIER:
        return []
    codes = np.sort(table.values[:, columns].toarray(), axis=0)
    distinct = (np.diff(codes, axis=0) != 0).sum(axis=0) + 1
    return [c for c, d in zip(columns, distinct) if d == n_rows]


def _direct(table: RawTable, plan: dict):
    cols = plan["direct"]
    names = [table.attributes[i].name for i in cols]
    return table.values[:, cols], [i * plan["width"] for i in cols], names


def _flipped(table: RawTable, plan: dict):
    cols = plan["flip"]
    block = sp.csr_matrix(1.0 - table.values[:, cols].toarray())
    names = [table.attributes[i].name for i in cols]
    return block, [i * plan["width"] for i in cols], names


def _one_hot(table: RawTable, plan: dict):
    cols = plan["onehot"]
    n_rows = table.values.shape[0]
    sizes = np.array([len(table.attributes[i].values) for i in cols], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    codes = table.values[:, cols].toarray().astype(np.int64)
    out_cols = (codes + offsets[:-1]).ravel()
    rows = np.repeat(np.arange(n_rows), len(cols))
    block = sp.csr_matrix(
        (np.ones(out_cols.size), (rows, out_cols)), shape=(n_rows, int(offsets[-1]))
    )
    keys, names = [], []
    for i in cols:
        attr = table.attributes[i]
        keys.extend(i * plan["width"] + 1 + np.arange(len(attr.values)))
        names.extend(f"{attr.name}={value}" for value in attr.values)
    return block, keys, names
