"""MLFS Explorer engine: load multi-label data, rank features, evaluate, analyse.

The public API (stable names and signatures):

- data: :func:`load_dataset`, :func:`load_uploaded`, :func:`discover_datasets`, :class:`Dataset`
- scoring: :func:`label_scores`, :data:`MEASURES`, :data:`AGGREGATIONS`
- ranking: :func:`rank_features`, :func:`compute_ranking`, :func:`rank_filter_methods`,
  :func:`list_methods`, :func:`get_method`, :class:`MultiLabelSelector`
- evaluation: :func:`run_experiment`, :class:`ExperimentConfig`, :data:`METRICS`
- analysis: :func:`average_ranks`, :func:`friedman_nemenyi`, :func:`kuncheva_index`,
  :func:`similarity_matrix`, :func:`metric_curves`, :func:`dataset_means`
"""

from ._random import check_rng
from .aggregation import AGGREGATIONS
from .analysis import (
    FriedmanResult,
    average_ranks,
    dataset_means,
    friedman_nemenyi,
    kuncheva_index,
    metric_curves,
    precision_at_k,
    similarity_matrix,
)
from .data import KNOWN_LABEL_HINTS, Dataset, discover_datasets, load_dataset, load_uploaded
from .errors import ConfigError, DatasetError, MLFSError
from .evaluation import (
    METRICS,
    ExperimentConfig,
    ExperimentResult,
    load_config,
    protocol_a,
    protocol_b,
    run_experiment,
    save_config,
)
from .measures import MEASURES, label_scores
from .selectors._registry import METHODS, MethodSpec, Ranking, get_method, list_methods
from .selectors.api import compute_ranking, rank_features
from .selectors.estimator import MultiLabelSelector
from .selectors.filter import rank_filter_methods

__version__ = "0.1.0"

__all__ = [
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
    "protocol_a",
    "protocol_b",
    "rank_features",
    "rank_filter_methods",
    "run_experiment",
    "save_config",
    "similarity_matrix",
]
