"""``load_dataset``: one entry point for every supported format.

A *path* is a file or a folder holding one dataset:

* ``NAME.arff`` (Mulan or MEKA), with ``NAME.xml`` beside it when present, or
  else an XML whose name is the start of the ARFF's (``Corel5k.xml`` for
  ``Corel5k-sparse.arff``), or, in a folder holding one ARFF, the folder's only
  XML;
* a ``NAME-train.arff`` / ``NAME-test.arff`` pair (plus ``NAME.xml``): the union is
  returned, train rows first, with :attr:`Dataset.split` set; a pair is preferred
  to a full ``NAME.arff`` in the same folder;
* ``.mat`` (see :mod:`mlfs_core.data.matlab`), ``.csv`` (see
  :mod:`mlfs_core.data.csvfile`), ``.svm`` / ``.svmlight`` / ``.libsvm`` (see
  :mod:`mlfs_core.data.svmlight`).

Which attributes are labels is decided as described in :mod:`mlfs_core.data._encode`.
:data:`KNOWN_LABEL_HINTS` supplies label arguments for datasets whose files do not
mark their labels (the PseAAC sets): when no label argument is given and the
dataset's name (folder name or file stem) is a key, its hints are used.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..errors import DatasetError
from ._arff_header import meka_label_count
from ._encode import (
    AmbiguousLabelsWarning,
    choose_labels,
    count_is_ambiguous,
    encode_features,
    encode_labels,
)
from ._text import Source, source_name
from .arff import RawTable, read_arff
from .csvfile import read_csv
from .dataset import Dataset
from .matlab import read_mat
from .mulan_xml import read_label_names
from .svmlight import read_svmlight

KNOWN_LABEL_HINTS: dict[str, dict] = {
    "GnegativePseAAC": {"label_prefix": "Label"},
    "PlantPseAAC": {"label_prefix": "Label"},
}
"""Label arguments for known datasets whose files do not mark their labels."""

_FORMATS = {
    ".arff": "arff",
    ".mat": "mat",
    ".csv": "csv",
    ".svm": "svmlight",
    ".svmlight": "svmlight",
    ".libsvm": "svmlight",
}
_SPLIT_SUFFIXES = ("-train", "-test")


@dataclass
class _Resolved:
    fmt: str
    files: list[Path]
    xml: Path | None
    name: str


def load_dataset(
    path: str | os.PathLike | Source,
    *,
    labels: str | list[str] | None = None,
    label_count: int | None = None,
    label_prefix: str | None = None,
    name: str | None = None,
    xml: Source | None = None,
    format: str | None = None,
    use_hints: bool = True,
) -> Dataset:
    """Load a multi-label dataset from a file, a folder, or an open file.

    Parameters
    ----------
    path : path, bytes or file object
        File or folder holding one dataset (see module doc), or ``"sample"``
        for the bundled sample (when no file or folder of that name exists),
        as on the command line and in configs. An open file or bytes is read
        as ARFF unless ``format`` says otherwise.
    labels : str or list of str, optional
        Names of the label attributes/columns (one string is one name).
    label_count : int, optional
        ARFF/CSV: ``n > 0`` the first ``n`` columns are labels, ``n < 0`` the last
        ``|n|`` (MEKA convention). svmlight: the number of labels q.
    label_prefix : str, optional
        Every attribute/column whose name starts with it is a label.
    name : str, optional
        Dataset name; default the folder name or file stem (without -train/-test).
    xml : path, bytes or file object, optional
        Mulan label XML; default ``NAME.xml`` beside the ARFF.
    format : {"arff", "csv", "svmlight", "mat"}, optional
        Format of ``path``; default from the file suffix (ARFF for file objects).
    use_hints : bool, default True
        Apply :data:`KNOWN_LABEL_HINTS` when no label argument is given.

    Returns
    -------
    Dataset

    Raises
    ------
    DatasetError
        Any unreadable or inconsistent input; the message names file, line and
        attribute where they apply.

    Examples
    --------
    >>> import io
    >>> text = ("@relation 'toy: -C 1'\\n@attribute y {0,1}\\n@attribute w real\\n"
    ...         "@data\\n1,2\\n0,0\\n")
    >>> ds = load_dataset(io.StringIO(text), name="toy")
    >>> ds.label_names, ds.feature_names, ds.Y.ravel().tolist()
    (['y'], ['w'], [1, 0])
    """
    spec = {"labels": labels, "label_count": label_count, "label_prefix": label_prefix}
    if isinstance(path, str) and path == "sample" and not Path(path).exists():
        from .bundled import SAMPLE_DIR, SAMPLE_NAME  # as the CLI and configs do

        path, name = SAMPLE_DIR, name or SAMPLE_NAME
    if isinstance(path, (str, os.PathLike)):
        resolved = resolve(Path(path))
        if format is not None:
            resolved.fmt = _check_format(format)
        if xml is not None:
            resolved.xml = xml
        ds_name = name or resolved.name
        if use_hints and all(v is None for v in spec.values()):
            spec.update(KNOWN_LABEL_HINTS.get(ds_name, {}))
        return _load_resolved(resolved, spec, ds_name, os.fspath(path))
    fmt = _check_format(format or "arff")
    resolved = _Resolved(fmt, [path], xml, name or "dataset")
    return _load_resolved(resolved, spec, resolved.name, source_name(path))


def _check_format(fmt: str) -> str:
    if fmt not in set(_FORMATS.values()):
        raise DatasetError(
            f"unknown format {fmt!r}; use one of {sorted(set(_FORMATS.values()))}"
        )
    return fmt


def _load_resolved(resolved: _Resolved, spec: dict, name: str, source: str) -> Dataset:
    split = None
    if resolved.fmt == "arff":
        X, Y, feature_names, label_names, split = _load_arff(resolved, spec)
    elif resolved.fmt == "mat":
        X, Y, split = read_mat(resolved.files[0])
        feature_names = [f"x{j}" for j in range(X.shape[1])]
        label_names = [f"label{i}" for i in range(Y.shape[1])]
    elif resolved.fmt == "csv":
        X, Y, feature_names, label_names = read_csv(resolved.files[0], **spec)
    else:
        if spec["labels"] is not None or spec["label_prefix"] is not None:
            raise DatasetError(
                "svmlight labels are integers: use label_count= (q) only"
            )
        X, Y = read_svmlight(resolved.files[0], n_labels=spec["label_count"])
        feature_names = [f"x{j}" for j in range(X.shape[1])]
        label_names = [f"label{i}" for i in range(Y.shape[1])]
    return Dataset(X, Y, feature_names, label_names, name, split, source)


def _load_arff(resolved: _Resolved, spec: dict):
    tables = [read_arff(f) for f in resolved.files]
    first = tables[0]
    for other in tables[1:]:
        if other.attributes != first.attributes:
            raise DatasetError(
                f"{other.where}: attributes differ from those of {first.where}"
            )
    names = [a.name for a in first.attributes]
    xml_labels = None if resolved.xml is None else read_label_names(resolved.xml)
    meka = meka_label_count(first.relation)
    label_idx = choose_labels(
        names, first.where, xml_labels=xml_labels, meka_count=meka, **spec
    )
    Y = np.vstack([encode_labels(table, label_idx)[0] for table in tables])
    _warn_if_count_is_ambiguous(first, label_idx, _count_source(spec, xml_labels, meka))
    label_names = [names[i] for i in label_idx]
    union = first
    split = None
    if len(tables) > 1:
        union = RawTable(
            first.attributes,
            first.relation,
            sp.vstack([t.values for t in tables], format="csr"),
            np.concatenate([t.row_lines for t in tables]),
            " + ".join(t.where for t in tables),
        )
        split = np.repeat(
            np.arange(len(tables), dtype=np.int8), [t.values.shape[0] for t in tables]
        )
    X, feature_names = encode_features(union, label_idx)
    return X, Y, feature_names, label_names, split


def _count_source(spec: dict, xml_labels, meka: int | None) -> str | None:
    """What chose the labels by a count ("label_count=3", "the relation's -C 3")."""
    if spec["label_count"] is not None:
        return f"label_count={spec['label_count']}"
    if spec["labels"] is None and spec["label_prefix"] is None and xml_labels is None:
        return None if meka is None else f"the relation's -C {meka}"
    return None


def _warn_if_count_is_ambiguous(table: RawTable, label_idx, source: str | None):
    """Warn when a count took the FIRST n as labels and the last n are 0/1 too.

    That is how a Mulan ARFF (labels last) read without its XML goes wrong
    silently when its relation name carries MEKA's ``-C n``.
    """
    if source is None or label_idx[0] != 0 or not count_is_ambiguous(table, label_idx):
        return
    warnings.warn(
        AmbiguousLabelsWarning(table.where, len(label_idx), "first", source),
        stacklevel=4,
    )


def resolve(path: Path) -> _Resolved:
    """Find the dataset files of a file or folder path (see module doc)."""
    if path.is_dir():
        return _resolve_folder(path)
    if path.is_file():
        return _resolve_file(path)
    raise DatasetError(f"{path}: no such file or folder")


def _strip_split(stem: str) -> str:
    for suffix in _SPLIT_SUFFIXES:
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def _xml_beside(path: Path, *, only_xml: bool = False) -> Path | None:
    """The label XML of an ARFF among the files beside it (:func:`matching_xml`)."""
    names = [p.name for p in path.parent.iterdir() if p.is_file()]
    found = matching_xml(path.name, names, only_xml=only_xml)
    return None if found is None else path.with_name(found)


def matching_xml(arff: str, names: list[str], *, only_xml: bool = False) -> str | None:
    """The label XML of the ARFF named ``arff`` among the file ``names`` of its folder.

    The rule: the XML of the same stem (with or without -train/-test), else
    the longest XML stem that starts the ARFF's followed by ``-``, ``_`` or
    ``.``, else (``only_xml``, a folder holding one dataset) the only XML.

    Examples
    --------
    >>> matching_xml("Corel5k-sparse.arff", ["Corel5k.xml", "Corel5k-sparse.arff"])
    'Corel5k.xml'
    >>> matching_xml("a.arff", ["a.arff", "labels.xml"], only_xml=True)
    'labels.xml'
    """
    stem = Path(arff).stem
    for candidate in (stem + ".xml", _strip_split(stem) + ".xml"):
        if candidate in names:
            return candidate
    xmls = sorted(n for n in names if Path(n).suffix.lower() == ".xml")
    base = _strip_split(stem).lower()
    prefixes = [
        n
        for n in xmls
        if base.startswith(Path(n).stem.lower())
        and base[len(Path(n).stem) : len(Path(n).stem) + 1] in "-_."
    ]
    if prefixes:
        return max(prefixes, key=lambda n: len(Path(n).stem))
    return xmls[0] if only_xml and len(xmls) == 1 else None


def _resolve_file(path: Path, *, only_xml: bool = False) -> _Resolved:
    suffix = path.suffix.lower()
    if suffix == ".xml":
        arff = path.with_suffix(".arff")
        if not arff.is_file():
            raise DatasetError(f"{path}: a label XML alone; no {arff.name} beside it")
        return _Resolved("arff", [arff], path, path.stem)
    if suffix not in _FORMATS:
        raise DatasetError(
            f"{path}: unknown file type {suffix!r}; expected {sorted(_FORMATS)}"
        )
    xml = _xml_beside(path, only_xml=only_xml) if suffix == ".arff" else None
    return _Resolved(_FORMATS[suffix], [path], xml, _strip_split(path.stem))


def _resolve_folder(folder: Path) -> _Resolved:
    files = sorted(
        p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")
    )
    chosen = [folder / name for name in dataset_files(files, str(folder))]
    if len(chosen) == 2:
        xml = _xml_beside(chosen[0], only_xml=True)
        return _Resolved("arff", chosen, xml, folder.name)
    resolved = _resolve_file(chosen[0], only_xml=True)
    resolved.name = folder.name
    return resolved


def dataset_files(names: list[str], where: str) -> list[str]:
    """The dataset file(s) among the file ``names`` of a folder holding one dataset.

    A ``NAME-train.arff`` / ``NAME-test.arff`` pair (train first) when the
    folder holds exactly one, else the folder's only file of a known format.

    Raises
    ------
    DatasetError
        No dataset file, or several; the message starts with ``where``.

    Examples
    --------
    >>> dataset_files(["s.xml", "s-test.arff", "s-train.arff"], "up")
    ['s-train.arff', 's-test.arff']
    """
    pairs = [
        n
        for n in names
        if Path(n).suffix.lower() == ".arff"
        and Path(n).stem.endswith("-train")
        and _strip_split(Path(n).stem) + "-test" + Path(n).suffix in names
    ]
    if len(pairs) == 1:
        train = Path(pairs[0])
        return [pairs[0], _strip_split(train.stem) + "-test" + train.suffix]
    candidates = [n for n in names if Path(n).suffix.lower() in _FORMATS]
    if len(candidates) == 1:
        return candidates
    if not candidates:
        raise DatasetError(
            f"{where}: no dataset file (.arff, .mat, .csv, .svm) in the folder"
        )
    listed = ", ".join(candidates)
    raise DatasetError(f"{where}: several dataset files ({listed}); pass one file")


def discover_datasets(folder: str | os.PathLike) -> dict[str, Path]:
    """List the loadable datasets in ``folder``: name -> path for :func:`load_dataset`.

    Each subfolder holding one dataset is listed under the subfolder's name, each
    standalone dataset file under its stem. Nothing is parsed; unrecognisable
    entries are skipped.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "toy.csv").write_text("a,y\\n1,0\\n")
    ...     sorted(discover_datasets(tmp))
    ['toy']
    """
    root = Path(folder)
    if not root.is_dir():
        raise DatasetError(f"{root}: no such folder")
    found: dict[str, Path] = {}
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        try:
            resolved = resolve(entry)
        except DatasetError:
            continue
        if entry.is_dir() or not entry.stem.endswith(_SPLIT_SUFFIXES):
            found.setdefault(resolved.name if entry.is_dir() else entry.stem, entry)
    return found


def load_uploaded(
    files: list[tuple[str, bytes]] | str | os.PathLike,
    *,
    labels: list[str] | None = None,
    label_count: int | None = None,
    label_prefix: str | None = None,
) -> Dataset:
    """Load an uploaded dataset: ``(file name, content)`` pairs or a saved folder.

    The files (e.g. ``[("x.arff", ...), ("x.xml", ...)]``, a -train/-test pair, or
    one csv / svmlight / mat / MEKA ARFF) are read as one folder: given as
    pairs, they are written to a temporary folder removed afterwards (only base
    names are used); given as a folder (where an app keeps its uploads), they
    are read in place, with no copy. Error and warning messages name the
    uploaded files, never the folder they were kept in.

    Examples
    --------
    >>> ds = load_uploaded([("t.csv", b"a,y\\n1,1\\n0,0\\n")], labels=["y"])
    >>> ds.name, ds.stats()["N"]
    ('t', 2)
    """
    spec = {"labels": labels, "label_count": label_count, "label_prefix": label_prefix}
    if isinstance(files, (str, os.PathLike)):
        folder = Path(files)
        shown = sorted(p.name for p in folder.iterdir() if p.is_file())
        return _load_upload_folder(folder, shown, spec)
    if not files:
        raise DatasetError("no files uploaded")
    with tempfile.TemporaryDirectory(prefix="mlfs-upload-") as tmp:
        folder = Path(tmp) / "upload"
        folder.mkdir()
        for file_name, content in files:
            base = Path(str(file_name).replace("\\", "/")).name
            if base in ("", ".", "..") or base.startswith("."):
                raise DatasetError(f"bad uploaded file name {file_name!r}")
            (folder / base).write_bytes(content)
        return _load_upload_folder(folder, [name for name, _ in files], spec)


def _load_upload_folder(folder: Path, shown: list[str], spec: dict) -> Dataset:
    with _messages_without(folder):
        if not any(folder.iterdir()):
            raise DatasetError("no files uploaded")
        resolved = resolve(folder)
        name = _strip_split(resolved.files[0].stem)
        dataset = load_dataset(folder, name=name, **spec)
    dataset.source = "upload:" + ",".join(shown)
    return dataset


@contextmanager
def _messages_without(folder: Path) -> Iterator[None]:
    """Re-raise errors and re-emit warnings with ``folder`` cut from their text."""

    def cut(text: str) -> str:
        return text.replace(f"{folder}{os.sep}", "").replace(str(folder), "the upload")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        except DatasetError as exc:
            raise DatasetError(cut(str(exc))) from None
    for w in caught:
        if isinstance(w.message, AmbiguousLabelsWarning):
            m = w.message
            message = AmbiguousLabelsWarning(cut(m.where), m.n, m.chosen, m.source)
        else:
            message = w.category(cut(str(w.message)))
        warnings.warn(message, stacklevel=4)
