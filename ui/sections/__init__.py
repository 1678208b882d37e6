"""Per-page sections of the app, each used by one page or one group of pages.

- :mod:`.about`: the About page;
- :mod:`.experiment`, :mod:`.experiment_form`, :mod:`.run_figure`: the
  Experiment page (config from widgets, the form, the run's figure);
- :mod:`.full_ranking`, :mod:`.methods`: the Rank features page;
- :mod:`.learn`: the three Learn pages;
- :mod:`.published`: on the Average ranks and Similarity pages, a registered
  publication's numbers beside its study's results.

Sections import the shared helpers of :mod:`ui` (``from .. import cached``);
the shared helpers never import a section.
"""
