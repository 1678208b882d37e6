"""Information-theoretic greedy filters for multi-label data, on one engine.

Ten multi-label filters, all of the form "S starts empty; at each step the
remaining feature with the highest J(f | S) joins S" (Brown et al. 2012 give
the single-label family). The criteria are data (:data:`CRITERIA` in
:mod:`.it.criteria`): a static term computed once for all candidates and a
redundancy sum over S updated incrementally when a feature joins S, so one
step costs a few sparse products and one vectorized pass over the candidates.

============  ===============================================================
Method        J(f | S), with R(f) = sum_i I(f; l_i)
============  ===============================================================
ATR           R(f) / q + I(f_P; Y_P) - (1/|S|) sum_s I(f; s)
PPT-MI        I(f_P; Y_P)  (PPT-pruned label powerset Y_P, tau = 6)
IGMF          2 I(f; L) / (H(f) + H(L)), L the label powerset
PMU           R(f) - sum_{i<j} I(f; l_i; l_j) - sum_s sum_i I(f; s; l_i)
D2F           R(f) - sum_s sum_i I(f; s; l_i)
SCLS          R(f) (1 - sum_s I(f; s) / H(f))
MDMR          R(f) - (1/|S|) sum_s [I(f; s) - sum_i I(s; l_i | f)]
LRFS          sum_{i != j} I(f; l_i | l_j) - (1/|S|) sum_s I(f; s)
LSMFS         R(f) + sum_{i != j} max(0, I(f; l_i; l_j)) - sum_s I(f; s)
MLSMFS        R(f) + max_{i != j} I(f; l_i | l_j) - sum_s I(f; s)
============  ===============================================================

Features are discretized first (:class:`~mlfs_core.measures.discretize.Discretizer`,
3 equal-width bins by default, fitted on the given training X; the
``discretize`` option names any strategy of :mod:`mlfs_core.measures.binning`,
a package's registered ones included); estimates are
plug-in, in bits. A criterion value within 1e-10 of the best counts as tied,
and the lowest feature index wins. With S empty every redundancy is 0.

Criterion variants: the methods of :data:`VARIANT_METHODS` take a ``variant``
option, ``"definition"`` (the criterion above) or the name of a variant
registered with :func:`register_variant` (:mod:`.variants`).

Cost (N samples, M features with at most b codes, q labels, nnz stored
non-mode codes, LC labels per sample, E stored (feature, code, label)
co-occurrences, k steps): preparing and the relevance R(f) cost
O(nnz LC + M b q); the label-pair terms of PMU and LRFS are sums of a
baseline, per-key single-label changes and corrections over the pairs of
labels a feature's non-mode samples carry, with the co-occurrence counts
from one product with the sparse label-pair matrix (about N LC^2 / 2
values); LSMFS and MLSMFS fold the same split (:mod:`.it.pair_folds`). In a
step, the features that share no non-mode sample with s get I(f; s) and the
label triples in closed form (per mode count and per distinct (label, mode
count, count) key); only the overlapping features O are counted: O(nnz_s +
M b + |O| b b_s) for I(f; s), nnz_s the non-mode codes of the samples where
s is not at its mode, and O(nnz_s LC + E_O + G) more for the label triples
of PMU, D2F and MDMR, E_O the co-occurrences of O and G the (feature,
label) groups. Memory is O(nnz + M b q) counts plus
bounded chunks. Each module of :mod:`mlfs_core.selectors.it` states its own
bound.

References
----------
.. [1] G. Brown, A. Pocock, M.-J. Zhao and M. Lujan, "Conditional likelihood
   maximisation: a unifying framework for information theoretic feature
   selection", JMLR 13:27-66, 2012.
.. [2] J. Lee and D.-W. Kim, "Feature selection for multi-label
   classification using multivariate mutual information", Pattern
   Recognition Letters 34(3):349-357, 2013 (PMU).
.. [3] J. Lee and D.-W. Kim, "Fast multi-label feature selection based on
   information-theoretic feature ranking", Pattern Recognition 48(9), 2015 (D2F).
.. [4] Y. Lin, Q. Hu, J. Liu and J. Duan, "Multi-label feature selection based
   on max-dependency and min-redundancy", Neurocomputing 168:92-103, 2015 (MDMR).
.. [5] G. Doquire and M. Verleysen, "Feature selection for multi-label
   classification problems", IWANN 2011 (PPT-MI).
.. [6] L. Li, H. Liu, Z. Ma, Y. Mo, Z. Duan, J. Zhou and J. Zhao, "Multi-label
   feature selection via information gain", ADMA 2014 (IGMF).
.. [7] "Multi-Label Feature Selection Using Adaptive and Transformed
   Relevance" (ATR).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_int, check_k
from ..errors import ConfigError
from ..measures.binning import binning_option, binning_strategy
from ..measures.discretize import Discretizer
from ..options import Option
from ._spec import MethodSpec, Ranking
from .citations import GREEDY
from .it.codes import prepare_codes
from .it.criteria import CRITERIA, Context, Criterion, redundancy_of
from .progress import report_progress
from .variants import DEFINITION, VARIANT_METHODS, variant_criterion, variant_option

__all__ = [
    "IT_METHODS",
    "TIE_TOLERANCE",
    "VARIANT_METHODS",
    "criterion_of",
    "discrete_context",
    "greedy_select",
    "rank_discrete",
]

TIE_TOLERANCE = 1e-10

_DESCRIPTIONS = {
    "PPT-MI": "Mutual information with the PPT-pruned label powerset (no redundancy).",
    "IGMF": "Normalized information gain between a feature and the label set.",
    "PMU": "Relevance minus label-pair interactions and feature-label-pair redundancy.",
    "D2F": "PMU without the label-pair term (Lee and Kim's fast variant).",
    "MDMR": "Max-dependency min-redundancy with label-conditional redundancy.",
    "LRFS": "Label-redundancy-aware relevance minus mean feature redundancy.",
    "LSMFS": "Relevance plus positive label-pair interactions minus redundancy.",
    "MLSMFS": "Relevance plus the strongest conditional label term minus redundancy.",
    "SCLS": "Relevance scaled by the share of the feature's entropy not yet covered.",
    "ATR": "Adaptive relevance plus PPT-transformed relevance minus mean redundancy.",
}
IT_METHODS = tuple(_DESCRIPTIONS)
_FORMULAS = {
    "PPT-MI": "I(f_P; Y_P)",
    "IGMF": "2 I(f; L) / (H(f) + H(L)), L the label-set variable; 0 if H(f)+H(L) = 0",
    "PMU": "R(f) - sum_{i<j} I(f; l_i; l_j) - sum_s sum_i I(f; s; l_i)",
    "D2F": "R(f) - sum_s sum_i I(f; s; l_i)",
    "MDMR": "R(f) - (1/|S|) sum_s [ I(f; s) - sum_i I(s; l_i | f) ]",
    "LRFS": "sum_i sum_{j != i} I(f; l_i | l_j) - (1/|S|) sum_s I(f; s)",
    "LSMFS": "R(f) + sum_{i != j} max(0, I(f; l_i; l_j)) - sum_s I(f; s)",
    "MLSMFS": "R(f) + max_{i != j} I(f; l_i | l_j) - sum_s I(f; s) (max 0 if q = 1)",
    "SCLS": "R(f) * (1 - sum_s I(f; s) / H(f)); J = 0 for a constant feature",
    "ATR": "(1/q) R(f) + I(f_P; Y_P) - (1/|S|) sum_s I(f; s)",
}
"""J(f | S) of each method, as in METHODS.md section 4 (R(f) = sum_i I(f; l_i))."""
_DEFAULT_FOR = {
    "PPT-MI": ("experiment-B",),
    "IGMF": ("experiment-B",),
    "PMU": ("learn",),
    "SCLS": ("experiment-B",),
    "ATR": ("experiment-B", "control"),
}
"""Where the app picks these methods at first: protocol B's teaching set (ATR
and three contrasting methods), ATR as the post-hoc control, PMU on the Learn
page."""
_WITH_TAU = ("ATR", "PPT-MI")


def _best_next_feature(values: np.ndarray, remaining: np.ndarray) -> int:
    """Index of the best remaining value; ties within 1e-10: lowest index."""
    candidates = np.flatnonzero(remaining)
    scores = values[candidates]
    best = scores.max()
    return int(candidates[np.flatnonzero(scores >= best - TIE_TOLERANCE)[0]])


def greedy_select(
    criterion: Criterion, ctx: Context, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Run the greedy loop for ``k`` steps.

    Parameters
    ----------
    criterion : Criterion
        One entry of ``CRITERIA``.
    ctx : Context
        The discrete problem and its lazily computed static terms.
    k : int
        Number of features to select, in ``[1, n_features]``.

    Returns
    -------
    order : ndarray of shape (k,)
        Selected features, in selection order.
    path : ndarray of shape (k,)
        ``J(f | S)`` of each selected feature at its step.
    """
    m = ctx.problem.n_features
    static = criterion.static(ctx)
    red_sum = np.zeros(m)
    remaining = np.ones(m, dtype=bool)
    order = np.empty(k, dtype=np.intp)
    path = np.empty(k)
    for step in range(k):
        values = criterion.combine(static, red_sum, step, ctx)
        best = _best_next_feature(values, remaining)
        order[step], path[step] = best, values[best]
        remaining[best] = False
        report_progress(step + 1, k)
        if criterion.redundancy is not None and step + 1 < k:
            red_sum += redundancy_of(criterion.redundancy, ctx, best)
    return order, path


