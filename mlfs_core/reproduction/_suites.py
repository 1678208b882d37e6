"""Where the two studies' benchmark suites find their configs, data and datasets.

Shared by :mod:`.paper000.suite` and :mod:`.paper001.suite`: a study ``NAME``
has its config in ``configs/study_NAME.toml`` and its committed data in
``studies/NAME/data`` of the checkout; the datasets are read from
``$MLFS_DATASETS``, by default a ``shared/datasets`` folder beside the checkout
(where the study configs' relative paths point).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..benchmark import QuickPlan, Suite, register_suite

ROOT = Path(__file__).resolve().parents[2]


def datasets_dir() -> Path:
    """``$MLFS_DATASETS``, else ``shared/datasets`` beside the checkout."""
    return Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))


def register_study_suite(
    name: str,
    *,
    title: str,
    methods: tuple[str, ...],
    quick: QuickPlan,
    metric: str = "micro_f1",
    description: str = "",
) -> Suite:
    """Register the suite of the study ``name`` (its config and committed data)."""
    return register_suite(
        Suite(
            name=name,
            title=title,
            config=ROOT / "configs" / f"study_{name}.toml",
            data_dir=ROOT / "studies" / name / "data",
            methods=methods,
            metric=metric,
            quick=quick,
            base_dir=ROOT,
            datasets_dir=datasets_dir(),
            description=description,
        )
    )
