"""The engine's version, in a module of its own that imports nothing.

Everything that records which engine computed a value (the runner's
``environment.json``, the cache's :func:`~mlfs_core.cache.engine_id`, the
command line's ``--version``) reads it from here, so none of them imports the
package ``__init__`` (the top of the layers).
"""

__version__ = "0.2.0"
"""The version of the ``mlfs-explorer`` distribution (``pyproject.toml``'s)."""
