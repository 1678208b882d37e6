"""Internals of the information-theoretic greedy selectors (PMU, MDMR, D2F, ...).

Modules, in import order (each imports only those above it):

``data``
    :class:`~.data.DiscreteProblem`: compact codes, sparse one-hot indicators
    and the (feature, code, label) counts every criterion counts with.
``terms``, ``triples``
    Static entropies (H(f), H(l_i), H(f, l_i), R(f)) and the terms of a newly
    selected feature (H(f, s), sum_i H(f, s, l_i)).
``pairs``, ``pairs_sparse``
    Static label-pair terms: sums and maxima over label pairs of quantities
    of (f, l_i, l_j).
``ppt``
    Label-powerset class, PPT pruning, I(f; Y_P) and IGMF's gain.
``criteria``
    The criteria as data: each declares its S-free terms (name and value),
    its redundancy term and how they combine; the engine
    (:mod:`mlfs_core.selectors.greedy`) and the step-by-step view
    (:mod:`mlfs_core.explain.greedy`) both read them from here.

Notation of the cost bounds in the module docstrings: N samples, M features
(at most b codes each, b = 3 by default), q labels, nnz the stored non-mode
codes, LC the mean number of labels per sample (label cardinality), E the
stored (feature, code, label) co-occurrences (E <= nnz LC), P the (feature,
label pair) co-occurrences of the non-mode codes (P <= nnz LC^2 / 2), k the
number of greedy steps.

The criteria's vocabulary is exported here for plug-ins that add a criterion
variant (``mlfs_core.selectors.register_variant``): ``Criterion``,
``Context`` and the term name ``RELEVANCE``.
"""

from __future__ import annotations

from ..._lazy import lazy_exports

# Lazy (PEP 562): importing a module of this package must not import them all.
_EXPORTS = {
    "RELEVANCE": ".criteria",
    "Context": ".criteria",
    "Criterion": ".criteria",
}

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__
