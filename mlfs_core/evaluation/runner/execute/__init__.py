"""Executing a plan: tasks run (or read from the cache) in worker processes.

- :mod:`.run`: :func:`~.run.execute_plan` and its :class:`~.run.Outcome`;
- :mod:`.tasks`: the two kinds of task, a selection and a classifier fit;
- :mod:`.fits`: every fit of a plan, identical fits reused and protocol B's
  budgets of a ranking fitted together;
- :mod:`.pool`: the task pool (cache first, then joblib; the pinned-kernel
  worker);
- :mod:`.stops`: clean stops, no worker outliving its run;
- :mod:`.cluster`: the pool on a Dask cluster.

The runner's public names are exported by :mod:`mlfs_core.evaluation.runner`.
"""
