"""Size budgets a data file is checked against before anything is allocated.

A file's header declares its shape: an ARFF's ``@attribute`` lines, a Mulan
XML's labels. The loader counts them first, with a byte scan that holds one
block of the file at a time (no Python object per attribute), and refuses a
file whose declared shape is above the budget with a message that names the
file and the count, before it parses or allocates anything. The real
benchmark datasets are far below the defaults (the widest has 47,236
features, the most labels 983).

A MATLAB file's header declares its variables' shapes
(:func:`scipy.io.whosmat`): rows and, for a dense variable, values are
checked the same way before :func:`scipy.io.loadmat` reads anything.

A CSV dataset's header row is counted the same way (its delimiters, by a
byte scan of the first line) against ``max_attributes``; an svmlight file's
discovered size (its largest feature index, rows and values) is checked as it
streams, before the matrix is built; a labels XML's ``<label`` tags are
counted before the XML is parsed. A text table (``results.csv``,
``selections.csv``, compressed or not) is read through
:func:`bounded_stream`, which stops once more than ``max_text_mb`` megabytes
were read (decompressed: a gzip bomb is refused while it streams). Names
(experiment, dataset, method, label and feature names) are at most
``max_name_chars`` characters (:func:`check_names`).

The budgets are :class:`Limits`' defaults; the environment variables of
:data:`ENV` (``MLFS_MAX_ATTRIBUTES``, ``MLFS_MAX_LABELS``,
``MLFS_MAX_UPLOAD_MB``, ``MLFS_MAX_INSTANCES``, ``MLFS_MAX_CELLS``,
``MLFS_MAX_TEXT_MB``, ``MLFS_MAX_NAME_CHARS``, ``MLFS_MAX_CONFIG_MB``) raise
(or lower) them for the
command line and the app, and the readers (:func:`mlfs_core.data.load_dataset`,
:func:`mlfs_core.evaluation.io.read_results`, ...) read them when they are
called, unless given ``limits=``.
"""

from __future__ import annotations

import gzip
import io
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import DatasetError

_BLOCK = 1 << 22  # bytes read at a time by the header scan


@dataclass(frozen=True)
class Limits:
    """The budgets of one load.

    Attributes
    ----------
    max_attributes : int
        Attributes (features and labels) a file may declare.
    max_labels : int
        Labels a Mulan XML may declare.
    max_upload_mb : int
        Megabytes the app accepts in one upload.
    max_instances : int
        Rows a ``.mat`` variable may declare.
    max_cells : int
        Values (rows x columns) a dense ``.mat`` variable may declare (each
        is 8 bytes once loaded), and non-zero values an svmlight file may
        hold.
    max_text_mb : int
        Megabytes of text a results or selections table may hold once
        decompressed.
    max_name_chars : int
        Characters in one name: an experiment's, a dataset's, a method's, a
        label's or a feature's.
    max_config_mb : int
        Megabytes an experiment config (TOML) may hold; the TOML parser
        takes about a second per megabyte, and a config of a few hundred
        datasets and methods is a few kilobytes.
    """

    max_attributes: int = 1_000_000
    max_labels: int = 100_000
    max_upload_mb: int = 200
    max_instances: int = 10_000_000
    max_cells: int = 500_000_000
    max_text_mb: int = 2_000
    max_name_chars: int = 1_000
    max_config_mb: int = 8


ENV = {
    "max_attributes": "MLFS_MAX_ATTRIBUTES",
    "max_labels": "MLFS_MAX_LABELS",
    "max_upload_mb": "MLFS_MAX_UPLOAD_MB",
    "max_instances": "MLFS_MAX_INSTANCES",
    "max_cells": "MLFS_MAX_CELLS",
    "max_text_mb": "MLFS_MAX_TEXT_MB",
    "max_name_chars": "MLFS_MAX_NAME_CHARS",
    "max_config_mb": "MLFS_MAX_CONFIG_MB",
}
"""Field of :class:`Limits` -> the environment variable that overrides it."""


def current_limits(environ=None) -> Limits:
    """The budgets in force: :class:`Limits`' defaults, overridden by ``MLFS_MAX_*``.

    Raises
    ------
    DatasetError
        When an environment variable is not a positive integer.

    Examples
    --------
    >>> current_limits({"MLFS_MAX_ATTRIBUTES": "50"}).max_attributes
    50
    """
    env = os.environ if environ is None else environ
    values = {}
    for name, var in ENV.items():
        text = env.get(var, "").strip()
        if not text:
            continue
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            value = 0
        if value < 1:
            raise DatasetError(f"{var} must be a positive integer, got {text!r}")
        values[name] = value
    return Limits(**values)


