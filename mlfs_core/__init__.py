"""MLFS Explorer engine: load multi-label data, rank features, evaluate, analyse."""

from ._random import check_rng
from .errors import ConfigError, DatasetError, MLFSError
from .selectors._registry import METHODS, MethodSpec, Ranking, get_method, list_methods
from .selectors.api import compute_ranking, rank_features

__version__ = "0.1.0"

__all__ = [
    "METHODS",
    "ConfigError",
    "DatasetError",
    "MLFSError",
    "MethodSpec",
    "Ranking",
    "check_rng",
    "compute_ranking",
    "get_method",
    "list_methods",
    "rank_features",
]
