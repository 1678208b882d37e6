"""The reproduction of the two papers: their published results, claims and statements.

The generic engine (:mod:`mlfs_core.data`, :mod:`~mlfs_core.selectors`,
:mod:`~mlfs_core.evaluation`, :mod:`~mlfs_core.analysis`, ...) knows nothing of
the papers. Everything specific to them lives here, on top of it, in its own
distribution (``mlfs-papers``, ``mlfs_papers/pyproject.toml``): this package
imports the engine, the engine never imports this package. It reaches the
engine only through the entry-point group ``mlfs_explorer.plugins``, as any
user's plug-in: the evaluation conventions and criterion variants of paper
001's published code (:mod:`~mlfs_papers.paper001.conventions`,
:mod:`~mlfs_papers.paper001.variants`), the two studies as benchmark suites
(:mod:`~mlfs_papers.paper000.suite`, :mod:`~mlfs_papers.paper001.suite`) and
paper 000's tables beside its study for the app
(:mod:`~mlfs_papers.paper000.app`).

- :mod:`mlfs_papers.compare`: a published rank table beside a
  reproduction (differences, agreement, the constant-rank floor) and the
  verdict rule for a claim checked budget by budget;
- :mod:`mlfs_papers.statements`: a paper's rank statements scored
  against per-dataset means;
- :mod:`mlfs_papers.paper000`: Spolaôr & Tsoumakas's published
  Tables 3-6 (:mod:`~mlfs_papers.paper000.published`) and their
  claims (:mod:`~mlfs_papers.paper000.claims`);
- :mod:`mlfs_papers.paper001`: paper 001's statements and "ATR
  performs best" under several evaluations
  (:mod:`~mlfs_papers.paper001.evaluations`).

The studies that use them, and the report, are the ``studies`` package of the
repository.
"""