def count_arff_attributes(path) -> int:
    """How many ``@attribute`` lines the header of the ARFF file ``path`` declares.

    A byte scan up to ``@data`` (case-insensitive, at the start of a line
    after optional blanks), holding one block of the file at a time.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.arff"
    >>> _ = p.write_bytes(b"@relation r\\n@attribute a real\\n@ATTRIBUTE b real\\n"
    ...                   b"@data\\n1,2\\n")
    >>> count_arff_attributes(p)
    2
    """
    count, tail = 0, b"\n"
    with open(path, "rb") as fh:
        while True:
            block = fh.read(_BLOCK)
            if not block:
                return count
            text = (tail + block).lower()
            end = _data_line(text)
            if end >= 0:
                return count + _count(text, end)
            # keep the last partial line: a keyword may straddle two blocks
            cut = text.rfind(b"\n")
            count += _count(text, cut)
            tail = text[cut:]


def _data_line(text: bytes) -> int:
    """Where the ``@data`` line of ``text`` starts (its newline), or -1."""
    at = text.find(b"@data")
    while at >= 0:
        start = text.rfind(b"\n", 0, at)
        if start >= 0 and not text[start + 1 : at].strip(b" \t"):
            return start
        at = text.find(b"@data", at + 5)
    return -1


_INDENTED = re.compile(rb"\n[ \t]+@attribute")


def _count(text: bytes, end: int) -> int:
    """``@attribute`` lines of ``text[:end]`` (indented ones too)."""
    n = text.count(b"\n@attribute", 0, end)
    if b"\n " in text or b"\n\t" in text:  # rare: indented declarations
        n += sum(1 for _ in _INDENTED.finditer(text, 0, end))
    return n


def check_arff_budget(path, limits: Limits | None = None) -> None:
    """Refuse an ARFF file whose header declares more attributes than the budget.

    Raises
    ------
    DatasetError
        Naming the file, the declared count and the budget (and how to raise it).
    """
    limits = current_limits() if limits is None else limits
    n = count_arff_attributes(path)
    if n > limits.max_attributes:
        raise DatasetError(too_many("attributes", n, limits.max_attributes, path))


def check_mat_budget(variables, where, limits: Limits | None = None) -> None:
    """Refuse a ``.mat`` file whose header declares variables above the budget.

    Parameters
    ----------
    variables : list of (name, shape, class)
        What :func:`scipy.io.whosmat` reads from the file's header (no data).
    where : str
        The file's name, for the message.

    Raises
    ------
    DatasetError
        Naming the file, the variable, its declared shape and the budget.

    Examples
    --------
    >>> check_mat_budget([("data", (10, 5), "double")], "x.mat", Limits(max_cells=40))
    Traceback (most recent call last):
    ...
    mlfs_core.errors.DatasetError: x.mat: variable 'data' declares 10 x 5 = 50 \
values, above the budget of 40 (refused before reading the data; set MLFS_MAX_CELLS \
to raise it)
    """
    limits = current_limits() if limits is None else limits
    for name, shape, kind in variables:
        dims = [int(d) for d in shape]
        shown = " x ".join(f"{d:,}" for d in dims)
        cells = 1
        for d in dims:
            cells *= d
        checks = [(max(dims, default=0), limits.max_instances, "MLFS_MAX_INSTANCES")]
        if kind != "sparse":
            checks.append((cells, limits.max_cells, "MLFS_MAX_CELLS"))
        for count, limit, var in checks:
            if count > limit:
                what = (
                    f"{shown} = {cells:,} values"
                    if var == "MLFS_MAX_CELLS"
                    else (f"{shown} values ({count:,} along one axis)")
                )
                raise DatasetError(
                    f"{where}: variable {name!r} declares {what}, above the budget "
                    f"of {limit:,} (refused before reading the data; set {var} to "
                    "raise it)"
                )


def too_many(what: str, count: int, limit: int, where) -> str:
    """The message for a file that declares ``count`` ``what``, above ``limit``.

    Examples
    --------
    >>> too_many("attributes", 10_000_000, 1_000_000, "x.arff")  # doctest: +ELLIPSIS
    'x.arff: the header declares 10,000,000 attributes, above the budget of ...'
    """
    var = ENV["max_labels" if what == "labels" else "max_attributes"]
    return (
        f"{where}: the header declares {count:,} {what}, above the budget of "
        f"{limit:,} (refused before reading the data; set {var} to raise it)"
    )


