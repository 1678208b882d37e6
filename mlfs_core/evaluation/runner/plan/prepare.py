"""Resolve and validate an experiment config before any work starts.

Everything that can be wrong with a config (unknown dataset, method, method
parameter, metric or classifier; a budget above M; too many folds) raises
:class:`~mlfs_core.errors.ConfigError` here, so the runner never starts a
grid it cannot finish.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .... import options
from ...._validation import budget_from_percent
from ....data.bundled import SAMPLE_DIR, SAMPLE_NAME
from ....errors import ConfigError, MLFSError
from ....selectors._registry import get_method
from ...classifiers import make_classifier
from ...config import (
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    ProtocolConfig,
)
from ...conventions import SPLIT_PROVIDERS, resolve
from ...metrics import get_metric
from ...splits import (
    Split,
    check_n_folds,
    holdout_split,
    own_split,
    repeated_holdout,
    stratified_kfold,
)
from ..identity import dataset_hash, split_key


@dataclass(frozen=True)
class Budget:
    """One budget: ``k`` features, and the percentage it came from (or None)."""

    k: int
    pct: float | None


@dataclass
class PreparedDataset:
    """A loaded dataset with its hash, splits and resolved budgets."""

    name: str
    dataset: object
    content_hash: str
    splits: list[Split]
    split_key: dict
    budgets: list[Budget]
    source: str | None

    @property
    def n_features(self) -> int:
        return int(self.dataset.X.shape[1])


@dataclass(frozen=True)
class PreparedMethod:
    """A validated method: display label, registry name, parameters, stochastic flag.

    ``keeps_all`` is the spec's ``reference == "all"``: such a baseline is
    evaluated once, at 100 % of the features in their own order, and its
    rank function is not called (the built-in AF and any plug-in's alike).
    """

    label: str
    name: str
    params: dict
    stochastic: bool
    keeps_all: bool = False

    @property
    def is_all_features(self) -> bool:
        """Whether this is an all-features baseline (one evaluation at 100 %)."""
        return self.keeps_all


def prepare(config: ExperimentConfig):
    """Load datasets, compute splits and validate the whole config.

    Returns
    -------
    (list of PreparedDataset, list of PreparedMethod)

    Raises
    ------
    ConfigError
        Naming every problem found (unknown metrics, classifier or methods,
        datasets that cannot be loaded or split), each once, in one message.
    """
    protocol = config.protocol
    problems: list[str] = []

    def collect(fn, *args):
        try:
            return fn(*args)
        except ConfigError as exc:
            problems.append(str(exc))
            return None

    if protocol.evaluation == "definition":  # else checked by ProtocolConfig
        for name in protocol.metrics:
            collect(get_metric, name)
    collect(make_classifier, protocol.classifier.name, protocol.classifier.params)
    methods = [collect(_prepare_method, m) for m in config.methods]
    datasets = []
    for i, item in enumerate(config.datasets):
        datasets.append(collect(_prepare_item, item, i, config))
    if problems:
        raise ConfigError("; ".join(dict.fromkeys(problems)))
    names = [d.name for d in datasets]
    if len(set(names)) != len(names):
        raise ConfigError(f"datasets: names must be unique (set 'name'), got {names}")
    return datasets, methods


def _prepare_item(item, index: int, config: ExperimentConfig) -> PreparedDataset:
    """Load, split and prepare the config's dataset ``index``."""
    protocol = config.protocol
    ds, source = _load(item, index, config.base_dir)
    if protocol.split == "own" and source:
        ds = _provided_split(ds, source, protocol, config.base_dir)
    return _prepare_dataset(ds, source, protocol, config.seed, index)


def _provided_split(ds, source, protocol: ProtocolConfig, base_dir):
    """``ds`` as the evaluation's split providers give it (e.g. its published pair)."""
    providers = [c.split for c in resolve(protocol.evaluation) if c.split]
    if not providers:
        return ds
    from ... import predefined  # noqa: F401  registers the built-in "predefined"

    splits_dir = None
    if protocol.splits_dir is not None:
        splits_dir = resolve_path(protocol.splits_dir, base_dir)
    for name in providers:
        try:
            provider = SPLIT_PROVIDERS[name]
        except KeyError:
            known = sorted(SPLIT_PROVIDERS)
            msg = f"unknown split provider {name!r}; known: {known}"
            raise ConfigError(msg) from None
        ds = provider(ds, Path(source), splits_dir=splits_dir)
    return ds


def _prepare_method(m: MethodConfig) -> PreparedMethod:
    spec = get_method(m.name)
    # checked as the config checks a method it knows (a plug-in may have
    # registered this one since); the values stay as given (cache keys)
    options.resolve(spec.options, m.params, owner=f"methods: {m.display!r}: ")
    params = {**spec.defaults, **m.params}
    return PreparedMethod(
        m.display, m.name, params, bool(spec.stochastic), spec.reference == "all"
    )


def resolve_path(path: str, base_dir: str | None) -> Path:
    """Resolve a dataset path: absolute, else cwd-relative, else config-relative."""
    if path == SAMPLE_NAME:
        return SAMPLE_DIR / "planted.arff"
    p = Path(os.path.expanduser(path))
    if p.is_absolute() or p.exists() or base_dir is None:
        return p
    return Path(base_dir) / p


def _load(item, index: int, base_dir: str | None):
    if not isinstance(item, DatasetSpec):
        return item, None
    from ....data import load_dataset

    path = resolve_path(item.path, base_dir)
    if not path.exists():
        where = "" if str(path) == item.path else f" (looked for {path})"
        raise ConfigError(f"datasets[{index}].path: {item.path!r} not found{where}")
    hints = {
        "labels": list(item.labels) if item.labels else None,
        "label_count": item.label_count,
        "label_prefix": item.label_prefix,
        "name": item.name or (SAMPLE_NAME if item.path == SAMPLE_NAME else None),
    }
    try:
        ds = load_dataset(path, **hints)
    except MLFSError as exc:
        raise ConfigError(f"datasets[{index}].path {item.path!r}: {exc}") from None
    return ds, str(path)


def _prepare_dataset(ds, source, protocol: ProtocolConfig, seed: int, index: int):
    name = str(getattr(ds, "name", f"dataset{index}"))
    m = int(ds.X.shape[1])
    budgets = resolve_budgets(protocol, m, name)
    splits, key = _make_splits(ds, protocol, seed, name)
    return PreparedDataset(name, ds, dataset_hash(ds), splits, key, budgets, source)


def resolve_budgets(
    protocol: ProtocolConfig, n_features: int, dataset: str
) -> list[Budget]:
    """Turn the protocol's budgets into feature counts for a dataset with M features.

    Percentages round to nearest (halves up) with at least 1 feature. A count
    above M raises, or is dropped when ``on_large_budget = "clip"``.
    """
    out: list[Budget] = []
    clipped: list[int] = []
    for b in protocol.budgets:
        if protocol.budget_unit == "percent":
            out.append(Budget(budget_from_percent(b, n_features), float(b)))
            continue
        if int(b) > n_features:
            if protocol.on_large_budget == "clip":
                clipped.append(int(b))
                continue
            raise ConfigError(
                f"protocol.budgets: {int(b)} is larger than the number of features "
                f'of {dataset} ({n_features}); use on_large_budget = "clip" to drop it'
            )
        out.append(Budget(int(b), None))
    if clipped and out:
        shown = ", ".join(map(str, clipped[:5])) + (", ..." if len(clipped) > 5 else "")
        warnings.warn(
            f"protocol.budgets: {len(clipped)} budget(s) larger than the "
            f"{n_features} features of {dataset} dropped (on_large_budget = "
            f'"clip"): {shown}',
            UserWarning,
            stacklevel=3,
        )
    if not out:
        raise ConfigError(
            f"protocol.budgets: no budget fits {dataset} ({n_features} features)"
        )
    return out


def _make_splits(ds, protocol: ProtocolConfig, seed: int, name: str):
    """The protocol's train/test splits of ``ds`` and a key describing them
    (:func:`~mlfs_core.evaluation.runner.identity.split_key`)."""
    Y = np.asarray(ds.Y)
    own = getattr(ds, "split", None)
    key = split_key(protocol, seed, own=own is not None)
    if protocol.split == "cv":
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            check_n_folds(
                Y,
                protocol.n_folds,
                dataset=name,
                on_sparse_label=protocol.on_sparse_label,
            )
        return stratified_kfold(Y, n_folds=protocol.n_folds, random_state=seed), key
    if protocol.split == "repeated_holdout":
        splits = repeated_holdout(
            Y,
            n_splits=protocol.n_holdouts,
            test_size=protocol.test_size,
            random_state=seed,
        )
        return splits, key
    if protocol.split == "own" and own is not None:
        return [own_split(own)], key
    return [holdout_split(Y, test_size=protocol.test_size, random_state=seed)], key
