"""The Experiment form's choices, the config it builds, and its words for a run.

What the app's Experiment page offers (protocol presets, their teaching
budgets and methods, splits), the parsing of its boxes (budgets, whole
numbers within a range), the :class:`~mlfs_core.evaluation.config.ExperimentConfig`
built from them (:func:`build_config`), and the sentence that states a config
(:func:`settings_text`). Pure functions of the registries: no widget here.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

from ..errors import ConfigError
from ..evaluation.config import (
    ClassifierConfig,
    ExperimentConfig,
    MethodConfig,
    protocol_preset,
    protocol_preset_names,
    protocol_preset_spec,
)
from ..selectors import METHODS, default_methods, families, get_method, list_methods

TEACHING_BUDGETS = {"percent": "10, 30, 50", "count": "1-20"}
"""The Experiment form's first budgets by the preset's budget unit (its first
folds are 3, its first methods :func:`teaching_methods`, from the registry)."""


SPLITS = ("repeated_holdout", "own", "holdout", "cv")
"""The splits the form offers for a preset that does not fix CV."""


def protocol_choices() -> dict[str, str]:
    """The protocol presets the form offers (the registry's, plug-ins' included):
    name -> its description.

    Those some method names as a teaching default (``"experiment-<name>"`` in
    :attr:`~mlfs_core.MethodSpec.default_for`) come first, by name, so the form
    opens on a preset with a teaching set; then the others in registry order
    (the built-in ones first). Sorting the taught ones makes the form's first
    preset independent of the order in which a plug-in's modules were imported.
    """
    names = protocol_preset_names()
    taught = sorted(n for n in names if default_methods(f"experiment-{n}"))
    ordered = [*taught, *(n for n in names if n not in taught)]
    return {n: protocol_preset_spec(n).description for n in ordered}


def teaching_defaults(protocol: str) -> dict[str, str]:
    """The form's first budgets and folds for ``protocol`` (from its unit)."""
    unit = protocol_preset(protocol).budget_unit
    return {"budgets": TEACHING_BUDGETS[unit], "folds": "3"}


def budget_label(protocol: str) -> str:
    """The budgets box's label under ``protocol`` (its budget unit)."""
    if protocol_preset(protocol).budget_unit == "percent":
        return "Budgets (% of M)"
    return "Budgets (number of features)"


def split_options(protocol: str) -> list[str]:
    """The splits the form offers under ``protocol``, its own first; none when
    the preset fixes k-fold CV (its folds are then the only choice)."""
    own = protocol_preset(protocol).split
    if own == "cv":
        return []
    return [own, *(s for s in SPLITS if s != own)]


def uses_knn(protocol: str) -> bool:
    """Whether ``protocol`` evaluates with ML-kNN (the form then offers
    ML-kNN's scaling, and conventions where the preset discretizes)."""
    return protocol_preset(protocol).classifier.name == "mlknn"


def offers_evaluation(protocol: str) -> bool:
    """Whether the form offers conventions under ``protocol``: ML-kNN on
    discretized codes, the path conventions run on."""
    return uses_knn(protocol) and protocol_preset(protocol).discretize != "none"


def teaching_methods(protocol: str) -> list[str]:
    """The methods the Experiment form starts with for ``protocol``.

    Those registered with ``"experiment-<protocol>"`` in their
    :attr:`~mlfs_core.MethodSpec.default_for`, in registry order; for a
    preset no method names, the first two methods of the registry.
    """
    return default_methods(f"experiment-{protocol}") or list_methods()[:2]


def methods_by_family() -> tuple[list[str], dict[str, str]]:
    """Every registered method, family after family, and each one's family title.

    The families in :func:`mlfs_core.selectors.families` order (built-in
    first, then those of plug-ins), the methods of each in registry order.
    """
    titles = dict(families())
    names = [name for family in titles for name in list_methods(family)]
    return names, {name: titles[METHODS[name].family] for name in names}


