"""MLFS Explorer engine: load multi-label data, rank features, evaluate, analyse.

The public API (stable names and signatures) is ``__all__``: the names of
``_EXPORTS`` below, each imported from its submodule on first use. They are
documented, grouped by task, on the top-level page of the API reference
(``docs/api/top-level.md``).
"""

from __future__ import annotations

# First, before anything can import numpy: pin OpenBLAS's kernel so that every
# result is the same on every x86-64 CPU with AVX2 (see mlfs_core.blas). This
# is the one place the engine reads an environment variable at import.
from . import blas as _blas

_blas.pin()

from ._lazy import lazy_exports  # noqa: E402

# Public name -> the submodule that defines it. Submodules are imported on
# first use (PEP 562), so ``import mlfs_core`` is cheap and the app's first
# page does not pay for scipy.stats, scikit-learn or joblib it does not use.
_EXPORTS = {
    "check_rng": "._random",
    "AGGREGATIONS": ".aggregation",
    "FriedmanResult": ".analysis",
    "Selection": ".analysis",
    "average_ranks": ".analysis",
    "dataset_means": ".analysis",
    "friedman_nemenyi": ".analysis",
    "kuncheva_index": ".analysis",
    "metric_curves": ".analysis",
    "precision_at_k": ".analysis",
    "select": ".analysis",
    "similarity_matrix": ".analysis",
    "KNOWN_LABEL_HINTS": ".data",
    "Dataset": ".data",
    "discover_datasets": ".data",
    "load_dataset": ".data",
    "load_uploaded": ".data",
    "ConfigError": ".errors",
    "DatasetError": ".errors",
    "MLFSError": ".errors",
    "METRICS": ".evaluation",
    "ExperimentConfig": ".evaluation",
    "ExperimentResult": ".evaluation",
    "load_config": ".evaluation",
    "protocol_preset": ".evaluation",
    "register_protocol_preset": ".evaluation",
    "run_experiment": ".evaluation",
    "save_config": ".evaluation",
    "MEASURES": ".measures",
    "label_scores": ".measures",
    "METHODS": ".selectors._registry",
    "MethodSpec": ".selectors._registry",
    "Ranking": ".selectors._registry",
    "get_method": ".selectors._registry",
    "list_methods": ".selectors._registry",
    "compute_ranking": ".selectors.api",
    "rank_features": ".selectors.api",
    "MultiLabelSelector": ".selectors.estimator",
    "rank_filter_methods": ".selectors.filter",
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


from ._version import __version__  # noqa: E402, F401  (public: mlfs_core.__version__)

__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__

# Only the public names (and the submodules) in dir(mlfs_core): the helpers
# used above are not part of the API.
del annotations, lazy_exports