def criterion_of(method: str, variant: str = DEFINITION) -> Criterion:
    """The :class:`Criterion` of a method and variant, checked.

    Parameters
    ----------
    method : str
        One of :data:`IT_METHODS`.
    variant : str, default="definition"
        ``"definition"``, or a variant registered for ``method``
        (:func:`~mlfs_core.selectors.variants.register_variant`).

    Raises
    ------
    ConfigError
        For an unknown method, or a variant not registered for it (after one
        load of the installed plug-ins); the message names the registered ones.
    """
    if method not in IT_METHODS:
        raise ConfigError(f"unknown method {method!r}; known: {', '.join(IT_METHODS)}")
    if variant == DEFINITION:
        return CRITERIA[method]
    return variant_criterion(method, variant)


def _check_tau(tau: object) -> int:
    return check_int(tau, "tau", low=1)


def rank_discrete(
    codes: np.ndarray,
    Y: np.ndarray,
    method: str,
    *,
    k: int | None = None,
    tau: int = 6,
    variant: str = DEFINITION,
    zero_codes: np.ndarray | None = None,
) -> Ranking:
    """Rank already discretized features with one of the ten methods.

    Parameters
    ----------
    codes : ndarray or sparse matrix of shape (n_samples, n_features)
        Non-negative integer codes of the features; a sparse matrix's
        implicit entries have the code ``zero_codes`` (default 0).
    Y : ndarray of shape (n_samples, n_labels)
        Binary labels.
    method : str
        One of :data:`IT_METHODS`.
    k : int, optional
        Number of features to rank (default all); ``k > n_features`` raises
        rather than silently returning fewer features.
    tau : int, default=6
        PPT threshold (ATR, PPT-MI).
    variant : str, default="definition"
        The criterion as defined, or a variant registered for ``method``
        (:mod:`mlfs_core.selectors.variants`).
    zero_codes : ndarray of shape (n_features,), optional
        Code of each feature's implicit entries when ``codes`` is sparse
        (``Discretizer.transform_stored`` returns it).

    Returns
    -------
    Ranking
        ``order``, ``scores`` (n_features - position, 0 if unranked) and
        ``criterion_path``.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]])
    >>> Y = np.array([[0], [0], [1], [1]])
    >>> rank_discrete(codes, Y, "D2F").order.tolist()
    [0, 1, 2]
    """
    criterion = criterion_of(method, variant)
    Y = np.asarray(Y, dtype=np.int8)
    m = codes.shape[1] if sp.issparse(codes) else np.asarray(codes).shape[1]
    k = check_k(k, m)
    problem = prepare_codes(codes, Y, zero_codes=zero_codes)
    ctx = Context(problem, Y, _check_tau(tau))
    order, path = greedy_select(criterion, ctx, k)
    scores = np.zeros(m)
    scores[order] = m - np.arange(k)
    return Ranking(order=order, scores=scores, label_scores=None, criterion_path=path)


