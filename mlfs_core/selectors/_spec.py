"""What a ranking method is: :class:`MethodSpec`, its :class:`Option` s, its result.

One convention for every method of your own, a plain function or a
:class:`MethodSpec`'s ``rank``::

    rank(X, Y, *, k, random_state, **options) -> order | (order, scores) | Ranking

where ``X`` is a CSR matrix (n_samples, n_features) of floats, ``Y`` a dense
0/1 ``int8`` array (n_samples, n_labels) (both already validated), ``k`` the
number of features wanted, ``random_state`` a :class:`numpy.random.Generator`
(the name scikit-learn users know) and ``options`` the method's keyword
options, checked against the spec's :class:`Option` s. A plain function's
keyword defaults (``alpha=1.0``) are its options. The signature is checked
when the method is registered (:func:`checked_spec`), with one clear
:class:`~mlfs_core.errors.ConfigError` naming what is wrong. Internally the
engine calls ``rank(X, Y, k=k, rng=generator, **options)``: the built-in
methods take ``rng``, and a ``rank`` of your own is wrapped
(``_FunctionRank``). A ``rank`` of your own taking ``rng`` is refused at
registration, with a message saying to rename it ``random_state``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields

import numpy as np

from ..errors import ConfigError
from ..options import Option, resolve


@dataclass(frozen=True)
class Ranking:
    """Result of one ranking.

    Attributes
    ----------
    order : ndarray of shape (k,)
        Feature indices, best first.
    scores : ndarray of shape (n_features,)
        One score per feature, higher is better. For score-based methods
        (Max/Mean) the aggregated score; for order-only methods (RoR, RaR,
        greedy filters, Random) ``n_features - position`` for ranked features and
        0 for unranked ones, so ``scores`` always sorts like ``order``.
    label_scores : ndarray of shape (n_labels, n_features) or None
        Per-label scores where the method has them (CS/BNS family).
    criterion_path : ndarray of shape (k,) or None
        Greedy methods: the criterion value of each feature when it was selected.
    objective_path : ndarray of shape (n_iterations + 1,) or None
        Iterative methods (sparse regression): the objective at the starting
        point, then after each iteration.
    candidates : ndarray of shape (n_candidates,) or None
        Methods that weigh only a candidate set (GRRO above ``max_features``,
        FIMF with ``n_candidates``): those features, ascending; every other
        feature scores below all of them. None when every feature was weighed.
    """

    order: np.ndarray
    scores: np.ndarray
    label_scores: np.ndarray | None = None
    criterion_path: np.ndarray | None = None
    objective_path: np.ndarray | None = None
    candidates: np.ndarray | None = None


REFERENCE_KINDS = {
    "": "a method that selects features",
    "all": "keeps every feature (the no-selection baseline)",
    "random": "selects features at random",
}
"""The values of :attr:`MethodSpec.reference` and what each means."""

SCORE_KINDS = {
    "score": "a measure of each feature's strength, higher is better",
    "order": "only the position turned around: M for the first feature, M - 1 "
    "for the second and so on (ranks of ranks, a random draw, an order)",
}
"""The values of :attr:`MethodSpec.score_kind` and what each means."""


@dataclass(frozen=True)
class MethodSpec:
    """Metadata and implementation of one ranking method.

    Attributes
    ----------
    name : str
        Public name, e.g. ``"MaxCS"`` or ``"PMU"``.
    family : str
        The kind of method, a concept: ``"score-aggregation"`` (a score per
        label, then an aggregation), ``"information-theoretic"`` (greedy
        information-theoretic filters), ``"baseline"`` (Random, AF), ``"extra"``
        (more measures + aggregation: IG, OR, DF) or a family of your own
        (titles: :data:`~mlfs_core.selectors.FAMILIES`).
    rank : callable
        ``rank(X, Y, *, k, random_state, **options)`` for a method of your
        own (:func:`checked_spec` wraps it to be called the engine's way);
        the built-in methods' take the generator as ``rng``.
    stochastic : bool
        Whether the result depends on the random generator (RaR, Random).
    options : tuple of Option
        The keyword options ``rank`` accepts, with defaults and allowed values.
    description : str
        One sentence for the UI's About page.
    version : str
        Version of the implementation; change it when the method's results
        change. Part of the cache keys of methods that are not built in (with
        a digest of the file defining ``rank``), so cached values of an older
        version are never returned.
    family_label : str
        How the app titles the family, for a family of your own (the built-in
        families have their titles; default: the family name).
    reference : str
        ``""`` (default) for a method that selects, or the kind of baseline it
        is: ``"all"`` keeps every feature (a results table holds it once, at
        100 %; the analyses set it beside every budget as a flat reference and
        it has no subset of a smaller budget), ``"random"`` selects at random
        (the Metric vs budget page offers to draw it as a flat reference line).
        See :data:`REFERENCE_KINDS`.
    default_for : tuple of str
        The places where the app picks the method before the user does (none
        by default): ``"experiment-<protocol>"`` (e.g. ``"experiment-A"``: the
        Experiment form's methods for that protocol), ``"control"`` (the
        control method of the post-hoc tests: the first such method in
        registry order among those compared) and ``"learn"`` (the Learn page's
        method at first). Any other string is allowed and ignored by the app.
    formula : str
        The method's criterion in the plain notation of the Learn pages, e.g.
        ``"I(f_P; Y_P)"`` for a greedy filter's J(f | S) ("" if it has none).
        The Learn page "A greedy step" offers the methods that have one.
    stepwise : bool
        Whether the method picks its features one at a time, each step
        depending on those already picked (the greedy filters): asking for
        the top ``k`` then costs ``k`` steps, so the app ranks only the
        features it shows and ranks them all on request. Default False.
    score_kind : str
        What the ranking's scores are: ``"score"`` (a strength, higher is
        better; the default of a :class:`MethodSpec`) or ``"order"`` (only the
        position turned around; the default of a plain function, see
        :func:`spec_from_function`). The app draws no score chart for an
        order. See :data:`SCORE_KINDS`.
    citation : str
        The method's source publication: authors, year, short title, e.g.
        ``"Lee and Kim (2013), Feature selection for multi-label classification
        using multivariate mutual information"`` ("" if none). Shown by the
        app's About page and method pickers.
    """

    name: str
    family: str
    rank: Callable[..., Ranking]
    stochastic: bool = False
    options: tuple[Option, ...] = ()
    description: str = ""
    version: str = ""
    family_label: str = ""
    reference: str = ""
    default_for: tuple[str, ...] = ()
    formula: str = ""
    stepwise: bool = False
    score_kind: str = "score"
    citation: str = ""

    def __post_init__(self):
        if self.score_kind not in SCORE_KINDS:
            raise ConfigError(
                f"method {self.name!r}: score_kind must be one of "
                f"{sorted(SCORE_KINDS)}, got {self.score_kind!r}"
            )
        if self.reference not in REFERENCE_KINDS:
            raise ConfigError(
                f"method {self.name!r}: reference must be one of "
                f"{sorted(REFERENCE_KINDS)}, got {self.reference!r}"
            )
        places = self.default_for
        if isinstance(places, str) or not all(isinstance(p, str) for p in places):
            raise ConfigError(
                f"method {self.name!r}: default_for must be a tuple of strings, "
                f"got {places!r}"
            )
        object.__setattr__(self, "default_for", tuple(places))

    @property
    def defaults(self) -> dict[str, object]:
        """Option name -> default value (a fresh dict)."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        """The option called ``name`` (ConfigError naming the allowed ones)."""
        found = {o.name: o for o in self.options}
        if name not in found:  # refused, naming the allowed ones
            resolve(self.options, {name: None}, owner=self._owner)
        return found[name]

    def resolve(self, params: Mapping[str, object]) -> dict[str, object]:
        """Defaults updated with ``params``, each value checked
        (:func:`mlfs_core.options.resolve`).

        Raises
        ------
        ConfigError
            Naming every unknown option (with the allowed ones) and every
            value outside an option's choices or range.
        """
        return resolve(self.options, params, owner=self._owner)

    @property
    def _owner(self) -> str:
        return f"method {self.name!r}: "


class _FunctionRank:
    """A plain ``rank(X, Y, *, k, random_state, **options)`` as a spec's ``rank``.

    The function may return an order (feature indices, best first), a pair
    ``(order, scores)``, or a :class:`Ranking`; :func:`~._result.checked_ranking`
    turns it into a checked :class:`Ranking`. Picklable when the function is.
    """

    def __init__(self, function: Callable):
        self.function = function

    def __call__(self, X, Y, *, k, rng, **params):
        return self.function(X, Y, k=k, random_state=rng, **params)

    def __eq__(self, other):
        return isinstance(other, _FunctionRank) and other.function is self.function

    def __hash__(self):
        return hash(self.function)


_STATE = "random_state"
"""The name of the random state a method of your own takes."""
_OLD_STATE = "rng"
_OPTION_TYPES = (bool, int, float, str)


def _parameters(function) -> Mapping[str, inspect.Parameter] | None:
    try:
        return inspect.signature(function).parameters
    except (TypeError, ValueError):  # a builtin or C callable: not checkable
        return None


def _shown(function) -> str:
    name = getattr(function, "__name__", type(function).__name__)
    try:
        return f"{name}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return name


def _accepts(params: Mapping[str, inspect.Parameter], name: str) -> bool:
    p = params.get(name)
    if p is not None:
        return p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    return any(q.kind is q.VAR_KEYWORD for q in params.values())


def _check_call(name: str, function, params, options: tuple[Option, ...]) -> None:
    """Refuse a ``rank`` that cannot be called as
    ``rank(X, Y, *, k, random_state, **options)``, naming what is wrong."""
    shown = _shown(function)
    expected = f"rank(X, Y, *, k, {_STATE}, **options)"
    positional = [
        p
        for p in params.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    var_positional = any(p.kind is p.VAR_POSITIONAL for p in params.values())
    if len(positional) < 2 and not var_positional:
        raise ConfigError(
            f"method {name!r}: {shown} must take X and Y first; the signature "
            f"is {expected}"
        )
    problems = _call_problems(params, options)
    if problems:
        raise ConfigError(
            f"method {name!r}: {shown} cannot be called as {expected}: "
            + "; ".join(problems)
        )


def _call_problems(params, options: tuple[Option, ...]) -> list[str]:
    """The keywords ``rank`` must take and does not (``k``, the random state,
    the options)."""
    problems = []
    if not _accepts(params, "k"):
        problems.append("it takes no keyword k")
    if _OLD_STATE in params and _STATE not in params:
        problems.append(
            f"it takes {_OLD_STATE}: rename {_OLD_STATE} to {_STATE} (the name "
            "scikit-learn uses)"
        )
    elif not _accepts(params, _STATE):
        problems.append(f"it takes no {_STATE}")
    wanted = [o.name for o in options if not _accepts(params, o.name)]
    if wanted:
        problems.append(f"it takes no keyword {', '.join(wanted)} (an option)")
    return problems


def _options_from_defaults(name: str, function, params) -> list[Option]:
    """The keyword defaults of a ranking function, as its options."""
    found = []
    skipped = 2  # X, Y
    for p in params.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.kind is not p.KEYWORD_ONLY and skipped:
            skipped -= 1
            continue
        if p.name in ("k", _STATE):
            continue
        if p.default is p.empty:
            raise ConfigError(
                f"method {name!r}: parameter {p.name!r} of {_shown(function)} has "
                "no default; give it one (keyword defaults are the method's "
                "options) or remove it"
            )
        if not isinstance(p.default, _OPTION_TYPES):
            raise ConfigError(
                f"method {name!r}: option {p.name!r} defaults to {p.default!r}; an "
                "option's default must be a bool, int, float or str"
            )
        found.append(Option(p.name, p.default))
    return found


_FUNCTION_DEFAULTS = {"family": "user", "score_kind": "order"}
"""The :class:`MethodSpec` fields a plain function gets unless given: its family
is ``"user"``, and its scores are read as an order (a plain function most often
returns an order alone; pass ``score_kind="score"`` when its scores measure
strength). Its description defaults to the first line of its docstring."""


def spec_from_function(
    function: Callable,
    *,
    name: str | None = None,
    options: tuple[Option, ...] = (),
    **fields,
) -> MethodSpec:
    """A :class:`MethodSpec` around a plain ranking function.

    Parameters
    ----------
    function : callable
        ``function(X, Y, *, k, random_state, **options)`` returning an order,
        ``(order, scores)`` or a :class:`Ranking`; ``random_state`` is a
        :class:`numpy.random.Generator`. Its keyword defaults (``alpha=1.0``)
        become its options (typed by the default).
    name : str, optional
        Default: the function's ``__name__``.
    options : tuple of Option
        Options that replace the inferred ones of the same name (to add
        choices or bounds).
    **fields
        Any other field of :class:`MethodSpec` (``family``, ``stochastic``,
        ``description``, ``version``, ``family_label``, ``reference``,
        ``default_for``, ``formula``, ``stepwise``, ``score_kind``,
        ``citation``); those not given take ``family="user"`` and
        ``score_kind="order"`` (``_FUNCTION_DEFAULTS``), then
        the :class:`MethodSpec` defaults.

    Raises
    ------
    ConfigError
        If the signature is not ``(X, Y, *, k, random_state, **options)``
        (the message shows the function's signature and what is missing), a
        keyword parameter has no default or a default that is not a bool,
        int, float or str, or a field is not one of :class:`MethodSpec`'s.

    Examples
    --------
    >>> def Fisher(X, Y, *, k, random_state, alpha=1.0):
    ...     return list(range(k))
    >>> [o.describe() for o in spec_from_function(Fisher).options]
    ['alpha=1.0 (float)']
    >>> def Old(X, Y, *, k, rng):
    ...     return list(range(k))
    >>> spec_from_function(Old)
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: method 'Old': Old(X, Y, *, k, rng) cannot be \
called as rank(X, Y, *, k, random_state, **options): it takes rng: rename \
rng to random_state (the name scikit-learn uses)
    """
    if not callable(function):
        raise ConfigError(
            f"a method must be a MethodSpec or a function, got {function!r}"
        )
    name = name or getattr(function, "__name__", None)
    if not name or name == "<lambda>":
        raise ConfigError("a method made from a function needs a name (name=...)")
    options = tuple(options)
    params = _parameters(function)
    if params is not None:
        _check_call(name, function, params, options)
        given = {o.name for o in options}
        inferred = _options_from_defaults(name, function, params)
        options = (*options, *(o for o in inferred if o.name not in given))
    values = {**_FUNCTION_DEFAULTS, **_known_fields(name, fields)}
    values["description"] = (
        values.get("description") or ((function.__doc__ or "").strip().split("\n")[0])
    )
    values["version"] = str(values.get("version", ""))
    return MethodSpec(
        name=name, rank=_FunctionRank(function), options=options, **values
    )


def _known_fields(name: str, fields: dict) -> dict:
    """``fields`` if each is a field of :class:`MethodSpec` a function may set."""
    allowed = [
        f.name
        for f in dataclass_fields(MethodSpec)
        if f.name not in ("name", "rank", "options")
    ]
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise ConfigError(
            f"method {name!r}: unknown field(s) {unknown}; allowed: "
            + ", ".join(allowed)
        )
    return fields


def checked_spec(spec: MethodSpec) -> MethodSpec:
    """A :class:`MethodSpec` of your own, its ``rank`` checked for registration.

    ``rank`` must be ``rank(X, Y, *, k, random_state, **options)`` accepting
    every one of the spec's options; it is then wrapped to be called the
    engine's way. A callable whose signature cannot be read is kept as it
    is.

    Raises
    ------
    ConfigError
        Naming the method, its signature and what is missing; a ``rank``
        taking ``rng`` is told to rename it ``random_state``.
    """
    function = spec.rank
    if isinstance(function, _FunctionRank):
        return spec  # made by spec_from_function: checked there
    params = _parameters(function)
    if params is None:
        return spec
    _check_call(spec.name, function, params, spec.options)
    return replace(spec, rank=_FunctionRank(function))
