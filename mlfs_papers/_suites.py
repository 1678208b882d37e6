"""Where the two studies' benchmark suites find their configs, data and datasets.

Shared by :mod:`.paper000.suite` and :mod:`.paper001.suite`: a study ``NAME``
has its config in ``configs/study_NAME.toml`` and its committed data in
``studies/NAME/data`` of the checkout. The papers' wheel (``mlfs-papers``)
ships both as package data, in ``mlfs_papers/_study_configs/`` and
``mlfs_papers/_study_data/NAME/data`` (see ``mlfs_papers/setup.py``); a
checkout's own are used when they are there. ``mlfs benchmark --studies
DIR`` points at another folder laid out as the repository
(:func:`mlfs_core.benchmark.relocated`).
The datasets are read from ``$MLFS_DATASETS``, by default a ``shared/datasets``
folder beside the checkout (where the study configs' relative paths point),
or from ``mlfs benchmark --data DIR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from mlfs_core.benchmark import QuickPlan, Suite, register_suite

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(__file__).resolve().parent
SHIPPED_STUDIES = ("paper000", "paper001")
"""The studies whose configs and committed data the package ships."""


def study_locations(name: str) -> tuple[Path, Path]:
    """The config and the committed data folder of the study ``name``.

    The checkout's (``configs/study_NAME.toml``, ``studies/NAME/data``) when
    there, else the package data of an installed wheel.
    """
    config = ROOT / "configs" / f"study_{name}.toml"
    if config.is_file():
        return config, ROOT / "studies" / name / "data"
    return (
        PACKAGE / "_study_configs" / f"study_{name}.toml",
        PACKAGE / "_study_data" / name / "data",
    )


def study_file(name: str, filename: str) -> Path:
    """A file of the study ``name`` (e.g. ``published.csv``): the checkout's
    ``studies/NAME/FILE`` when there, else the package data's."""
    path = ROOT / "studies" / name / filename
    return path if path.is_file() else PACKAGE / "_study_data" / name / filename


def check_shipped() -> None:
    """Exit with a message unless every shipped study's config and data are here.

    The wheel job of CI (``.ci/wheel``) runs it in the installed package.
    """
    for name in SHIPPED_STUDIES:
        config, data = study_locations(name)
        if not config.is_file() or not any(data.glob("*/results.csv.gz")):
            raise SystemExit(f"study {name}: config {config} or data {data} missing")


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
    config, data = study_locations(name)
    return register_suite(
        Suite(
            name=name,
            title=title,
            config=config,
            data_dir=data,
            methods=methods,
            metric=metric,
            quick=quick,
            base_dir=ROOT,
            datasets_dir=datasets_dir(),
            description=description,
        )
    )