MAX_BINS = 1000
"""Most bins per feature a method discretizes into (as the protocols' ``bins``):
the bin tables grow with the bins squared, so a larger value is refused before
any work rather than failing for memory after it has started."""


def _discretizer(bins: int, discretize: str) -> Discretizer:
    binning_strategy(discretize)  # a ConfigError naming the registered strategies
    bins = check_int(bins, "bins", low=2, high=MAX_BINS)
    return Discretizer(int(bins), strategy=discretize)


def discrete_context(
    X: sp.csr_matrix,
    Y: np.ndarray,
    *,
    bins: int = 3,
    discretize: str = "uniform",
    tau: int = 6,
) -> Context:
    """Discretize validated ``X`` as the ranking functions do and count it.

    Parameters
    ----------
    X : csr_matrix of shape (n_samples, n_features)
        Validated feature values (:func:`mlfs_core._validation.check_XY`).
    Y : ndarray of shape (n_samples, n_labels)
        Validated 0/1 labels.
    bins, discretize, tau
        The method options (see :func:`rank_discrete`).

    Returns
    -------
    Context
        The discrete problem of the stored codes, as the engine ranks it.
    """
    disc = _discretizer(bins, discretize).fit(X)
    codes, zero_codes = disc.transform_stored(X)
    Y = np.asarray(Y, dtype=np.int8)
    problem = prepare_codes(codes, Y, zero_codes=zero_codes)
    return Context(problem, Y, _check_tau(tau))


