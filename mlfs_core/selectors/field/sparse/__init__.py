"""Sparse-regression methods: RFS, LLSF, MIFS (family ``"sparse-regression"``).

Each learns a coefficient matrix ``W`` (features x outputs) under a penalty
that empties whole rows, and scores a feature by the norm of its row
(higher is better; ties to the lowest index). One module per method states
its rules: :mod:`._rfs` (Nie et al. 2010), :mod:`._llsf` (Huang et al.
2015/2016), :mod:`._mifs` (Jian et al. 2016). Before the method, ``X`` is
scaled by the shared ``scaling`` option (:mod:`.._scaling`) and made CSR:
a sparse ``X`` is never densified; where M > n the methods solve their
n x n form, so the cost follows ``min(n, M)``.
"""

from __future__ import annotations

import inspect

from ....options import Option
from ..._spec import MethodSpec, Ranking
from ...citations import FIELD
from .._scaling import SCALING_OPTION
from ._cg import SOLVERS
from ._common import SparseFit, prepared, row_norms
from ._llsf import label_distance, llsf_fit, llsf_objective, ridge_start
from ._mifs import knn_laplacian, latent_start, mifs_fit, mifs_objective
from ._rfs import rfs_fit, rfs_objective

__all__ = [
    "SparseFit",
    "fit_sparse",
    "knn_laplacian",
    "label_distance",
    "latent_start",
    "llsf_fit",
    "llsf_objective",
    "mifs_fit",
    "mifs_objective",
    "prepared",
    "rfs_fit",
    "rfs_objective",
    "ridge_start",
    "row_norms",
    "sparse_specs",
]

_FITS = {"RFS": rfs_fit, "LLSF": llsf_fit, "MIFS": mifs_fit}


def fit_sparse(method: str, X, Y, *, scaling: str = "minmax", observe=None, **options):
    """Scale ``X`` and fit one of ``RFS``, ``LLSF``, ``MIFS`` with its options.

    Parameters
    ----------
    method : {"RFS", "LLSF", "MIFS"}
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    scaling : {"minmax", "standard", "none"}
    observe : callable, optional
        ``observe(t, W)`` at the start and after each iteration.
    **options
        The method's options other than ``scaling`` (already checked).

    Returns
    -------
    SparseFit
    """
    return _FITS[method](prepared(X, scaling), Y, observe=observe, **options)


def _positive(name: str, default: float, what: str) -> Option:
    return Option(name, default, low=0.0, closed="right", help=what)


def _tol(default: float) -> Option:
    return Option(
        "tol",
        default,
        low=0.0,
        high=1.0,
        help="Stop when the objective's relative change is below this (0: run "
        "max_iter iterations).",
    )


def _solver() -> Option:
    return Option(
        "solver",
        "auto",
        choices=SOLVERS,
        help="How the n x n systems (more features than samples) are solved: "
        "Cholesky, warm-started conjugate gradients, or auto (CG when the "
        "factorisation costs more than 100 CG steps).",
    )


def _max_iter(default: int) -> Option:
    return Option(
        "max_iter", default, low=1, high=100_000, help="Largest number of iterations."
    )


_RFS_OPTIONS = (
    _positive(
        "gamma", 1.0, "Weight of the row sparsity ||W||_2,1 against the robust loss."
    ),
    _tol(1e-6),
    _max_iter(1000),
    SCALING_OPTION,
)
_LLSF_OPTIONS = (
    Option(
        "alpha",
        2.0**-5,
        low=0.0,
        help="Weight of the label-correlation term tr(R W^T W).",
    ),
    Option("beta", 2.0**-3, low=0.0, help="Weight of the l1 sparsity ||W||_1."),
    _positive("rho", 0.1, "Ridge of the starting point W_0."),
    _tol(1e-4),
    _max_iter(100),
    SCALING_OPTION,
)
_MIFS_OPTIONS = (
    Option(
        "alpha", 1.0, low=0.0, help="Weight of the label reconstruction ||Y - VB||^2."
    ),
    Option("beta", 1.0, low=0.0, help="Weight of the instances' manifold tr(V^T L V)."),
    _positive("gamma", 1.0, "Weight of the row sparsity ||W||_2,1."),
    Option("n_latent", 10, low=1, high=10_000, help="Latent labels c (at most q)."),
    Option(
        "n_neighbors",
        5,
        low=1,
        high=1000,
        help="Nearest neighbours of each instance in the graph.",
    ),
    _solver(),
    _tol(1e-6),
    _max_iter(100),
    SCALING_OPTION,
)


def _ranker(method: str, options: tuple[Option, ...]):
    """The ``rank`` of ``method``: its options' defaults, then :func:`fit_sparse`.

    Its signature lists the options with their defaults, as a plain function's.
    """
    defaults = {o.name: o.default for o in options}

    def rank(X, Y, *, k, rng, **given) -> Ranking:
        return fit_sparse(method, X, Y, **{**defaults, **given}).ranking(k)

    head = list(inspect.signature(rank).parameters.values())[:4]
    keyword = inspect.Parameter.KEYWORD_ONLY
    tail = [inspect.Parameter(o.name, keyword, default=o.default) for o in options]
    rank.__signature__ = inspect.Signature(head + tail, return_annotation="Ranking")
    rank.__name__ = rank.__qualname__ = f"_rank_{method.lower()}"
    rank.__doc__ = f"Rank features with {method} (see :mod:`._{method.lower()}`)."
    return rank


_rank_rfs = _ranker("RFS", _RFS_OPTIONS)
_rank_llsf = _ranker("LLSF", _LLSF_OPTIONS)
_rank_mifs = _ranker("MIFS", _MIFS_OPTIONS)


def sparse_specs() -> list[MethodSpec]:
    """The specs of RFS, LLSF and MIFS, for the registry."""
    family = "sparse-regression"
    return [
        MethodSpec(
            name="RFS",
            family=family,
            rank=_rank_rfs,
            options=_RFS_OPTIONS,
            description="Robust joint l2,1-norm regression of the labels on the "
            "features; a feature's score is the norm of its row of W.",
            citation=FIELD["RFS"],
        ),
        MethodSpec(
            name="LLSF",
            family=family,
            rank=_rank_llsf,
            options=_LLSF_OPTIONS,
            default_for=("learn",),  # the cheapest: the Learn page opens on it
            description="Label-specific features: l1-sparse regression with a "
            "label-correlation penalty; a feature's score is the norm of its row of W.",
            citation=FIELD["LLSF"],
        ),
        MethodSpec(
            name="MIFS",
            family=family,
            rank=_rank_mifs,
            options=_MIFS_OPTIONS,
            description="Regression on latent labels from Y's decomposition, with "
            "the instances' manifold and l2,1 row sparsity; score: row norm of W.",
            citation=FIELD["MIFS"],
        ),
    ]
