"""Registering protocol presets, and the presets' declaration to the plug-in loader.

Apart from :mod:`._presets` (the table and the lookups) because checking a
preset builds its :class:`~._protocol.ProtocolConfig`, which looks presets up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields as dataclass_fields

from ... import plugins
from ...errors import ConfigError
from ._presets import (
    _BUILT_IN,
    _NOT_SETTABLE,
    CONTROL_TESTS,
    PROTOCOL_PRESETS,
    ProtocolPreset,
    unregister_protocol_preset,
)
from ._protocol import ProtocolConfig


def register_protocol_preset(
    name: str,
    settings: Mapping,
    *,
    classifier_defaults: Mapping | None = None,
    control_test: str = "bonferroni_dunn",
    alpha: float = 0.05,
    description: str = "",
    citation: str = "",
) -> ProtocolPreset:
    """Make a protocol preset available to configs under ``name``.

    The preset is checked by building its protocol (every problem named at
    once); a failing preset is not registered. Registering a name again
    replaces the preset.

    Parameters
    ----------
    name : str
        A non-empty name (case-sensitive).
    settings : mapping
        :class:`~.ProtocolConfig` fields (``name`` and ``splits_dir``
        excepted) and their values, in the form a TOML ``[protocol]`` table
        gives them (a classifier as ``{"name": ..., "params": {...}}``).
    classifier_defaults : mapping, optional
        Classifier name -> parameters it gets when a config names it without.
    control_test : {"bonferroni_dunn", "nemenyi"}, default="bonferroni_dunn"
    alpha : float, default=0.05
        In (0, 1).
    description, citation : str

    Returns
    -------
    ProtocolPreset

    Raises
    ------
    ConfigError
        For an empty name, a key that is not a protocol field, an invalid
        value, an unknown control test or alpha out of (0, 1).
    """
    problems = _preset_problems(name, settings, control_test, alpha)
    if problems:
        raise ConfigError(f"protocol preset {name!r}: " + "; ".join(problems))
    defaults = {str(k): dict(v) for k, v in dict(classifier_defaults or {}).items()}
    preset = ProtocolPreset(
        name,
        dict(settings),
        defaults,
        control_test,
        float(alpha),
        str(description),
        str(citation),
    )
    before = PROTOCOL_PRESETS.get(name)
    PROTOCOL_PRESETS[name] = preset
    try:
        ProtocolConfig(name=name)
    except ConfigError as exc:
        if before is None:
            del PROTOCOL_PRESETS[name]
        else:
            PROTOCOL_PRESETS[name] = before
        raise ConfigError(f"protocol preset {name!r}: {exc}") from None
    return preset


def _preset_problems(name, settings, control_test, alpha) -> list[str]:
    problems = []
    if not isinstance(name, str) or not name.strip():
        problems.append("the name must be a non-empty string")
    if not isinstance(settings, Mapping):
        return [*problems, f"settings must be a mapping, got {type(settings).__name__}"]
    known = {f.name for f in dataclass_fields(ProtocolConfig)} - set(_NOT_SETTABLE)
    unknown = sorted(set(settings) - known)
    if unknown:
        problems.append(f"unknown setting(s) {unknown}; known: {sorted(known)}")
    if control_test not in CONTROL_TESTS:
        problems.append(
            f"control_test must be one of {CONTROL_TESTS}, got {control_test!r}"
        )
    if not isinstance(alpha, (int, float)) or not 0.0 < float(alpha) < 1.0:
        problems.append(f"alpha must lie in (0, 1), got {alpha!r}")
    return problems


def _export(name: str) -> ProtocolPreset:
    return PROTOCOL_PRESETS[name]


def _restore(name: str, preset: ProtocolPreset) -> None:
    """Register a preset a parent process sent (:mod:`mlfs_core.plugins`)."""
    register_protocol_preset(
        name,
        preset.settings,
        classifier_defaults=preset.classifier_defaults,
        control_test=preset.control_test,
        alpha=preset.alpha,
        description=preset.description,
        citation=preset.citation,
    )


plugins.add_registry(
    plugins.Registry(
        "presets",
        PROTOCOL_PRESETS,
        _BUILT_IN,
        unregister_protocol_preset,
        _export,
        _restore,
    )
)
