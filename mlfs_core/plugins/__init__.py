"""Bring your own code: load plug-ins that register methods, classifiers and metrics.

A *plug-in* is a Python module that, when imported, registers what it brings
through the public functions :func:`mlfs_core.selectors.register` (ranking
methods), :func:`mlfs_core.evaluation.classifiers.register_classifier`
(classifiers) and :func:`mlfs_core.evaluation.metrics.register_metric`
(metrics). It reaches the engine in one of four ways, all ending in
:func:`load_plugins`:

- the Python API: ``load_plugins(["mine.py"])`` or ``load_plugins(["my_pkg"])``;
- the command line: ``mlfs --plugin mine.py experiment ...`` or
  ``mlfs experiment --plugin mine.py ...`` (repeatable, every sub-command);
- an experiment config: ``plugins = ["mine.py"]`` (paths relative to the
  config file, like its dataset paths);
- installed packages: the entry-point group ``mlfs_explorer.plugins``
  (:data:`PLUGIN_GROUP`), and the environment variable ``MLFS_PLUGINS``
  (:data:`ENV_VAR`, specs separated by :data:`os.pathsep`). These two are the
  only ways into the app: it never accepts uploaded code.

A *spec* is an importable module name (``"my_pkg.methods"``) or the path of a
``.py`` file. A file's folder is added to the end of ``sys.path`` when it is
loaded, so the file can import the helper modules beside it (``from myhelper
import score``) from any working directory, in every process that loads it; an
installed module of the same name comes first, and two plug-in folders holding
helpers of one name share the first one imported. Loading is idempotent: a
spec already loaded in this process is not loaded again. A file is identified
by its resolved path and the SHA-256 digest of its bytes; asking again for a
file whose bytes changed since it was loaded raises
:class:`~mlfs_core.errors.ConfigError` (a process cannot hold two versions of
one method; restart it). The digest of a plug-in's file and each method's
``version`` enter the method's cache keys, so changed code never returns stale
cached values.

Worker processes (joblib/loky, Dask, ``GridSearchCV(n_jobs=...)``) load the
same plug-ins: the runner sends :func:`plugin_specs` along with each task and
the worker calls :func:`ensure_plugins` before running it; a pickled
:class:`~mlfs_core.selectors.MultiLabelSelector` carries them too. This
module never changes ``os.environ``: to give plug-ins to processes you start
yourself, set ``MLFS_PLUGINS`` before starting them.

The package sits below every registry: the registries declare themselves to
it (:class:`Registry`, :func:`add_registry`) and it imports none of them.
Its parts: :mod:`._loader` (finding and importing plug-ins),
:mod:`._registries` (the registries' declarations) and :mod:`._workers`
(handing plug-ins to worker processes).
"""

from __future__ import annotations

from ._loader import (
    ENV_VAR,
    PLUGIN_GROUP,
    PluginInfo,
    checkpoint,
    config_plugins,
    ensure_plugins,
    file_digest,
    load_plugins,
    loaded_plugins,
    plugin_specs,
    rollback,
)
from ._registries import Registry, add_registry
from ._workers import pack, registered_here, run_with_plugins

PUBLIC_MODULES = (
    "mlfs_core",
    "mlfs_core.analysis",
    "mlfs_core.benchmark",
    "mlfs_core.blas",
    "mlfs_core.cache",
    "mlfs_core.columns",
    "mlfs_core.data",
    "mlfs_core.errors",
    "mlfs_core.evaluation",
    "mlfs_core.evaluation.classifiers",
    "mlfs_core.evaluation.conventions",
    "mlfs_core.evaluation.metrics",
    "mlfs_core.evaluation.outputs",
    "mlfs_core.evaluation.predefined",
    "mlfs_core.explain",
    "mlfs_core.lessons",
    "mlfs_core.measures",
    "mlfs_core.measures.binning",
    "mlfs_core.options",
    "mlfs_core.plots",
    "mlfs_core.plugins",
    "mlfs_core.published",
    "mlfs_core.report",
    "mlfs_core.selectors",
    "mlfs_core.selectors.it",
    "mlfs_core.views",
)
"""The engine modules a plug-in (``mlfs_papers`` and the studies included) may
import: the public packages and the documented single-file modules. Every
other module is internal and may move without notice; what a plug-in needs
from one is exported by a package here (in its ``__all__``)."""

__all__ = [
    "ENV_VAR",
    "PLUGIN_GROUP",
    "PUBLIC_MODULES",
    "PluginInfo",
    "Registry",
    "add_registry",
    "checkpoint",
    "config_plugins",
    "ensure_plugins",
    "file_digest",
    "load_plugins",
    "loaded_plugins",
    "pack",
    "plugin_specs",
    "registered_here",
    "rollback",
    "run_with_plugins",
]