def _make_rank(method: str):
    def rank(
        X: sp.csr_matrix,
        Y: np.ndarray,
        *,
        k: int,
        rng: np.random.Generator,
        bins: int = 3,
        discretize: str = "uniform",
        tau: int = 6,
        variant: str = DEFINITION,
    ) -> Ranking:
        disc = _discretizer(bins, discretize).fit(X)
        codes, zero_codes = disc.transform_stored(X)
        return rank_discrete(
            codes, Y, method, k=k, tau=tau, variant=variant, zero_codes=zero_codes
        )

    rank.__name__ = f"rank_{method.replace('-', '_').lower()}"
    rank.__doc__ = f"Rank features with {method} (see :mod:`{__name__}`)."
    return rank


def _options(method: str) -> tuple[Option, ...]:
    options = [
        Option(
            "bins", 3, low=2, high=MAX_BINS, help="Bins per feature when discretizing."
        ),
        binning_option(
            "uniform",
            help="Bin edges: equal width, equal frequency, present/absent, or a "
            "registered strategy.",
        ),
    ]
    if method in _WITH_TAU:
        options.append(
            Option("tau", 6, low=1, help="PPT: prune label sets seen fewer times.")
        )
    if method in VARIANT_METHODS:
        options.append(variant_option(method))
    return tuple(options)


def greedy_specs() -> list[MethodSpec]:
    """The specs of the ten information-theoretic methods, in IT_METHODS order."""
    return [
        MethodSpec(
            name=method,
            family="information-theoretic",
            stepwise=True,
            citation=GREEDY[method],
            rank=_make_rank(method),
            stochastic=False,
            options=_options(method),
            description=_DESCRIPTIONS[method],
            default_for=_DEFAULT_FOR.get(method, ()),
            formula=_FORMULAS[method],
        )
        for method in IT_METHODS
    ]
