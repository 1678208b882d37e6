"""An experiment config's TOML form: :func:`load_config`, :func:`save_config` and kin.

A config read back equals the one written: ``None`` values are left out (TOML
has no null), a protocol's fields that its split does not use are left out
(:data:`~._constraints.SPLIT_FIELDS`), and an evaluation under conventions is
written as the table ``[protocol.evaluation]``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path

import tomli_w

from ...errors import ConfigError
from .. import conventions
from ._constraints import SPLIT_FIELDS, from_table
from ._experiment import DatasetSpec, ExperimentConfig
from ._protocol import ProtocolConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def config_to_dict(config: ExperimentConfig) -> dict:
    """Plain nested dict of ``config`` (None values left out, as TOML has no null)."""
    for d in config.datasets:
        if not isinstance(d, DatasetSpec):
            raise ConfigError("datasets: in-memory datasets cannot be written to TOML")
    out = {
        "name": config.name,
        "seed": config.seed,
        "protocol": _plain(config.protocol),
        "datasets": [_plain(d) for d in config.datasets],
        "methods": [_plain(m) for m in config.methods],
    }
    if config.plugins:
        out["plugins"] = list(config.plugins)
    if config.tuning is not None:
        out["tuning"] = _plain(config.tuning)
    return out


def config_from_dict(data: Mapping, *, base_dir: str | None = None) -> ExperimentConfig:
    """Build an :class:`ExperimentConfig` from a nested dict (as read from TOML)."""
    data = dict(data)
    data["base_dir"] = base_dir
    return from_table(ExperimentConfig, data, "config")


def config_to_toml(config: ExperimentConfig) -> str:
    """TOML text of ``config``."""
    return tomli_w.dumps(config_to_dict(config))


def config_from_toml(
    text: str, *, base_dir: str | None = None, where: str = "config"
) -> ExperimentConfig:
    """Parse TOML text into an :class:`ExperimentConfig` (ConfigError if invalid).

    ``where`` (the file's path) opens the message of a text that is not
    TOML, nested too deeply for the parser (a ``RecursionError`` inside it)
    or longer than the config budget (``MLFS_MAX_CONFIG_MB``,
    :mod:`mlfs_core.data.limits`), so the error names the file.
    """
    _check_size(len(text), where)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(
            f"{where}: arrays or tables nested too deeply to parse (an experiment "
            "config nests a few levels)"
        ) from None
    try:
        return config_from_dict(data, base_dir=base_dir)
    except RecursionError:
        raise ConfigError(
            f"{where}: values nested too deeply to check (an experiment config "
            "nests a few levels)"
        ) from None


def load_config(path) -> ExperimentConfig:
    """Read a TOML config file; relative dataset paths may be relative to its folder."""
    path = Path(path)
    try:
        _check_size(path.stat().st_size, f"config {path}")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config {path} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    where = f"config {path}"
    return config_from_toml(text, base_dir=str(path.resolve().parent), where=where)


def _check_size(size: int, where: str) -> None:
    """Refuse a config of more than ``max_config_mb`` megabytes, before parsing."""
    from ...data.limits import ENV, current_limits

    budget = current_limits().max_config_mb
    if size > budget << 20:
        raise ConfigError(
            f"{where}: {size:,} bytes, above the budget of {budget:,} MB for a "
            "config (refused before parsing; an experiment config is a few "
            f"kilobytes; set {ENV['max_config_mb']} to raise it)"
        )


def save_config(config: ExperimentConfig, path) -> None:
    """Write ``config`` as TOML to ``path``."""
    Path(path).write_text(config_to_toml(config), encoding="utf-8")


def _plain(obj) -> dict:
    out = {}
    for f in fields(obj):
        if f.name == "base_dir":
            continue
        value = getattr(obj, f.name)
        if value is None:
            continue
        if isinstance(obj, ProtocolConfig) and obj.split not in SPLIT_FIELDS.get(
            f.name, (obj.split,)
        ):
            continue  # e.g. no n_folds for a train/test run
        if f.name == "evaluation" and value != conventions.DEFINITION:
            value = conventions.to_table(value)  # [protocol.evaluation]
        elif hasattr(value, "__dataclass_fields__"):
            value = _plain(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out
