"""One validation vocabulary: :class:`Option`, a parameter's default and its constraint.

Every parameter the engine takes from a user is stated the same way, as in
scikit-learn's ``_parameter_constraints``, with the default beside the
constraint: a method's keyword options (``MethodSpec.options``), a
classifier's parameters (``register_classifier(parameters=...)``) and the
experiment protocol's settings
(:data:`mlfs_core.evaluation.config.PROTOCOL_OPTIONS`). An :class:`Option`
allows a type (that of its default: bool, int, float or text), a range with
closed or open ends, or a set of choices. :func:`resolve` is the one factory
that turns given values into a complete, checked dict (defaults filled,
unknown names refused); :func:`check_all` checks given values only. Both name
every problem at once in one :class:`~mlfs_core.errors.ConfigError`: the
parameter, what is allowed and the value given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from ._validation import check_int, check_int64, is_int
from .errors import ConfigError


@dataclass(frozen=True)
class Option:
    """One keyword option of a method: its default and what values it allows.

    The type of ``default`` (bool, int, float or str) is the option's type.

    Attributes
    ----------
    name : str
        Keyword name, e.g. ``"bins"``.
    default : bool, int, float or str
        Value used when the option is not given.
    choices : tuple of str, optional
        The allowed values of a text option.
    low, high : int or float, optional
        Bounds of a numeric option.
    help : str
        One sentence for the UI and ``mlfs methods``.
    closed : {"both", "left", "right", "neither"}, default="both"
        Which bounds are allowed values themselves: ``"neither"`` for an open
        range such as a fraction in (0, 1).

    Examples
    --------
    >>> Option("bins", 3, low=2).check(5)
    5
    >>> Option("weighting", "inverse", choices=("inverse", "uniform")).check("x")
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: weighting must be one of inverse, uniform; got 'x'
    """

    name: str
    default: bool | int | float | str
    choices: tuple[str, ...] | None = None
    low: float | None = None
    high: float | None = None
    help: str = ""
    closed: str = "both"

    def __post_init__(self) -> None:
        if self.closed not in CLOSED:
            raise ConfigError(
                f"option {self.name!r}: closed must be one of {list(CLOSED)}, "
                f"got {self.closed!r}"
            )
        self.check(self.default)  # a spec with an invalid default is a bug

    def describe(self) -> str:
        """``name=default`` and what is allowed, for ``mlfs methods`` and the app.

        Examples
        --------
        >>> Option("bins", 3, low=2).describe()
        'bins=3 (int >= 2)'
        >>> Option("bins", 3, low=2, high=1000).describe()
        'bins=3 (int in [2, 1000])'
        >>> Option("weighting", "inverse", choices=("inverse", "uniform")).describe()
        'weighting=inverse (inverse|uniform)'
        """
        if self.choices is not None:
            allowed = "|".join(self.choices)
        elif self.kind is bool:
            allowed = "True|False"
        else:
            allowed = " ".join(filter(None, [self.kind.__name__, self.range_text()]))
        return f"{self.name}={self.default} ({allowed})"

    def range_text(self) -> str:
        """The allowed range in words: ``"in [2, 1000]"``, ``">= 0"``, ``"in (0, 1)"``.

        Examples
        --------
        >>> Option("test_size", 0.4, low=0.0, high=1.0, closed="neither").range_text()
        'in (0, 1)'
        >>> Option("s", 1.0, low=0.0).range_text()
        '>= 0'
        """
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        if self.low is not None and self.high is not None:
            return (
                f"in {'[' if left else '('}{self.low:g}, {self.high:g}"
                f"{']' if right else ')'}"
            )
        if self.low is not None:
            return f"{'>=' if left else '>'} {self.low:g}"
        if self.high is not None:
            return f"{'<=' if right else '<'} {self.high:g}"
        return ""

    def _in_range(self, value) -> bool:
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        below = self.low is not None and (
            value < self.low or (not left and value == self.low)
        )
        above = self.high is not None and (
            value > self.high or (not right and value == self.high)
        )
        return not (below or above)

    @property
    def kind(self) -> type:
        """``bool``, ``int``, ``float`` or ``str``: the type of the default."""
        return type(self.default)

    def check(self, value: object) -> object:
        """``value`` as the option's type if allowed; else raise ConfigError."""
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise ConfigError(
                    f"{self.name} must be one of {allowed}; got {value!r}"
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, (bool, np.bool_)):
                raise ConfigError(f"{self.name} must be True or False, got {value!r}")
            return bool(value)
        if isinstance(self.default, int):
            if self.closed == "both":
                return check_int(value, self.name, low=self.low, high=self.high)
            if not is_int(value) or not self._in_range(value):
                wanted = " ".join(filter(None, ["an int", self.range_text()]))
                raise ConfigError(f"{self.name} must be {wanted}, got {value!r}")
            return check_int64(value, self.name)
        if isinstance(self.default, float):
            return self._check_float(value)
        if not isinstance(value, str):
            raise ConfigError(f"{self.name} must be text, got {value!r}")
        return value

    def parse(self, text: str) -> object:
        """``text`` (from a command line) as the option's type, then checked.

        A bool option takes ``true``/``false``, ``yes``/``no``, ``1``/``0``
        (any case); an int option an integer (``"2.5"`` is refused); a float
        option any number; a text option the text as it is. A text that is
        not of the type is refused by :meth:`check` as given.

        Examples
        --------
        >>> Option("bins", 3, low=2).parse("5"), Option("a", 1.0).parse("2")
        (5, 2.0)
        >>> Option("fast", False).parse("Yes")
        True
        >>> Option("bins", 3, low=2).parse("2.5")
        Traceback (most recent call last):
        ...
        mlfs_core.errors.ConfigError: bins must be an int >= 2, got '2.5'
        """
        return self.check(_typed(text, self.kind) if self.choices is None else text)

    def _check_float(self, value: object) -> float:
        ok = isinstance(value, (int, float, np.integer, np.floating)) and not (
            isinstance(value, (bool, np.bool_))
        )
        if not ok or not np.isfinite(value) or not self._in_range(value):
            wanted = " ".join(filter(None, ["a number", self.range_text()]))
            raise ConfigError(f"{self.name} must be {wanted}, got {value!r}")
        return float(value)