class _Bounded(io.RawIOBase):
    """A binary stream over ``inner`` that raises once more than ``limit`` bytes
    were read from it."""

    def __init__(self, inner, limit: int, where: str, packed: str) -> None:
        self.inner, self.limit, self.where, self.packed = inner, limit, where, packed
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.inner.read(min(len(buffer), self.limit + 1 - self.count) or 1)
        self.count += len(data)
        if self.count > self.limit:
            mb = self.limit // (1 << 20)
            raise DatasetError(
                f"{self.where}: more than {mb:,} MB of text{self.packed}, above the "
                f"budget of {mb:,} MB (refused while reading, after {self.count:,} "
                f"bytes; set {ENV['max_text_mb']} to raise it)"
            )
        buffer[: len(data)] = data
        return len(data)


@contextmanager
def bounded_stream(path, where: str, limits: Limits | None = None):
    """Open ``path`` (gzip when its name ends in ``.gz``) as a binary stream of
    at most ``limits.max_text_mb`` megabytes of (decompressed) text.

    A plain file larger than the budget is refused before anything is read;
    a compressed one as soon as its decompressed text passes the budget (the
    message gives the compressed size, so a "gzip bomb" is recognisable).
    A file object (an upload) is read through the same bound.

    Raises
    ------
    DatasetError
        Naming the file, its size and the budget (and how to raise it).

    Examples
    --------
    >>> import gzip, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.csv.gz"
    >>> _ = p.write_bytes(gzip.compress(b"a" * 3_000_000))
    >>> with bounded_stream(p, "t.csv.gz", Limits(max_text_mb=2)) as fh:
    ...     # doctest: +ELLIPSIS
    ...     _ = fh.read()
    Traceback (most recent call last):
    ...
    mlfs_core.errors.DatasetError: t.csv.gz: more than 2 MB of text once ...
    """
    limits = current_limits() if limits is None else limits
    limit = limits.max_text_mb << 20
    if not isinstance(path, (str, os.PathLike)):
        yield io.BufferedReader(_Bounded(_binary(path), limit, where, ""))
        return
    size = os.path.getsize(path)
    gz = os.fspath(path).endswith(".gz")
    if not gz and size > limit:
        mb = limits.max_text_mb
        raise DatasetError(
            f"{where}: {size:,} bytes of text, above the budget of {mb:,} MB "
            f"(refused before reading; set {ENV['max_text_mb']} to raise it)"
        )
    with open(path, "rb") as raw:
        inner = gzip.GzipFile(fileobj=raw) if gz else raw
        packed = f" once decompressed (the file holds {size:,} bytes)" if gz else ""
        yield io.BufferedReader(_Bounded(inner, limit, where, packed))


def _binary(handle):
    """A binary view of a file object (a text one is encoded as UTF-8)."""
    if isinstance(handle, io.TextIOBase) or isinstance(handle.read(0), str):
        return io.BytesIO(handle.read().encode("utf-8"))
    return handle


def check_names(names, what: str, where, limits: Limits | None = None) -> None:
    """Refuse a name longer than ``limits.max_name_chars`` characters.

    Parameters
    ----------
    names : iterable of str
        The names (e.g. a dataset's feature names).
    what : str
        What they name ("feature", "label", "experiment", ...), for the message.
    where : str
        The file or parameter, for the message.

    Raises
    ------
    DatasetError
        Naming the file, the kind of name, its position, length and the budget.

    Examples
    --------
    >>> check_names(["a", "b" * 20], "feature", "x.csv", Limits(max_name_chars=10))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.DatasetError: x.csv: feature name 2 has 20 characters ...
    """
    limits = current_limits() if limits is None else limits
    budget = limits.max_name_chars
    names = names if isinstance(names, list) else list(names)
    lengths = [len(n) if isinstance(n, str) else 0 for n in names]
    if not lengths or max(lengths) <= budget:
        return
    i = next(i for i, n in enumerate(lengths) if n > budget)
    name = names[i]
    which = f"{what} name {i + 1}" if len(names) > 1 else f"the {what} name"
    raise DatasetError(
        f"{where}: {which} has {lengths[i]:,} characters "
        f"({name[:40]!r}{'...' if len(name) > 40 else ''}), above the "
        f"budget of {budget:,} (set {ENV['max_name_chars']} to raise it)"
    )
