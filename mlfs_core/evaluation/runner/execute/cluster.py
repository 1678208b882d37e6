"""Run an experiment's tasks on a Dask cluster, without the app.

:func:`dask_backend` connects to a ``dask.distributed`` scheduler and routes
joblib (the runner's task pool) through it. The cluster only computes: each
task gets its arrays from the parent process and returns a small dict; the
*parent* writes every result to its cache folder as it arrives (atomic
write, content-addressed key: a hash of everything the value depends on).
So workers on other machines need neither the datasets nor the cache folder,
only the same ``mlfs-explorer`` version installed; an interrupted run resumes
from the parent's cache, and the values equal a one-process run's bit for
bit (tested on a ``LocalCluster`` with two worker processes).

From Python::

    from mlfs_core.evaluation.runner.execute.cluster import dask_backend
    with dask_backend("tcp://scheduler:8786"):
        result = run_experiment(config, n_jobs=-1, cache_dir="cache")

or from the shell: ``mlfs experiment CONFIG --out DIR --scheduler ADDRESS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ....errors import ConfigError


@contextmanager
def dask_backend(scheduler, *, timeout: float = 30.0) -> Iterator[object]:
    """Route joblib's parallel calls to a Dask cluster while the block runs.

    Parameters
    ----------
    scheduler : str or distributed.Client or distributed.LocalCluster
        A scheduler address (``"tcp://host:8786"``), a connected client, or a
        cluster object (tests use a ``LocalCluster``).
    timeout : float, default=30
        Seconds to wait for the scheduler.

    Yields
    ------
    distributed.Client

    Raises
    ------
    ConfigError
        When ``dask.distributed`` is not installed or the scheduler cannot be
        reached (the message names the address).
    """
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError(
            "--scheduler needs dask.distributed: pip install 'dask[distributed]'"
        ) from None
    import joblib

    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout=timeout) if own else scheduler
    except OSError as exc:
        raise ConfigError(f"cannot reach Dask scheduler {scheduler!r}: {exc}") from None
    try:
        with joblib.parallel_config(backend="dask"):
            yield client
    finally:
        if own:
            client.close()
