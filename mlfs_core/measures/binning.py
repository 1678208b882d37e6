"""Discretization strategies: how bin edges are learned, a public extension point.

A *strategy* is what the ``discretize`` option of the information-theoretic
methods names (:mod:`mlfs_core.selectors.greedy`, GRRO): a rule that learns
per-feature inner bin edges from training values, and optionally a map of
the values applied before they are compared with the edges. The
:class:`~mlfs_core.measures.discretize.Discretizer` codes a value as the
number of inner edges it reaches (a value equal to an edge goes to the upper
bin), so a strategy never writes codes itself and every strategy runs on
sparse data without densifying it.

The engine ships three (:data:`BUILT_IN`):

* ``"uniform"``: equal-width edges, ``linspace(min, max, bins + 1)``
  (:func:`uniform_edges`);
* ``"quantile"``: equal-frequency edges (:func:`quantile_edges`);
* ``"binary"``: present/absent, the values mapped to ``value != 0`` and one
  edge at 0.5 (``bins`` is ignored).

A package adds its own with :func:`register_binning` (plug-ins register when
loaded, :mod:`mlfs_core.plugins`); a name the engine does not know loads the
installed plug-ins once before it is refused. The cache key of a task that
uses a registered strategy holds the code identity of its functions
(:func:`binning_identity`), so editing them never returns stale selections.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .. import plugins
from .._code import on_unknown_name, source_digest
from ..errors import ConfigError
from ..options import Option

__all__ = [
    "BUILT_IN",
    "BinningNames",
    "BinningStrategy",
    "binning_identity",
    "binning_names",
    "binning_option",
    "binning_strategy",
    "quantile_edges",
    "register_binning",
    "uniform_edges",
    "unregister_binning",
]

BUILT_IN = ("uniform", "quantile", "binary")
"""The strategies the engine ships, in order."""

# scikit-learn removes quantile bins narrower than this.
_MIN_WIDTH = 1.0e-8


@dataclass(frozen=True)
class BinningStrategy:
    """One registered discretization strategy.

    Attributes
    ----------
    name : str
        The value of a ``discretize`` option that selects it.
    edges : callable
        ``edges(X, bins) -> ndarray of shape (n_features, n_inner)``: the
        inner edges of each feature, learned from the training values ``X``
        (a float64 ndarray or csc_matrix), non-decreasing along each row,
        padded with ``+inf`` where a feature has fewer bins (a constant
        feature: only ``+inf``, every value in bin 0).
    values : callable or None
        ``values(array) -> array``: an elementwise map applied to every value
        (the implicit zeros of sparse data included) before it is compared
        with the edges; None keeps the values.
    description : str
        One sentence for ``mlfs methods`` and the app.
    """

    name: str
    edges: Callable[[np.ndarray | sp.csc_matrix, int], np.ndarray]
    values: Callable[[np.ndarray], np.ndarray] | None = None
    description: str = ""


def _column_min_max(X: np.ndarray | sp.csc_matrix) -> tuple[np.ndarray, np.ndarray]:
    if sp.issparse(X):
        # scipy counts the implicit zeros, as the dense values would.
        return X.min(axis=0).toarray().ravel(), X.max(axis=0).toarray().ravel()
    return X.min(axis=0), X.max(axis=0)


def uniform_edges(X: np.ndarray | sp.csc_matrix, bins: int) -> np.ndarray:
    """Equal-width inner edges: ``linspace(min, max, bins + 1)[1:-1]`` per feature.

    This is scikit-learn's ``KBinsDiscretizer(strategy="uniform")``; a
    constant feature gets only ``+inf``.

    Examples
    --------
    >>> uniform_edges(np.array([[0.0, 1.0], [3.0, 1.0]]), 3).tolist()
    [[1.0, 2.0], [inf, inf]]
    """
    lo, hi = _column_min_max(X)
    # linspace with array end points is elementwise the scalar linspace.
    edges = np.linspace(lo, hi, bins + 1, axis=1)
    inner = edges[:, 1:-1].copy()
    inner[lo == hi] = np.inf  # constant feature: every value in bin 0
    return inner


def quantile_edges(X: np.ndarray | sp.csc_matrix, bins: int) -> np.ndarray:
    """Equal-frequency inner edges at the quantiles of each feature.

    numpy's ``"averaged_inverted_cdf"`` percentiles (the default of
    scikit-learn 1.9's ``KBinsDiscretizer(strategy="quantile")``); bins
    narrower than 1e-8 are removed and the row padded with ``+inf``.

    Examples
    --------
    >>> quantile_edges(np.array([[0.0], [1.0], [2.0], [3.0]]), 2).tolist()
    [[1.5]]
    """
    levels = np.linspace(0, 100, bins + 1)
    inner = np.full((X.shape[1], bins - 1), np.inf)
    for j in range(X.shape[1]):  # one column at a time: a sparse X stays sparse
        column = X[:, [j]].toarray().ravel() if sp.issparse(X) else X[:, j]
        if column.min() == column.max():
            continue
        edges = np.percentile(column, levels, method="averaged_inverted_cdf")
        keep = np.ediff1d(edges, to_begin=np.inf) > _MIN_WIDTH
        kept = edges[keep][1:-1]
        inner[j, : kept.size] = kept
    return inner


def _presence_edges(X: np.ndarray | sp.csc_matrix, bins: int) -> np.ndarray:
    """One edge at 0.5 per feature, for values mapped to 0 (absent) or 1."""
    return np.full((X.shape[1], 1), 0.5)


def _presence(values: np.ndarray) -> np.ndarray:
    """1.0 where a value is non-zero (present), else 0.0."""
    return (values != 0).astype(np.float64)


_STRATEGIES: dict[str, BinningStrategy] = {
    "uniform": BinningStrategy("uniform", uniform_edges, None, "Equal-width bins."),
    "quantile": BinningStrategy(
        "quantile", quantile_edges, None, "Equal-frequency bins."
    ),
    "binary": BinningStrategy(
        "binary", _presence_edges, _presence, "Present (non-zero) or absent."
    ),
}


def register_binning(
    name: str,
    edges: Callable,
    *,
    values: Callable | None = None,
    description: str = "",
) -> BinningStrategy:
    """Add a discretization strategy, selected by ``discretize=name``.

    Parameters
    ----------
    name : str
        A new name (not one of :func:`binning_names`).
    edges : callable
        ``edges(X, bins)``: the inner edges (see :class:`BinningStrategy`).
    values : callable, optional
        An elementwise map of the values before binning.
    description : str, optional
        One sentence: what the strategy does.

    Returns
    -------
    BinningStrategy
        What was registered.

    Raises
    ------
    ConfigError
        For an empty or taken name, or ``edges``/``values`` not callable;
        nothing is registered.

    Examples
    --------
    >>> s = register_binning("uniform-shifted", uniform_edges, values=lambda v: v + 0.1)
    >>> "uniform-shifted" in binning_names()
    True
    >>> unregister_binning("uniform-shifted")
    """
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a strategy's name must be non-empty text, got {name!r}")
    if name in _STRATEGIES:
        raise ConfigError(
            f"a discretization strategy called {name!r} exists; choose another "
            "name (or unregister_binning() yours first)"
        )
    for what, function in (("edges", edges), ("values", values)):
        if function is not None and not callable(function):
            raise ConfigError(
                f"strategy {name!r}: {what} must be a function, "
                f"got {type(function).__name__}"
            )
    if edges is None:
        raise ConfigError(f"strategy {name!r}: edges must be a function, got None")
    strategy = BinningStrategy(name, edges, values, str(description))
    _STRATEGIES[name] = strategy
    return strategy


def unregister_binning(name: str) -> None:
    """Remove a strategy added by :func:`register_binning` (never a built-in)."""
    if name in BUILT_IN:
        raise ConfigError(f"{name!r} is built in and cannot be unregistered")
    if name not in _STRATEGIES:
        raise ConfigError(f"no registered discretization strategy {name!r}")
    del _STRATEGIES[name]


def binning_names() -> tuple[str, ...]:
    """The built-in strategies, then the registered ones, in order.

    Examples
    --------
    >>> binning_names()[:3]
    ('uniform', 'quantile', 'binary')
    """
    return tuple(_STRATEGIES)


def binning_strategy(name: object) -> BinningStrategy:
    """The strategy called ``name``, loading the installed plug-ins once if unknown.

    Raises
    ------
    ConfigError
        ``discretize must be one of ...`` naming the value and the known names.
    """
    if not isinstance(name, str) or name not in _STRATEGIES:
        on_unknown_name()  # an installed plug-in may register it
    if isinstance(name, str) and name in _STRATEGIES:
        return _STRATEGIES[name]
    raise ConfigError(
        f"discretize must be one of {', '.join(binning_names())}; got {name!r}"
    )


def _callable_identity(function) -> str | None:
    """The engine's functions by name, others by name and code identity."""
    if function is None:
        return None
    module = getattr(function, "__module__", "") or ""
    name = getattr(function, "__qualname__", repr(function))
    if module == "mlfs_core" or module.startswith("mlfs_core."):
        return f"{module}.{name}"
    return f"{module}.{name}:{source_digest(function)}"


