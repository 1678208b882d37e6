"""Criterion variants of the greedy filters: a public extension point.

A *variant* is another criterion for one of the information-theoretic greedy
methods, chosen with the method's ``variant`` option: ``"definition"`` is the
criterion of :mod:`mlfs_core.selectors.greedy`, and every other value is the
name of a variant registered here with :func:`register_variant`. A variant is
a :class:`~mlfs_core.selectors.it.criteria.Criterion` built from the parts the
definitions use: S-free terms (:data:`~mlfs_core.selectors.it.criteria.RELEVANCE`,
the label-pair terms of :meth:`~mlfs_core.selectors.it.criteria.Context.pair`
or a function of your own of the :class:`~mlfs_core.selectors.it.criteria.Context`),
a redundancy of :data:`~mlfs_core.selectors.it.criteria.REDUNDANCY` and a
combination of :data:`~mlfs_core.selectors.it.criteria.COMBINATIONS`, so the
engine runs it with the same incremental steps and the Learn pages explain it
term by term.

The methods of :data:`VARIANT_METHODS` take the option (their cache keys have
always held it; a method without it keeps its keys). Plug-ins register their
variants when loaded (:mod:`mlfs_core.plugins`); a variant name the engine
does not know loads the installed plug-ins once before it is refused, so
``compute_ranking(X, Y, "PMU", variant=name)`` works whenever the package that
registers ``name`` is installed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from .. import plugins
from .._code import on_unknown_name, source_digest
from ..errors import ConfigError
from ..options import Option
from .it.criteria import COMBINATIONS, REDUNDANCY, Criterion

__all__ = [
    "DEFINITION",
    "VARIANT_METHODS",
    "Variant",
    "VariantNames",
    "register_variant",
    "unregister_variant",
    "variant_criterion",
    "variant_identity",
    "variant_names",
    "variant_option",
    "variants",
]

DEFINITION = "definition"
"""The ``variant`` value of a method's criterion as defined."""
VARIANT_METHODS = ("PMU", "MDMR")
"""The greedy methods with a ``variant`` option, those :func:`register_variant`
extends."""


@dataclass(frozen=True)
class Variant:
    """One registered criterion variant.

    Attributes
    ----------
    method : str
        The method it is a variant of (one of :data:`VARIANT_METHODS`).
    name : str
        The value of the method's ``variant`` option that selects it.
    criterion : Criterion
        What the greedy engine computes for it.
    description : str
        One sentence: how it departs from the definition.
    """

    method: str
    name: str
    criterion: Criterion
    description: str = ""


_VARIANTS: dict[str, dict[str, Variant]] = {m: {} for m in VARIANT_METHODS}


def _check_method(method: object) -> str:
    if method not in VARIANT_METHODS:
        raise ConfigError(
            f"only {', '.join(VARIANT_METHODS)} take criterion variants; "
            f"got method {method!r}"
        )
    return method


def _check_criterion(criterion: object) -> Criterion:
    if not isinstance(criterion, Criterion):
        raise ConfigError(
            f"a variant's criterion must be a Criterion, got {type(criterion).__name__}"
        )
    if criterion.redundancy is not None and criterion.redundancy not in REDUNDANCY:
        raise ConfigError(
            f"unknown redundancy {criterion.redundancy!r}; "
            f"known: {', '.join(REDUNDANCY)} (or None)"
        )
    if criterion.combine not in COMBINATIONS:
        names = ", ".join(c.__name__ for c in COMBINATIONS)
        raise ConfigError(f"a criterion's combine must be one of {names}")
    return criterion


def register_variant(
    method: str, name: str, criterion: Criterion, *, description: str = ""
) -> Variant:
    """Add a criterion variant of a greedy method, selected by ``variant=name``.

    Parameters
    ----------
    method : str
        One of :data:`VARIANT_METHODS`.
    name : str
        The new value of the method's ``variant`` option (not
        ``"definition"``, nor a name already registered for ``method``).
    criterion : Criterion
        Its terms, redundancy key and combination (see the module notes).
    description : str, optional
        One sentence: how the variant departs from the definition.

    Returns
    -------
    Variant
        What was registered.

    Raises
    ------
    ConfigError
        For another method, a name taken, or a criterion the engine cannot
        run (unknown redundancy or combination); nothing is registered.

    Examples
    --------
    >>> from mlfs_core.selectors.it.criteria import RELEVANCE, Criterion
    >>> v = register_variant("PMU", "relevance-only", Criterion((RELEVANCE,), None))
    >>> "relevance-only" in variant_names("PMU")
    True
    >>> unregister_variant("PMU", "relevance-only")
    """
    _check_method(method)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a variant's name must be non-empty text, got {name!r}")
    if name == DEFINITION or name in _VARIANTS[method]:
        raise ConfigError(
            f"{method} already has a variant called {name!r}; choose another name "
            "(or unregister_variant() yours first)"
        )
    variant = Variant(method, name, _check_criterion(criterion), str(description))
    _VARIANTS[method][name] = variant
    return variant


