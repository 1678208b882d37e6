"""Work and memory bounded before they start.

:func:`plan_experiment` calls :func:`check_task_count` on the config alone
(before any dataset is loaded or any task key is hashed) and
:func:`check_memory` once the datasets are loaded (before the task grid is
built): a run whose estimate is above the limit is refused with the estimate
in the message. The limits are :data:`DEFAULT_MAX_TASKS` and
:func:`default_max_memory`; ``mlfs experiment --max-tasks N --max-memory
SIZE`` (and the ``max_tasks=`` / ``max_memory=`` arguments) raise them.

The task count is exact for count budgets and an upper bound otherwise
(percent budgets that round to the same k are one task). The memory estimate
is of the largest single allocation of a task (not of the whole process):

- the dataset's feature matrix as loaded (sparse: 12 bytes per stored value);
- a dense float64 copy of the training part's columns, where the classifier
  input is discretized (``n_train x M x 8`` bytes);
- ML-kNN's distances of the test part to the training part
  (``n_test x n_train x 8``);
- per-feature bin tables of a discretization (``M x bins x 8``), for the
  protocol's ``bins`` and any method's ``bins`` option.
"""

from __future__ import annotations

import os

from ....errors import ConfigError

DEFAULT_MAX_TASKS = 1_000_000
"""Selections plus fits a run may have unless the user raises the limit."""


def default_max_memory() -> int:
    """Half of this machine's physical memory, in bytes (8 GiB where unknown)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 8 << 30


def parse_size(text: str) -> int:
    """Bytes of a size such as ``"512M"``, ``"4G"``, ``"2.5GiB"`` or ``"1000000"``.

    Examples
    --------
    >>> parse_size("4G"), parse_size("512m"), parse_size("1000")
    (4294967296, 536870912, 1000)
    """
    units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    s = str(text).strip().lower().removesuffix("ib").removesuffix("b")
    unit = s[-1:] if s[-1:] in units else ""
    try:
        value = float(s[: len(s) - len(unit)])
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise ConfigError(
            f"a memory size must be a positive number with an optional unit K, M, "
            f"G or T (e.g. 4G), got {text!r}"
        )
    return int(value * units[unit])


def human(n: float) -> str:
    """``n`` bytes as text (``"7.45 GiB"``).

    Examples
    --------
    >>> human(8 * 10**9), human(512)
    ('7.45 GiB', '512 B')
    """
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= size:
            return f"{n / size:.2f} {unit}"
    if n >= 1 << 10:
        return f"{n / 1024:.2f} KiB"
    return f"{int(n)} B"


def _stochastic(name: str) -> bool:
    from ....selectors._registry import get_method

    try:
        return bool(get_method(name).stochastic)
    except ConfigError:
        return True  # a plug-in not loaded yet: count its repeats (upper bound)


def estimate_tasks(config) -> tuple[int, int]:
    """(selections, fits) of ``config``'s grid, from the config alone.

    Examples
    --------
    >>> from mlfs_core.evaluation import ExperimentConfig
    >>> estimate_tasks(ExperimentConfig(datasets=("sample",), methods=("MaxCS",)))
    (5, 250)
    """
    p = config.protocol
    folds = {"cv": p.n_folds, "repeated_holdout": p.n_holdouts}.get(p.split, 1)
    n_budgets = len(p.budgets)
    selections = fits = 0
    for m in config.methods:
        repeats = p.n_repeats if _stochastic(m.name) else 1
        per_dataset = folds * repeats
        selections += per_dataset
        fits += per_dataset * (1 if m.name == "AF" else n_budgets)
    n = len(config.datasets)
    return selections * n, fits * n


def check_task_count(config, max_tasks: int | None = None) -> int:
    """Refuse ``config`` when its grid has more than ``max_tasks`` tasks.

    Returns
    -------
    int
        The estimated number of tasks.

    Raises
    ------
    ConfigError
        With the estimate and how to raise the limit.
    """
    limit = DEFAULT_MAX_TASKS if max_tasks is None else int(max_tasks)
    selections, fits = estimate_tasks(config)
    total = selections + fits
    if total > limit:
        raise ConfigError(
            f"the run would have about {total:,} tasks ({selections:,} selections, "
            f"{fits:,} fits), above the limit of {limit:,}: reduce the grid "
            "(datasets, methods, folds, repeats, budgets) or raise the limit with "
            "--max-tasks (max_tasks=)"
        )
    return total


def _largest_allocation(datasets, methods, protocol) -> tuple[int, str]:
    """The estimated largest single allocation of a task, and what it is.

    Parameters
    ----------
    datasets : list of PreparedDataset
    methods : list of PreparedMethod
    protocol : ProtocolConfig
    """
    bins = [protocol.bins] if protocol.discretize != "none" else []
    for m in methods:
        b = m.params.get("bins") if isinstance(m.params, dict) else None
        if isinstance(b, int):
            bins.append(b)
    best, what = 0, "nothing"
    for d in datasets:
        X = d.dataset.X
        n, M = X.shape
        nnz = getattr(X, "nnz", n * M)
        train = max((len(tr) for tr, _ in d.splits), default=n)
        test = max((len(te) for _, te in d.splits), default=0)
        parts = [(nnz * 12 + (n + 1) * 8, f"{d.name}'s feature matrix")]
        if protocol.discretize != "none":
            parts.append((train * M * 8, f"{d.name}'s discretized training columns"))
        if protocol.classifier.name == "mlknn":
            parts.append((test * train * 8, f"ML-kNN distances on {d.name}"))
        for b in bins:
            parts.append((M * b * 8, f"{d.name}'s bin tables ({b:,} bins)"))
        for size, name in parts:
            if size > best:
                best, what = size, name
    return best, what


def check_memory(datasets, methods, protocol, max_memory: int | None = None) -> int:
    """Refuse a run whose largest allocation is estimated above ``max_memory`` bytes.

    Returns
    -------
    int
        The estimate, in bytes.

    Raises
    ------
    ConfigError
        With the estimate, what it is, and how to raise the limit.
    """
    limit = default_max_memory() if max_memory is None else int(max_memory)
    size, what = _largest_allocation(datasets, methods, protocol)
    if size > limit:
        raise ConfigError(
            f"the run's largest allocation is estimated at {human(size)} ({what}), "
            f"above the limit of {human(limit)}: reduce it (bins, datasets) or raise "
            "the limit with --max-memory (max_memory=)"
        )
    return size
