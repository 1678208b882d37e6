"""The suites registry: the studies a method can be benchmarked against.

A *suite* (:class:`Suite`) describes a study: its experiment config (datasets
and protocol), the folder of its committed per-dataset results, the methods it
compares and its ``--quick`` subset (:class:`QuickPlan`). Suites are
registered with :func:`register_suite` by plug-ins, the way evaluation
conventions are (:mod:`mlfs_core.evaluation.conventions`): a name the registry
does not know loads the installed plug-ins (entry-point group
``mlfs_explorer.plugins``) once, then the lookup is retried. The engine knows
no suite itself; the studies of this repository register theirs from their
own package, through the same entry point as any plug-in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import ConfigError
from ..plugins import PLUGIN_GROUP


@dataclass(frozen=True)
class QuickPlan:
    """The ``--quick`` subset of a suite: a restriction of its plan.

    Attributes
    ----------
    datasets : tuple of str
        Dataset names (folder names of the committed data) kept.
    folds : tuple of int, optional
        Fold indices of the protocol's split kept (None: all).
    budgets : tuple, optional
        Budgets of the protocol kept, in the protocol's unit (None: all).
        A method evaluated at all features only (AF) keeps its one budget.
    """

    datasets: tuple[str, ...]
    folds: tuple[int, ...] | None = None
    budgets: tuple | None = None


@dataclass(frozen=True)
class Suite:
    """A study a method can be benchmarked against (:func:`run_benchmark`).

    Attributes
    ----------
    name : str
        What ``mlfs benchmark --suite`` takes.
    title : str
        One line for tables, figures and the app.
    config : path
        The study's experiment config (TOML). Its datasets, protocol and seed
        are the benchmark's.
    data_dir : path
        The committed per-dataset data: ``<data_dir>/<dataset>/`` with
        ``results.csv.gz``, ``selections.csv.gz``, ``timings.csv`` and
        ``meta.json``.
    methods : tuple of str
        Labels of the config's methods the benchmarked method is compared with.
    metric : str
        The headline metric (the average rank per budget is given for it).
    quick : QuickPlan
    base_dir : path, optional
        Folder the config's relative dataset paths are resolved against
        (default: the config's folder).
    datasets_dir : path, optional
        Where the datasets are: each dataset of the config is read from
        ``<datasets_dir>/<its folder name>`` instead of its path.
    description : str
    """

    name: str
    title: str
    config: Path
    data_dir: Path
    methods: tuple[str, ...]
    metric: str
    quick: QuickPlan
    base_dir: Path | None = None
    datasets_dir: Path | None = None
    description: str = ""

    def load_config(self, *, trust_plugins: bool = False):
        """The suite's :class:`~mlfs_core.evaluation.ExperimentConfig`.

        A config naming plug-in code not installed here is refused before
        anything is imported, unless ``trust_plugins``
        (:mod:`mlfs_core.evaluation.runner.guard.trust`).

        Raises
        ------
        ConfigError
            When the config file is missing (a suite reads its study from a
            checkout of the repository), or names untrusted plug-in code.
        """
        from ..evaluation.config import DatasetSpec, load_config
        from ..evaluation.runner.guard.trust import check_config_trusted

        path = Path(self.config)
        if not path.is_file():
            raise ConfigError(
                f"suite {self.name!r}: its config {path} is not there; point "
                "mlfs benchmark --studies DIR at a folder laid out as the "
                "repository (configs/ and studies/, e.g. a checkout)"
            )
        check_config_trusted(path, trust=trust_plugins, command="mlfs benchmark")
        config = load_config(path)
        if self.base_dir is not None:
            config = replace(config, base_dir=str(self.base_dir))
        if self.datasets_dir is not None:
            moved = tuple(
                replace(d, path=str(Path(self.datasets_dir) / Path(d.path).name))
                if isinstance(d, DatasetSpec)
                else d
                for d in config.datasets
            )
            config = replace(config, datasets=moved)
        labels = [m.display for m in config.methods]
        missing = [m for m in self.methods if m not in labels]
        if missing:
            raise ConfigError(
                f"suite {self.name!r}: methods {missing} are not in {path.name} "
                f"(it has {labels})"
            )
        return config


SUITES: dict[str, Suite] = {}
"""Suite name -> :class:`Suite`, in registration order."""


def relocated(suite: Suite, *, studies=None, data=None) -> Suite:
    """``suite`` with its study files and datasets read from other folders.

    Parameters
    ----------
    suite : Suite
    studies : path, optional
        A folder laid out as the repository: the config is read from
        ``<studies>/configs/<the config's file name>`` and the committed data
        from ``<studies>/studies/<suite name>/data`` (``mlfs benchmark
        --studies``).
    data : path, optional
        The folder holding the datasets' folders (``mlfs benchmark`` passes
        ``--data``, else ``$MLFS_DATASETS``).

    Returns
    -------
    Suite

    Examples
    --------
    >>> s = Suite("x", "X", Path("c/study_x.toml"), Path("d"), ("A",), "m",
    ...           QuickPlan(("a",)))
    >>> r = relocated(s, studies="/repo", data="/sets")
    >>> r.config.as_posix(), r.data_dir.as_posix(), r.datasets_dir.as_posix()
    ('/repo/configs/study_x.toml', '/repo/studies/x/data', '/sets')
    """
    changes: dict = {}
    if studies is not None:
        root = Path(studies)
        changes["config"] = root / "configs" / Path(suite.config).name
        changes["data_dir"] = root / "studies" / suite.name / "data"
        changes["base_dir"] = root
    if data is not None:
        changes["datasets_dir"] = Path(data)
    return replace(suite, **changes) if changes else suite


def check_datasets_present(suite: Suite, specs) -> None:
    """Refuse, naming ``--data`` and ``MLFS_DATASETS``, a dataset not found."""
    from ..evaluation.config import DatasetSpec

    for spec in specs:
        if not isinstance(spec, DatasetSpec):
            continue
        path = Path(spec.path)
        if suite.base_dir is not None and not path.is_absolute():
            path = Path(suite.base_dir) / path
        if not path.exists():
            where = suite.datasets_dir
            now = f"searched {where}" if where else "no datasets folder was given"
            raise ConfigError(
                f"suite {suite.name!r}: dataset {path.name!r} not found at {path}; "
                "pass mlfs benchmark --data DIR (the folder holding the datasets' "
                f"folders) or set MLFS_DATASETS to it ({now})"
            )


def register_suite(suite: Suite) -> Suite:
    """Make ``suite`` available to :func:`run_benchmark` (re-registering replaces it).

    Parameters
    ----------
    suite : Suite

    Returns
    -------
    Suite
    """
    if not isinstance(suite, Suite):
        raise ConfigError(f"register_suite needs a Suite, got {type(suite).__name__}")
    SUITES[suite.name] = suite
    return suite


def _load_installed_plugins() -> None:
    from ..plugins import load_plugins

    load_plugins(entry_points=True, environment=True)


def list_suites() -> list[str]:
    """Names of the registered suites (installed plug-ins loaded first)."""
    _load_installed_plugins()
    return list(SUITES)


def get_suite(name: str) -> Suite:
    """The registered suite ``name``.

    Raises
    ------
    ConfigError
        For an unknown name; the message lists the registered suites and
        says where suites come from (installed plug-ins).
    """
    if name not in SUITES:
        _load_installed_plugins()
    try:
        return SUITES[name]
    except KeyError:
        raise ConfigError(
            f"unknown suite {name!r}; registered: {sorted(SUITES) or 'none'}. "
            "Suites come from installed plug-ins (entry-point group "
            f"{PLUGIN_GROUP}), which register them with "
            "mlfs_core.benchmark.register_suite"
        ) from None