def binning_identity(name: object) -> dict | None:
    """The part of a task's cache key that identifies a registered strategy.

    None for a built-in strategy (the engine's cache version covers it), for
    anything that is not text and for a name no strategy has (a plug-in
    method's own ``discretize`` option may mean something else); for a
    registered one its name and the
    identity of its ``edges`` and ``values`` functions (their code's SHA-256
    where they are defined outside the engine).

    Examples
    --------
    >>> binning_identity("uniform") is None
    True
    """
    if not isinstance(name, str) or name in BUILT_IN:
        return None
    try:
        strategy = binning_strategy(name)
    except ConfigError:  # a plug-in method's own ``discretize`` value
        return None
    return {
        "binning": name,
        "edges": _callable_identity(strategy.edges),
        "values": _callable_identity(strategy.values),
    }


class BinningNames(Sequence):
    """The strategy names registered now (a live view, for an option's choices)."""

    def __getitem__(self, index):
        return binning_names()[index]

    def __len__(self) -> int:
        return len(_STRATEGIES)

    def __eq__(self, other) -> bool:
        if isinstance(other, BinningNames | tuple | list):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(BinningNames)

    def __repr__(self) -> str:
        return repr(binning_names())


class _BinningOption(Option):
    """A ``discretize`` option: its choices are the strategies registered now."""

    def check(self, value: object) -> object:
        """``value`` if it names a registered strategy."""
        binning_strategy(value)
        return value


def binning_option(default: str = "uniform", help: str = "") -> Option:
    """A method's ``discretize`` option over the registered strategies.

    Examples
    --------
    >>> binning_option().describe().split(" (")[0]
    'discretize=uniform'
    """
    return _BinningOption(
        "discretize",
        default,
        choices=BinningNames(),
        help=help or "How bin edges are learned: a registered strategy.",
    )


def _unregister(name: str) -> None:
    unregister_binning(name)


def _restore(name: str, strategy: BinningStrategy) -> None:
    """Register ``strategy`` again in a worker process (:mod:`mlfs_core.plugins`)."""
    register_binning(
        name, strategy.edges, values=strategy.values, description=strategy.description
    )


plugins.add_registry(
    plugins.Registry(
        "binnings",
        _STRATEGIES,
        frozenset(BUILT_IN),
        _unregister,
        export=_STRATEGIES.__getitem__,
        restore=_restore,
    )
)
