"""Datasets from their published train/test pair: the ``"predefined"`` split provider.

Mulan publishes, for several benchmarks, a ``NAME-train.arff`` /
``NAME-test.arff`` pair; a folder of such pairs (one sub-folder per dataset)
is a *splits folder*. Under a convention whose split provider is
``"predefined"`` (:mod:`.conventions`), a dataset with a pair there is loaded
from it (same features as its full file, train rows first, ``Dataset.split``
set) and the protocol's ``split = "own"`` then uses that split; a dataset
without a pair keeps the protocol's fallback (a seeded hold-out split).

The splits folder is ``protocol.splits_dir`` (resolved like dataset paths),
else ``datasets-splits`` beside the folder that holds the dataset's folder.
The engine reads no environment variable for it: the ``mlfs`` command passes
``$MLFS_SPLITS`` as ``splits_dir`` when a config gives none.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError, DatasetError
from .conventions import register_split_provider

SPLIT_SUFFIXES = ("-train", "-test")


def _dataset_name(dataset: str | Path) -> str:
    path = Path(dataset)
    name = path.name if path.suffix == "" else path.stem
    for suffix in SPLIT_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def _has_pair(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    trains = folder.glob("*-train.arff")
    return any(
        t.with_name(t.name[: -len("-train.arff")] + "-test.arff").is_file()
        for t in trains
    )


def predefined_split_folder(
    dataset: str | Path, *, splits_dir: str | Path
) -> Path | None:
    """The folder holding ``dataset``'s published train/test pair, or None.

    Parameters
    ----------
    dataset : str or Path
        A dataset name (``"emotions"``) or the path of its folder or file
        (``../shared/datasets/scene``); the name is the folder name, or the
        file stem without ``-train`` / ``-test``.
    splits_dir : str or Path
        The folder of Mulan's published pairs (``../shared/datasets-splits``),
        one sub-folder per dataset.

    Returns
    -------
    Path or None
        ``splits_dir/<name>`` when it holds a ``*-train.arff`` /
        ``*-test.arff`` pair; else ``dataset`` itself when it is a folder
        holding such a pair (scene, birds come split); else None.
        :func:`mlfs_core.load_dataset` on the folder returns the union, train
        rows first, with ``Dataset.split`` set.

    Raises
    ------
    ConfigError
        ``splits_dir`` is not a folder.
    """
    splits_dir = Path(splits_dir)
    if not splits_dir.is_dir():
        raise ConfigError(f"the predefined-splits folder {splits_dir} does not exist")
    published = splits_dir / _dataset_name(dataset)
    if _has_pair(published):
        return published
    own = Path(dataset)
    return own if _has_pair(own) else None


def load_predefined_split(
    dataset: str | Path, *, splits_dir: str | Path, features_like=None
):
    """Load ``dataset`` from its published train/test pair (``Dataset.split`` set).

    Parameters
    ----------
    dataset : str or Path
        Name or path, as for :func:`predefined_split_folder`.
    splits_dir : str or Path
        Folder of Mulan's published pairs.
    features_like : Dataset, optional
        The same dataset loaded from its full file: the result keeps exactly its
        features, in its order. Needed for genbase, whose split files repeat one
        protein ID, so the loader keeps the ID as 662 one-hot columns that it
        drops from the full file as an identifier.

    Raises
    ------
    DatasetError
        No predefined split (the message names the dataset), or a feature of
        ``features_like`` missing from the split files, or different labels.
    """
    from ..data import Dataset, load_dataset

    name = _dataset_name(dataset)
    folder = predefined_split_folder(dataset, splits_dir=splits_dir)
    if folder is None:
        raise DatasetError(
            f"{name}: no predefined train/test split in {splits_dir} nor beside "
            "the dataset"
        )
    ds = load_dataset(folder, name=name)
    if features_like is None:
        return ds
    if list(features_like.label_names) != ds.label_names:
        raise DatasetError(f"{folder}: labels differ from those of the full {name}")
    position = {f: i for i, f in enumerate(ds.feature_names)}
    missing = [f for f in features_like.feature_names if f not in position]
    if missing:
        raise DatasetError(
            f"{folder}: {len(missing)} feature(s) of the full {name} are missing, "
            f"e.g. {missing[0]!r}"
        )
    columns = [position[f] for f in features_like.feature_names]
    return Dataset(
        ds.X[:, columns],
        ds.Y,
        list(features_like.feature_names),
        ds.label_names,
        name,
        ds.split,
        ds.source,
    )


def _default_splits_dir(dataset_path: str | Path) -> Path:
    """``datasets-splits`` beside the folder holding the dataset's folder or file."""
    return Path(dataset_path).resolve().parent.parent / "datasets-splits"


def predefined_dataset(ds, path, *, splits_dir=None):
    """The split provider ``"predefined"``: ``ds`` from its published pair, if any.

    Parameters
    ----------
    ds : Dataset
        The dataset as loaded from ``path``.
    path : str or Path
        Its file or folder.
    splits_dir : str or Path, optional
        The splits folder; default ``datasets-splits`` beside the folder
        holding the dataset's folder or file (``_default_splits_dir``).

    Returns
    -------
    Dataset
        ``ds`` itself when no pair exists (or the splits folder does not).
    """
    folder = Path(splits_dir) if splits_dir is not None else _default_splits_dir(path)
    if not folder.is_dir() or predefined_split_folder(path, splits_dir=folder) is None:
        return ds
    return load_predefined_split(path, splits_dir=folder, features_like=ds)


register_split_provider("predefined", predefined_dataset)