def evaluation_choices() -> dict[str, str]:
    """The evaluations offered on the page (``ProtocolConfig.evaluation``).

    The definitions, then the registry's (:mod:`mlfs_core.evaluation.conventions`,
    filled by plug-ins): each preset (a set of conventions, e.g. a published
    method's own code), then each convention alone.

    Returns
    -------
    dict
        Evaluation name -> the text the page shows for it.
    """
    from ..evaluation import conventions

    offered = {conventions.DEFINITION: "as METHODS.md defines it"}
    for name, members in conventions.PRESETS.items():
        offered[name] = f"{name}: all of {', '.join(members)}"
    for name, convention in conventions.CONVENTIONS.items():
        offered[name] = f"{name} alone: {convention.description or convention.choice}"
    return offered


def parse_budgets(text: str) -> tuple[float, ...]:
    """``"10, 30, 50"`` or ``"1-20"`` (or a mix) -> a sorted tuple of numbers.

    Whole numbers become ints; others stay as read (``"10.5"`` -> 10.5), so
    the engine, not this parser, decides: a percentage may be 10.5, a count
    may not (an error there, rather than a silent 10).
    """
    values: set[float] = set()
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                lo, hi = (int(p) for p in part.split("-", 1))
                values.update(range(lo, hi + 1))
            else:
                value = float(part)
                values.add(int(value) if value.is_integer() else value)
        except ValueError:
            raise ConfigError(f"budgets: cannot read {part!r}") from None
    if not values:
        raise ConfigError("budgets: give at least one budget")
    return tuple(sorted(values))


FOLDS = ("Folds (CV)", 2, 10)
"""The folds box: its label and the whole numbers it allows."""


REPEATS = ("Random runs", 1, 5)
"""The random-runs box: its label and the whole numbers it allows."""


SEED = ("Seed (sidebar)", 0, 2**63 - 1)
"""The seed: 0 up to the largest integer a saved config (TOML) can hold."""


def whole_number(value: object, field: tuple[str, int, int]) -> int:
    """``value`` (a box's text or a number) as an int within ``field``'s range.

    Parameters
    ----------
    value : str, int or float
        What the box holds: ``"3"``, ``"1e9"``, ``7``.
    field : tuple
        ``(label, lowest, highest)``, e.g. :data:`FOLDS`.

    Returns
    -------
    int

    Raises
    ------
    ConfigError
        Naming the field, its allowed range and the value, when the value is
        not a whole number in the range: a run never goes on with another
        value than the one on the screen.

    Examples
    --------
    >>> whole_number("4", FOLDS)
    4
    >>> whole_number("1e9", FOLDS)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: Folds (CV) must be ... from 2 to 10, not 1e9.
    """
    label, lo, hi = field
    text = str(value).strip()
    number = _as_int(text)
    if number is None or not lo <= number <= hi:
        raise ConfigError(
            f"{label} must be a whole number from {_spaced(lo)} to {_spaced(hi)}, "
            f"not {text or 'empty'}."
        )
    return number


