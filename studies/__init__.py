"""The reproduction studies: running them and reporting on them.

- :mod:`studies.run_study` runs one study's config dataset by dataset
  (``python -m studies.run_study paper000 --datasets enron``), resumably;
- :mod:`studies.partial` exports a dataset's finished tasks as committed
  partial data and imports them into another machine's task cache;
- :mod:`studies.report` builds ``docs/reproduction.md`` from the committed data
  (``python -m studies.report``).

The package is not installed with :mod:`mlfs_core`: run it from the project root.
"""
