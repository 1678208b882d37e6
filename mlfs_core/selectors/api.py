"""The public ranking entry point :func:`rank_features`."""

from __future__ import annotations

import numpy as np

from .._code import blame
from .._random import check_rng
from .._validation import check_k, check_XY
from ._registry import MethodSpec, Ranking, as_spec, is_built_in
from ._result import checked_ranking


def run_method(spec: MethodSpec, X, Y, *, k: int, rng, options: dict) -> Ranking:
    """Call ``spec.rank`` on validated data and check what it returns.

    The one place where a method's output enters the engine (ranking
    functions, the selector, the experiment runner): see
    :func:`~._result.checked_ranking` for the rules.
    """
    if is_built_in(spec.name):
        out = spec.rank(X, Y, k=k, rng=rng, **options)
    else:  # a user's method is named, with its file and line, if it raises
        with blame("method", spec.name):
            out = spec.rank(X, Y, k=k, rng=rng, **options)
    return checked_ranking(spec.name, out, X.shape[1], k)


def compute_ranking(
    X, Y, method: str, *, k=None, random_state=None, **params
) -> Ranking:
    """Rank features with a method and return the full :class:`Ranking`.

    Same parameters as :func:`rank_features`; also returns scores, per-label
    scores and the greedy criterion path where the method has them.
    """
    spec = as_spec(method)
    X, Y = check_XY(X, Y)
    k = check_k(k, X.shape[1])
    options = spec.resolve(params)
    return run_method(spec, X, Y, k=k, rng=check_rng(random_state), options=options)


def rank_features(
    X, Y, method: str, *, k=None, random_state=None, **params
) -> np.ndarray:
    """Rank the features of ``X`` for the labels ``Y`` with a named method.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Feature values; a feature is *present* in a sample when non-zero.
    Y : array-like of shape (n_samples, n_labels)
        Binary label indicator matrix.
    method : str, MethodSpec or callable
        A registered name, e.g. ``"MaxCS"``, ``"RaRBNS"``, ``"PMU"``, ``"Random"``
        (:func:`mlfs_core.list_methods` lists them), a :class:`MethodSpec`, or
        a plain function ``rank(X, Y, *, k, random_state, **options)``
        returning an order (see :func:`mlfs_core.selectors.register`).
    k : int, optional
        Number of features to return (default all). ``k > n_features`` raises.
    random_state : int, numpy.random.Generator or None
        Seed for stochastic methods (RaR, Random); ignored by deterministic ones.
    **params
        Method options (e.g. ``weighting="inverse"`` for RaR, ``bins=3`` for
        the information-theoretic methods; ``mlfs_core.get_method(method).options``
        lists them with their allowed values). Unknown names and values outside
        an option's choices or range raise :class:`~mlfs_core.ConfigError`.

    Returns
    -------
    ndarray of shape (k,)
        Feature indices, best first.

    Raises
    ------
    ConfigError
        Bad parameters (unknown option, value out of range).
    RankingError
        A method whose output breaks a rule (duplicate or out-of-range
        indices, wrong length, non-finite scores); the message names the
        method and the rule.
    UserCodeError
        A method that is not built in raised; the message names it, its file
        and line and the exception.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 1], [0, 1, 0]])
    >>> Y = np.array([[1], [1], [0], [0]])
    >>> rank_features(X, Y, "MaxCS").tolist()
    [0, 1, 2]
    """
    return compute_ranking(X, Y, method, k=k, random_state=random_state, **params).order