def _as_int(text: str) -> int | None:
    """``text`` as an int (``"12"``, ``"1e9"``, ``"3.0"``), else None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        real = float(text)
    except ValueError:
        return None
    if not math.isfinite(real) or not real.is_integer():
        return None
    return int(real)


def _spaced(number: int) -> str:
    """``9223372036854775807`` -> ``"9 223 372 036 854 775 807"`` (readable)."""
    return f"{number:,}".replace(",", " ")


def build_config(
    datasets: list[object],
    methods: list[str],
    *,
    protocol: str,
    budgets: str,
    folds: int | str,
    repeats: int | str,
    split: str,
    seed: int | str,
    scaling: str = "none",
    binarize: str = "presence",
    evaluation: str = "definition",
) -> ExperimentConfig:
    """An :class:`ExperimentConfig` from the page's widget values.

    ``protocol`` is a registered preset (:func:`protocol_choices`).
    ``scaling`` is the classifier-input scaling (``none``, ``l2-rows``,
    ``maxabs``) or, under a preset that evaluates with ML-kNN, ML-kNN's
    (``none``, ``minmax``); ``binarize`` goes to every method that takes it
    (the CS/BNS family: ``presence`` or ``median``); ``evaluation`` applies
    where :func:`offers_evaluation` (``ProtocolConfig.evaluation``:
    ``definition``, a preset of conventions or one convention alone).
    ``split`` is ignored under a preset that fixes CV.

    ``folds``, ``repeats`` and ``seed`` are checked against :data:`FOLDS`,
    :data:`REPEATS` and :data:`SEED` (:func:`whole_number`): a value out of
    range is a :class:`~mlfs_core.errors.ConfigError` naming the box and its
    range, never a run with some other value.
    """
    split = split if split_options(protocol) else "cv"
    n_folds = whole_number(folds, FOLDS) if split == "cv" else 3
    common = {
        "split": split,
        "n_folds": n_folds,
        "budgets": parse_budgets(budgets),
        "n_repeats": whole_number(repeats, REPEATS),
        "on_sparse_label": "ignore",
    }
    seed = whole_number(seed, SEED)
    if not uses_knn(protocol):
        proto = protocol_preset(protocol, scaling=scaling, **common)
    else:
        params = {**protocol_preset(protocol).classifier.params, "scaling": scaling}
        if offers_evaluation(protocol):
            common["evaluation"] = evaluation
        knn = ClassifierConfig("mlknn", params)
        proto = protocol_preset(protocol, classifier=knn, **common)
    return ExperimentConfig(
        datasets=tuple(datasets),
        methods=tuple(_with_binarize(m, binarize) for m in methods),
        protocol=proto,
        seed=seed,
        name="app",
    )


def _with_binarize(name: str, binarize: str):
    """``name`` as a method config carrying ``binarize`` when the method takes it."""
    if binarize == "presence" or "binarize" not in get_method(name).defaults:
        return name
    return MethodConfig(name, {"binarize": binarize})


def config_digest(config: ExperimentConfig) -> str:
    """A short hash naming ``config`` (its run folder, its time estimate).

    An uploaded (in-memory) dataset counts by its content hash, not by its
    ``repr``, which shows only the shape and the first and last values.
    """
    named = tuple(
        d.content_hash() if hasattr(d, "content_hash") else d for d in config.datasets
    )
    parts = (named, config.methods, config.protocol, config.seed, config.plugins)
    text = repr((*parts, config.name))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def settings_text(config: ExperimentConfig) -> str:
    """``config`` in one sentence: protocol, datasets, methods, budgets, folds, seed.

    Examples
    --------
    >>> settings_text(ExperimentConfig(datasets=("sample",), methods=("MaxCS",),
    ...     protocol=protocol_preset("field", budgets=(2, 4)), seed=3))
    ... # doctest: +NORMALIZE_WHITESPACE
    'protocol field on 1 dataset(s): sample; 1 method(s) (MaxCS) at budgets 2, 4
    (features), 5 random 70/30 splits, seed 3.'
    """
    proto = config.protocol
    names = [
        getattr(d, "name", None) or Path(str(getattr(d, "path", d))).name
        for d in config.datasets
    ]
    unit = "% of M" if proto.budget_unit == "percent" else "features"
    budgets = ", ".join(f"{b:g}" for b in proto.budgets)
    split = {
        "cv": f"{proto.n_folds}-fold CV",
        "own": "the dataset's own train/test split",
        "holdout": f"a {_parts(proto.test_size)} holdout split",
        "repeated_holdout": f"{proto.n_holdouts} random "
        f"{_parts(proto.test_size)} splits",
    }.get(proto.split, proto.split)
    methods = ", ".join(m.display for m in config.methods)
    return (
        f"protocol {proto.name} on {len(names)} dataset(s): {', '.join(names)}; "
        f"{len(config.methods)} method(s) ({methods}) at budgets {budgets} "
        f"({unit}), {split}, seed {config.seed}."
    )


def _parts(test_size: float) -> str:
    """``"70/30"`` for a test fraction of 0.3."""
    test = round(100 * test_size)
    return f"{100 - test}/{test}"


def run_statement(config: ExperimentConfig) -> str:
    """What Run will compute: ``"Run computes "`` and :func:`settings_text`."""
    return f"Run computes {settings_text(config)}"


def quick_budgets(budgets: tuple) -> str:
    """At most three budgets of ``budgets``: the first, the middle, the last.

    Examples
    --------
    >>> quick_budgets((1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
    '1, 6, 10'
    >>> quick_budgets((10, 50))
    '10, 50'
    """
    values = list(budgets)
    if len(values) > 3:
        values = [values[0], values[len(values) // 2], values[-1]]
    return ", ".join(f"{b:g}" for b in values)
