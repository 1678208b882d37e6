"""Planning a run: every task listed and checked before any runs.

- :mod:`.prepare`: the config resolved and validated (datasets loaded and
  split, methods and budgets checked);
- :mod:`.bounds`: the run's task count and memory bounded before it starts;
- :mod:`.grid`: :func:`~.grid.plan_experiment`, the :class:`~.grid.Plan` of
  selection and fit tasks, each keyed by
  :mod:`~mlfs_core.evaluation.runner.identity`;
- :mod:`.tuning`: :func:`~.tuning.plan_tuned`, grid options chosen on inner
  splits first.

The runner's public names are exported by :mod:`mlfs_core.evaluation.runner`.
"""