_BOOL_WORDS = {"true": True, "yes": True, "1": True}
_BOOL_WORDS.update({"false": False, "no": False, "0": False})


def _typed(text: str, kind: type) -> object:
    """``text`` as ``kind`` (bool, int, float or str), else ``text`` itself."""
    if kind is bool:
        return _BOOL_WORDS.get(text.strip().lower(), text)
    converters = {int: int, float: float}
    if kind not in converters:
        return text
    try:
        return converters[kind](text.strip())
    except ValueError:
        return text


def parse_params(options: Iterable[Option], given: Mapping[str, str]) -> dict:
    """Command-line texts (``NAME=VALUE``'s values) as their options' types.

    Parameters
    ----------
    options : iterable of Option
        The declared options.
    given : mapping of str to str
        Name -> text.

    Returns
    -------
    dict
        Name -> value as the option's type (:meth:`Option.parse`'s rules,
        unchecked); a name no option has keeps its text, so that
        :func:`resolve` reports it with the allowed names.

    Examples
    --------
    >>> parse_params([Option("bins", 3, low=2), Option("fast", False)],
    ...              {"bins": "4", "fast": "no", "x": "1"})
    {'bins': 4, 'fast': False, 'x': '1'}
    """
    found = {o.name: o for o in options}
    return {
        name: text
        if name not in found or found[name].choices is not None
        else _typed(text, found[name].kind)
        for name, text in given.items()
    }


CLOSED = ("both", "left", "right", "neither")
"""The values of :attr:`Option.closed`."""


def check_all(options: Iterable[Option], values: Mapping, *, prefix: str = "") -> dict:
    """Check every value against its option; report all problems at once.

    Parameters
    ----------
    options : iterable of Option
    values : mapping
        Option name -> value; options missing from it are skipped.
    prefix : str
        Put before each name in the message (e.g. ``"protocol."``).

    Returns
    -------
    dict
        Option name -> checked value (as the option's type).

    Raises
    ------
    ConfigError
        One message naming every value that is not allowed.

    Examples
    --------
    >>> opts = [Option("bins", 3, low=2), Option("split", "cv", choices=("cv",))]
    >>> check_all(opts, {"bins": 4, "split": "cv"})
    {'bins': 4, 'split': 'cv'}
    >>> try:
    ...     check_all(opts, {"bins": 1, "split": "x"}, prefix="p.")
    ... except ConfigError as exc:
    ...     print(exc)
    p.bins must be an int >= 2, got 1; p.split must be one of cv; got 'x'
    """
    out, problems = {}, []
    for option in options:
        if option.name not in values:
            continue
        try:
            out[option.name] = option.check(values[option.name])
        except ConfigError as exc:
            problems.append(prefix + str(exc))
    if problems:
        raise ConfigError("; ".join(problems))
    return out


def resolve(
    options: Iterable[Option | str], given: Mapping, *, owner: str = ""
) -> dict:
    """The complete, checked values of ``options``: the one factory of a parameter set.

    Parameters
    ----------
    options : iterable of Option or str
        The declared parameters, in order. A name alone declares a parameter
        that is allowed and passed on unchecked, without a default (the code
        it goes to checks it, as a scikit-learn estimator does its own).
    given : mapping
        Name -> value given by the user; the others take their defaults.
    owner : str
        Put before each problem (e.g. ``"method 'PMU': "``).

    Returns
    -------
    dict
        Each option's name -> its checked value (as the option's type) or
        its default, in declaration order; a name alone only when given.

    Raises
    ------
    ConfigError
        One message naming every unknown name (with the allowed ones) and
        every value that is not allowed.

    Examples
    --------
    >>> opts = [Option("bins", 3, low=2), Option("split", "cv", choices=("cv",))]
    >>> resolve(opts, {"bins": 4})
    {'bins': 4, 'split': 'cv'}
    >>> try:
    ...     resolve(opts, {"bins": 1, "folds": 3}, owner="p: ")
    ... except ConfigError as exc:
    ...     print(exc)
    p: unknown parameter(s) ['folds']; allowed: bins, split; p: bins must be an int >= 2, got 1
    """  # noqa: E501
    options = tuple(options)
    names = [o if isinstance(o, str) else o.name for o in options]
    problems = []
    unknown = sorted(set(given) - set(names))
    if unknown:
        allowed = ", ".join(names) or "none"
        problems.append(f"{owner}unknown parameter(s) {unknown}; allowed: {allowed}")
    typed = [o for o in options if isinstance(o, Option)]
    try:
        checked = check_all(typed, given, prefix=owner)
    except ConfigError as exc:
        problems.append(str(exc))
    if problems:
        raise ConfigError("; ".join(problems))
    out = {}
    for option in options:
        if isinstance(option, str):
            if option in given:
                out[option] = given[option]
        else:
            out[option.name] = checked.get(option.name, option.default)
    return out