def unregister_variant(method: str, name: str) -> None:
    """Remove a variant added by :func:`register_variant`."""
    _check_method(method)
    if name not in _VARIANTS[method]:
        raise ConfigError(f"{method} has no registered variant {name!r}")
    del _VARIANTS[method][name]


def variant_names(method: str) -> tuple[str, ...]:
    """``"definition"`` then the variants registered for ``method``, in order.

    Examples
    --------
    >>> variant_names("MDMR")[0]
    'definition'
    >>> variant_names("D2F")
    ('definition',)
    """
    return (DEFINITION, *_VARIANTS.get(method, {}))


def variants(method: str) -> list[Variant]:
    """The variants registered for ``method``, in the order they were added."""
    return list(_VARIANTS.get(method, {}).values())


def _find(method: str, name: object) -> Variant | None:
    if not isinstance(name, str):
        return None
    return _VARIANTS.get(method, {}).get(name)


def variant_criterion(method: str, name: str) -> Criterion:
    """The criterion of a registered variant, loading installed plug-ins once.

    Raises
    ------
    ConfigError
        Naming the method, the variant asked for and the registered ones.
    """
    found = _find(method, name)
    if found is None:
        on_unknown_name()  # an installed plug-in may register it
        found = _find(method, name)
    if found is None:
        raise ConfigError(
            f"{method} has no variant {name!r}; registered: "
            f"{', '.join(variant_names(method))}"
        )
    return found.criterion


def _callable_identity(function) -> str:
    """A term's or combination's identity: the engine's by name, others' code."""
    module = getattr(function, "__module__", "") or ""
    name = getattr(function, "__qualname__", repr(function))
    if module == "mlfs_core" or module.startswith("mlfs_core."):
        return f"{module}.{name}"
    return f"{module}.{name}:{source_digest(function)}"


def variant_identity(method: str, name: object) -> dict | None:
    """The part of a selection's cache key that identifies a variant's criterion.

    None for ``"definition"`` (and for a method without variants): the
    engine's own criteria are covered by its cache version. For a registered
    variant: its name, its terms' formulas, redundancy key and combination,
    and the code identity (:func:`mlfs_core._code.source_digest`) of every
    term or combination defined outside the engine, so editing a variant's
    plug-in never returns stale cached selections.

    Examples
    --------
    >>> from mlfs_core.selectors.it.criteria import RELEVANCE, Criterion
    >>> v = register_variant("PMU", "relevance-only", Criterion((RELEVANCE,), None))
    >>> variant_identity("PMU", "relevance-only")["variant"]
    'relevance-only'
    >>> variant_identity("PMU", "definition") is None
    True
    >>> unregister_variant("PMU", "relevance-only")
    """
    if method not in VARIANT_METHODS or name in (None, DEFINITION):
        return None
    criterion = variant_criterion(method, name)
    return {
        "variant": name,
        "terms": [formula for formula, _ in criterion.terms],
        "term_code": [_callable_identity(term) for _, term in criterion.terms],
        "redundancy": criterion.redundancy,
        "combine": _callable_identity(criterion.combine),
    }


class VariantNames(Sequence):
    """The ``variant`` values of one method as registered now (a live view).

    Compares equal to the tuple :func:`variant_names` returns at the time.
    """

    def __init__(self, method: str):
        self.method = method

    def __getitem__(self, index):
        return variant_names(self.method)[index]

    def __len__(self) -> int:
        return len(variant_names(self.method))

    def __eq__(self, other) -> bool:
        if isinstance(other, VariantNames | tuple | list):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((VariantNames, self.method))

    def __repr__(self) -> str:
        return repr(variant_names(self.method))


class _VariantOption(Option):
    """The ``variant`` option: its choices are the variants registered now."""

    def check(self, value: object) -> object:
        """``value`` if it names the definition or a registered variant."""
        if value != DEFINITION:
            variant_criterion(self.choices.method, value)
        return value


def variant_option(method: str) -> Option:
    """The ``variant`` option of ``method``: ``"definition"`` or a registered name.

    Examples
    --------
    >>> variant_option("PMU").describe().split(" (")[0]
    'variant=definition'
    """
    return _VariantOption(
        "variant",
        DEFINITION,
        choices=VariantNames(_check_method(method)),
        help="The criterion as defined, or a registered variant of it.",
    )


class _Flat(Mapping):
    """The registered variants as one table keyed ``"METHOD/name"`` (live)."""

    def __getitem__(self, key: str) -> Variant:
        method, _, name = str(key).partition("/")
        found = _find(method, name)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[str]:
        return (f"{m}/{n}" for m, table in _VARIANTS.items() for n in table)

    def __len__(self) -> int:
        return sum(len(table) for table in _VARIANTS.values())


def _unregister_key(key: str) -> None:
    method, _, name = key.partition("/")
    unregister_variant(method, name)


def _restore(key: str, variant: Variant) -> None:
    """Register ``variant`` again in a worker process (:mod:`mlfs_core.plugins`)."""
    register_variant(
        variant.method, variant.name, variant.criterion, description=variant.description
    )


plugins.add_registry(
    plugins.Registry(
        "variants",
        _Flat(),
        frozenset(),
        _unregister_key,
        export=_Flat().__getitem__,
        restore=_restore,
    )
)
