"""Evaluation conventions: named departures from the definitions, from plug-ins.

A protocol evaluates by the definitions (``evaluation = "definition"``, the
default) or under a set of *conventions*. A convention changes one aspect of
the evaluation, through the engine's public extension points:

- the split, by a *split provider* registered with
  :func:`register_split_provider` (e.g. ``"predefined"``: a dataset's
  published train/test pair, see :mod:`.predefined`);
- the classifier, by another registered classifier (same parameters);
- the metrics, by metric variants (:data:`.metrics.VARIANT_METRICS`) standing in for
  the registry's metrics under the same names, extra metrics it makes
  available, a default metric list, and the rule that drops labels
  (``"train"``: labels constant in the training part; ``"train_or_test"``:
  constant in the training or the test part).

Conventions and *presets* (a name for a set of conventions) are registered
with :func:`register_convention` and :func:`register_preset`; their order of
registration is the canonical order of a set. A config names them as a TOML
table, one key per aspect (``[protocol.evaluation]`` with ``split =
"predefined"``, ...; see :func:`from_table`), or as the older ``+``-joined
string. Inside the engine an evaluation is one canonical string
(:func:`canonical`): ``"definition"``, a preset's name, or the convention
names ``+``-joined in canonical order; cache keys use it.

Plug-ins register conventions when imported. A name the registry does not
know triggers one load of the installed plug-ins (the entry-point group
:data:`~mlfs_core.plugins.PLUGIN_GROUP`, and ``MLFS_PLUGINS``), then the
lookup is retried: a plug-in such as the conventions of a published method's
own code registers them that way.

Examples
--------
>>> canonical("definition")
'definition'
>>> resolve("definition")
()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..errors import ConfigError
from ..plugins import PLUGIN_GROUP, load_plugins

DEFINITION = "definition"
LABEL_RULES = ("train", "train_or_test")


@dataclass(frozen=True)
class Convention:
    """One named departure from the definitions of the evaluation.

    Attributes
    ----------
    name : str
        The name in ``+``-joined evaluations and cache keys.
    aspect, choice : str
        Its key and value in a config's ``[protocol.evaluation]`` table.
    split : str, optional
        A split provider (:func:`register_split_provider`) that replaces each
        dataset before the protocol's ``split = "own"`` applies.
    classifier : str, optional
        A registered classifier used instead of the protocol's, with the same
        parameters.
    metric_variants : mapping, optional
        Result metric name -> variant name (:data:`.metrics.VARIANT_METRICS`)
        computed under that name.
    extra_metrics : tuple of str
        Variant names the convention lets ``protocol.metrics`` list.
    default_metrics : tuple of str, optional
        The protocol's metric list when the config gives none.
    label_rule : {"train", "train_or_test"}, optional
        Which constant labels every metric leaves out.
    description : str
        One line for the docs and the app.
    """

    name: str
    aspect: str
    choice: str
    split: str | None = None
    classifier: str | None = None
    metric_variants: Mapping[str, str] = field(default_factory=dict)
    extra_metrics: tuple = ()
    default_metrics: tuple | None = None
    label_rule: str | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if self.label_rule is not None and self.label_rule not in LABEL_RULES:
            raise ConfigError(
                f"convention {self.name!r}: label_rule must be one of "
                f"{list(LABEL_RULES)}, got {self.label_rule!r}"
            )
        if self.choice == DEFINITION:
            raise ConfigError(f"convention {self.name!r}: choice 'definition' is taken")


CONVENTIONS: dict[str, Convention] = {}
"""Convention name -> :class:`Convention`, in canonical order."""
PRESETS: dict[str, tuple[str, ...]] = {}
"""Preset name -> the names of its conventions, in canonical order."""
PRESET_METRICS: dict[str, tuple[str, ...]] = {}
"""Preset name -> the only metrics it allows, where it restricts them."""
SplitProvider = Callable[..., object]
SPLIT_PROVIDERS: dict[str, SplitProvider] = {}
"""Split provider name -> ``provider(dataset, path, *, splits_dir) -> dataset``."""


def register_convention(convention: Convention) -> None:
    """Make ``convention`` available to evaluations (re-registering replaces it).

    Parameters
    ----------
    convention : Convention
    """
    if convention.name in PRESETS or convention.name == DEFINITION:
        raise ConfigError(f"convention name {convention.name!r} is taken")
    CONVENTIONS[convention.name] = convention


def register_preset(name: str, conventions, *, metrics=None) -> None:
    """Name a set of registered conventions (e.g. all of one method's own code).

    Parameters
    ----------
    name : str
    conventions : iterable of str
        Registered convention names.
    metrics : iterable of str, optional
        The only metrics a protocol under this preset may list.
    """
    names = tuple(conventions)
    unknown = [n for n in names if n not in CONVENTIONS]
    if unknown or not names:
        raise ConfigError(f"preset {name!r}: unknown or no conventions {unknown}")
    PRESETS[name] = tuple(n for n in CONVENTIONS if n in names)
    if metrics is not None:
        PRESET_METRICS[name] = tuple(metrics)


def allowed_metrics(evaluation: str, ours) -> tuple[str, ...]:
    """The metric names a protocol may list under ``evaluation``.

    Parameters
    ----------
    evaluation : str
    ours : sequence of str
        The registry's metric names.

    Returns
    -------
    tuple of str
        A preset's own list where it has one; else, with conventions on,
        ``ours`` plus every metric variant (:data:`.metrics.VARIANT_METRICS`) and the
        conventions' extra metrics; else ``ours``.
    """
    from .metrics import VARIANT_METRICS

    key = canonical(evaluation)
    if key in PRESET_METRICS:
        return PRESET_METRICS[key]
    if key == DEFINITION:
        return tuple(ours)
    extra = [m for c in resolve(key) for m in c.extra_metrics]
    return tuple(dict.fromkeys([*ours, *VARIANT_METRICS, *extra]))


def register_split_provider(name: str, provider: SplitProvider) -> None:
    """Make ``provider`` available to conventions under ``name``.

    Parameters
    ----------
    name : str
    provider : callable
        ``provider(dataset, path, *, splits_dir) -> dataset``: the dataset
        loaded from ``path`` (a file or folder), replaced by another (e.g. its
        train/test pair with ``Dataset.split`` set) or returned unchanged.
    """
    SPLIT_PROVIDERS[name] = provider


def _known(name: str) -> bool:
    if name in CONVENTIONS or name in PRESETS:
        return True
    load_plugins()
    return name in CONVENTIONS or name in PRESETS


def names_of(evaluation: str) -> tuple[str, ...]:
    """The convention names an evaluation switches on, in canonical order.

    Parameters
    ----------
    evaluation : str
        ``"definition"``, a preset name, or convention names ``+``-joined in
        canonical order.

    Returns
    -------
    tuple of str

    Raises
    ------
    ConfigError
        An unknown name or an order other than the canonical one (the message
        lists what is registered).
    """
    if evaluation == DEFINITION:
        return ()
    parts = str(evaluation).split("+")
    if len(parts) == 1 and _known(parts[0]) and parts[0] in PRESETS:
        return PRESETS[parts[0]]
    known = all(_known(p) and p in CONVENTIONS for p in parts)
    order = list(CONVENTIONS)
    if not known or parts != sorted(set(parts), key=order.index):
        raise ConfigError(
            f"protocol.evaluation must be 'definition', a preset "
            f"({sorted(PRESETS)}) or '+'-joined conventions from {order} in "
            f"that order, got {evaluation!r} (plug-ins register conventions: "
            f"installed ones in the entry-point group {PLUGIN_GROUP!r} load "
            "by themselves)"
        )
    return tuple(parts)


def resolve(evaluation: str) -> tuple[Convention, ...]:
    """The :class:`Convention` objects of an evaluation, in canonical order.

    Raises
    ------
    ConfigError
        See :func:`names_of`.
    """
    return tuple(CONVENTIONS[n] for n in names_of(evaluation))


def canonical(evaluation: str) -> str:
    """The one string an evaluation is known by: its preset's name if it is one.

    Raises
    ------
    ConfigError
        See :func:`names_of`.
    """
    names = names_of(evaluation)
    if not names:
        return DEFINITION
    for preset, members in PRESETS.items():
        if members == names:
            return preset
    return "+".join(names)


def from_table(table: Mapping) -> str:
    """The canonical evaluation of a ``[protocol.evaluation]`` table.

    Parameters
    ----------
    table : mapping
        ``preset = NAME`` and/or one ``aspect = choice`` per convention (a
        choice of ``"definition"`` switches that aspect off).

    Returns
    -------
    str

    Raises
    ------
    ConfigError
        Every unknown aspect or choice, named in one message.
    """
    if not isinstance(table, Mapping):
        raise ConfigError(
            f"protocol.evaluation must be a string or a table, got {table!r}"
        )
    load_plugins()
    on: set[str] = set()
    problems = []
    preset = table.get("preset")
    if preset is not None:
        if preset not in PRESETS:
            problems.append(f"preset {preset!r} (known: {sorted(PRESETS)})")
        else:
            on |= set(PRESETS[preset])
    by_aspect: dict[str, dict[str, str]] = {}
    for c in CONVENTIONS.values():
        by_aspect.setdefault(c.aspect, {})[c.choice] = c.name
    for aspect, choice in table.items():
        if aspect == "preset":
            continue
        choices = by_aspect.get(aspect)
        if choices is None:
            problems.append(f"aspect {aspect!r} (known: {sorted(by_aspect)})")
        elif choice == DEFINITION:
            on -= set(choices.values())
        elif choice not in choices:
            problems.append(
                f"{aspect} = {choice!r} (known: {['definition', *sorted(choices)]})"
            )
        else:
            on.add(choices[choice])
    if problems:
        raise ConfigError("protocol.evaluation: unknown " + "; ".join(problems))
    names = [n for n in CONVENTIONS if n in on]
    return canonical("+".join(names)) if names else DEFINITION


def to_table(evaluation: str) -> dict[str, str]:
    """The ``[protocol.evaluation]`` table of an evaluation (empty for the definition).

    A preset is written as ``{"preset": name}``, any other set as one
    ``aspect: choice`` per convention.

    Raises
    ------
    ConfigError
        See :func:`names_of`.
    """
    key = canonical(evaluation)
    if key in PRESETS:
        return {"preset": key}
    return {c.aspect: c.choice for c in resolve(key)}
