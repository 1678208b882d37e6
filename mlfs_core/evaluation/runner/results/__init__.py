"""A run's results: its tidy tables, their verification and its diagnosis.

- :mod:`.tables`: :func:`~.tables.result_tables`, the tables of an outcome,
  and the :func:`~.tables.environment` its values were computed in;
- :mod:`.verify`: ``mlfs verify``, a stored run's fits recomputed and
  compared;
- :mod:`.diagnose`: a difference explained by a code change or an edited
  table.

The runner's public names are exported by :mod:`mlfs_core.evaluation.runner`.
"""
