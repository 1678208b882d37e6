"""What the app shows: panels, curve bands, metric directions, run estimates,
the Experiment form's parsing and config, and user-facing message text.

The app-facing layer, beside :mod:`mlfs_core.plots` and
:mod:`mlfs_core.report`: pure functions from results tables, configs and
registries to what a page draws or says. The app's cache
(``ui/cached.py``) wraps them; its pages hold no rule of their own.

- :mod:`.panels`: methods grouped into measure panels, their titles and the
  average ranks within each (:func:`panel_ranks`);
- :mod:`.results`: metric directions, the blocks and post-hoc tests of the
  Average ranks page, curve bands with the mean ± std fallback, similarity
  parts;
- :mod:`.form`: the Experiment form's choices, budget and whole-number
  parsing, :func:`build_config` and the sentence stating a config;
- :mod:`.runtime`: the run-time estimate (plan, probe, extrapolate) and
  the time left of a running experiment;
- :mod:`.messages`: loader messages in the upload form's words.

Names are imported on first use (the estimate imports the runner).
"""

from __future__ import annotations

from .._lazy import lazy_exports

_EXPORTS = {
    "measure_panels": ".panels",
    "panel_ranks": ".panels",
    "panel_title": ".panels",
    "BAND_COLUMNS": ".results",
    "PAIRWISE_TESTS": ".results",
    "POSTHOC_ALPHA": ".results",
    "block_at_budget": ".results",
    "control_table": ".results",
    "curve_bands": ".results",
    "friedman_at": ".results",
    "keeps_all_features": ".results",
    "means_by_dataset": ".results",
    "known_direction": ".results",
    "metric_direction": ".results",
    "metric_label": ".results",
    "metric_rows": ".results",
    "pairwise_pvalues": ".results",
    "read_band": ".results",
    "similarity_part": ".results",
    "FOLDS": ".form",
    "REPEATS": ".form",
    "SEED": ".form",
    "SPLITS": ".form",
    "TEACHING_BUDGETS": ".form",
    "budget_label": ".form",
    "build_config": ".form",
    "config_digest": ".form",
    "evaluation_choices": ".form",
    "methods_by_family": ".form",
    "offers_evaluation": ".form",
    "parse_budgets": ".form",
    "protocol_choices": ".form",
    "quick_budgets": ".form",
    "run_statement": ".form",
    "settings_text": ".form",
    "split_options": ".form",
    "teaching_defaults": ".form",
    "teaching_methods": ".form",
    "uses_knn": ".form",
    "whole_number": ".form",
    "LONG_RUN_S": ".runtime",
    "estimate": ".runtime",
    "estimate_text": ".runtime",
    "extrapolate": ".runtime",
    "eta_text": ".runtime",
    "UPLOAD_FORM_HINT": ".messages",
    "upload_form_words": ".messages",
}

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__
