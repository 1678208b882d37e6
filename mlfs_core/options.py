"""One validation vocabulary: :class:`Option`, a named value with its type and range.

Methods declare their keyword options with it (``MethodSpec.options``), and the
experiment protocol declares its scalar settings with it
(:data:`mlfs_core.evaluation.config.PROTOCOL_OPTIONS`); both are checked by
:meth:`Option.check`, and :func:`check_all` reports every problem of a set of
values in one :class:`~mlfs_core.errors.ConfigError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from ._validation import check_int
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
        Inclusive bounds of a numeric option.
    help : str
        One sentence for the UI and ``mlfs methods``.

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

    def __post_init__(self) -> None:
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
            if self.low is not None and self.high is not None:
                bounds = [f"in [{self.low:g}, {self.high:g}]"]
            else:
                bounds = [f">= {self.low:g}"] if self.low is not None else []
                bounds += [f"<= {self.high:g}"] if self.high is not None else []
            allowed = " ".join([self.kind.__name__, *bounds])
        return f"{self.name}={self.default} ({allowed})"

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
            return check_int(value, self.name, low=self.low, high=self.high)
        if isinstance(self.default, float):
            return self._check_float(value)
        if not isinstance(value, str):
            raise ConfigError(f"{self.name} must be text, got {value!r}")
        return value

    def _check_float(self, value: object) -> float:
        ok = isinstance(value, (int, float, np.integer, np.floating)) and not (
            isinstance(value, (bool, np.bool_))
        )
        if (
            not ok
            or not np.isfinite(value)
            or (self.low is not None and value < self.low)
            or (self.high is not None and value > self.high)
        ):
            bounds = f" in [{self.low}, {self.high}]" if self.low is not None else ""
            raise ConfigError(f"{self.name} must be a number{bounds}, got {value!r}")
        return float(value)


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
