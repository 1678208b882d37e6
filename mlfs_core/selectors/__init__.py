"""Feature-ranking methods: the registry, the ranking functions, the selector.

``from mlfs_core.selectors import MultiLabelSelector, rank_features`` works;
names are imported on first use (scikit-learn only with the selector).
"""

from __future__ import annotations

from .._lazy import lazy_exports

_EXPORTS = {
    "is_filter_name": ".naming",
    "split_name": ".naming",
    "ranking_progress": ".progress",
    "FEATURE_INDEX": ".tables",
    "ranking_frame": ".tables",
    "selections_frame": ".tables",
    "topk_side_by_side": ".tables",
    "IT_METHODS": ".greedy",
    "SCALINGS": ".field._scaling",
    "METHODS": "._registry",
    "MethodSpec": "._spec",
    "Ranking": "._spec",
    "REFERENCE_KINDS": "._spec",
    "SCORE_KINDS": "._spec",
    "FAMILIES": "._registry",
    "default_methods": "._registry",
    "reference_methods": "._registry",
    "families": "._registry",
    "get_method": "._registry",
    "list_methods": "._registry",
    "register": "._registry",
    "unregister": "._registry",
    "compute_ranking": ".api",
    "rank_features": ".api",
    "MultiLabelSelector": ".estimator",
    "rank_filter_methods": ".filter",
    "Criterion": ".it.criteria",
    "Variant": ".variants",
    "register_variant": ".variants",
    "unregister_variant": ".variants",
    "variant_names": ".variants",
}

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__
