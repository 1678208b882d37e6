"""The environment variables the ``mlfs`` command reads for the engine.

The engine reads none of these: the command reads them here and passes their
values down (the app's pages do the same for the app).

- ``MLFS_PLUGINS``: :func:`chosen_plugins`, plug-in specs the user chose
  (trusted by :mod:`mlfs_core.evaluation.runner.guard.trust`);
- ``MLFS_REUSE_UNIDENTIFIED``: :func:`reuse_unidentified`, the runner's
  ``reuse_unidentified`` (:mod:`mlfs_core.evaluation.runner.identity`);
- ``MLFS_SPLITS``: :func:`with_splits_dir`, a config's folder of published
  splits.
"""

from __future__ import annotations

import os


def chosen_plugins(environ=None) -> list[str]:
    """The plug-in specs of ``MLFS_PLUGINS``: code the user chose, so trusted.

    The command line reads the variable and passes the specs down
    (:func:`~mlfs_core.evaluation.runner.guard.trust.check_config_trusted`'s
    ``chosen``); the engine reads no environment for it.

    Examples
    --------
    >>> chosen_plugins({"MLFS_PLUGINS": os.pathsep.join(["a.py", "", "mod"])})
    ['a.py', 'mod']
    """
    from ..plugins import ENV_VAR

    env = os.environ if environ is None else environ
    return [s for s in env.get(ENV_VAR, "").split(os.pathsep) if s]


def reuse_unidentified(environ=None) -> bool:
    """Whether ``MLFS_REUSE_UNIDENTIFIED`` is ``1``: the runner's
    ``reuse_unidentified`` (:mod:`mlfs_core.evaluation.runner.identity`).

    Examples
    --------
    >>> reuse_unidentified({"MLFS_REUSE_UNIDENTIFIED": "1"}), reuse_unidentified({})
    (True, False)
    """
    from ..evaluation.runner.identity import REUSE_ENV

    return (os.environ if environ is None else environ).get(REUSE_ENV) == "1"


def with_splits_dir(config, environ=None):
    """``config`` with ``protocol.splits_dir`` from ``$MLFS_SPLITS`` when it has none.

    The command line is the one place that reads this environment variable
    (the engine takes the folder from the config only).

    Examples
    --------
    >>> from mlfs_core.evaluation import ExperimentConfig
    >>> c = ExperimentConfig(datasets=("sample",), methods=("MaxCS",))
    >>> with_splits_dir(c, {"MLFS_SPLITS": "/data/splits"}).protocol.splits_dir
    '/data/splits'
    >>> with_splits_dir(c, {}).protocol.splits_dir is None
    True
    """
    from dataclasses import replace

    folder = (os.environ if environ is None else environ).get("MLFS_SPLITS")
    if not folder or config.protocol.splits_dir is not None:
        return config
    return replace(config, protocol=replace(config.protocol, splits_dir=folder))
