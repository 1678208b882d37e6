"""Dataset loading: Mulan/MEKA ARFF, -train/-test pairs, svmlight, CSV and MATLAB.

See :func:`load_dataset` for the formats, :mod:`mlfs_core.data._encode` for the
label-selection precedence and the nominal encoding rule, and
:mod:`mlfs_core.data.arff` for missing values (not supported: an error).
"""

from __future__ import annotations

from .bundled import SAMPLE_DIR
from .dataset import Dataset
from .describe import (
    DENSE_SHARE,
    data_warnings,
    dense_share,
    label_cooccurrence,
    label_frequency,
)
from .layout import LabelLayout, upload_label_layout
from .limits import current_limits
from .loader import KNOWN_LABEL_HINTS, discover_datasets, load_dataset, load_uploaded

__all__ = [
    "DENSE_SHARE",
    "SAMPLE_DIR",
    "current_limits",
    "data_warnings",
    "dense_share",
    "KNOWN_LABEL_HINTS",
    "Dataset",
    "LabelLayout",
    "discover_datasets",
    "label_cooccurrence",
    "label_frequency",
    "load_dataset",
    "load_uploaded",
    "upload_label_layout",
]
