"""MLFS Explorer engine: load multi-label data, rank features, evaluate, analyse.

The public API (stable names and signatures):

- data: :func:`load_dataset`, :func:`load_uploaded`, :func:`discover_datasets`,
  :class:`Dataset`
- scoring: :func:`label_scores`, :data:`MEASURES`, :data:`AGGREGATIONS`
- ranking: :func:`rank_features`, :func:`compute_ranking`, :func:`rank_filter_methods`,
  :func:`list_methods`, :func:`get_method`, :class:`MultiLabelSelector`
- evaluation: :func:`run_experiment`, :class:`ExperimentConfig`, :data:`METRICS`
- analysis: :func:`select` (a :class:`Selection`, which :func:`average_ranks`,
  :func:`friedman_nemenyi` and :func:`metric_curves` take),
  :func:`kuncheva_index`, :func:`similarity_matrix`, :func:`dataset_means`
"""

from __future__ import annotations

# First, before anything can import numpy: pin OpenBLAS's kernel so that every
# result is the same on every x86-64 CPU with AVX2 (see mlfs_core.blas). This
# is the one place the engine reads an environment variable at import.
from . import blas as _blas

_blas.pin()

from typing import TYPE_CHECKING  # noqa: E402

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


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._random import check_rng  # noqa: F401
    from .analysis import (  # noqa: F401
        FriedmanResult,
        Selection,
        average_ranks,
        dataset_means,
        friedman_nemenyi,
        kuncheva_index,
        metric_curves,
        precision_at_k,
        select,
        similarity_matrix,
    )
    from .data import (  # noqa: F401
        KNOWN_LABEL_HINTS,
        Dataset,
        discover_datasets,
        load_dataset,
        load_uploaded,
    )
    from .errors import ConfigError, DatasetError, MLFSError  # noqa: F401
    from .evaluation import (  # noqa: F401
        METRICS,
        ExperimentConfig,
        ExperimentResult,
        load_config,
        protocol_preset,
        register_protocol_preset,
        run_experiment,
        save_config,
    )
    from .measures import MEASURES, label_scores  # noqa: F401
    from .selectors._registry import (  # noqa: F401
        METHODS,
        MethodSpec,
        Ranking,
        get_method,
        list_methods,
    )
    from .selectors.api import compute_ranking, rank_features  # noqa: F401
    from .selectors.estimator import MultiLabelSelector  # noqa: F401
    from .selectors.filter import rank_filter_methods  # noqa: F401

from ._version import __version__  # noqa: E402, F401  (public: mlfs_core.__version__)

__all__ = [  # noqa: F822 - resolved lazily by __getattr__
    "AGGREGATIONS",
    "KNOWN_LABEL_HINTS",
    "MEASURES",
    "METHODS",
    "METRICS",
    "ConfigError",
    "Dataset",
    "DatasetError",
    "ExperimentConfig",
    "ExperimentResult",
    "FriedmanResult",
    "MLFSError",
    "MethodSpec",
    "MultiLabelSelector",
    "Ranking",
    "Selection",
    "average_ranks",
    "check_rng",
    "compute_ranking",
    "dataset_means",
    "discover_datasets",
    "friedman_nemenyi",
    "get_method",
    "kuncheva_index",
    "label_scores",
    "list_methods",
    "load_config",
    "load_dataset",
    "load_uploaded",
    "metric_curves",
    "precision_at_k",
    "protocol_preset",
    "rank_features",
    "rank_filter_methods",
    "register_protocol_preset",
    "run_experiment",
    "save_config",
    "select",
    "similarity_matrix",
]

# Only the public names (and the submodules) in dir(mlfs_core): the helpers
# used above are not part of the API.
del TYPE_CHECKING, annotations, lazy_exports
