"""Text of the About page: the app in a paragraph; methods, families and their
sources from the registry."""

from __future__ import annotations

import pandas as pd

import mlfs_core

INTRO = """
MLFS Explorer compares **multi-label feature selection** methods: it ranks the
features of a dataset whose samples carry several labels at once, then checks how
well a classifier does with only the top features. It puts the figures and tables of
published comparisons live in the browser, on the bundled sample data or on your own
datasets.

- **Data**: statistics (N, M, q, label cardinality LC, density LD, distinct label
  sets DC), label frequencies and co-occurrence.
- **Rank features**: one method's ranking, two methods side by side, and on the
  sample data how well each method finds the planted informative words.
- **Experiment**: protocol A (k-fold CV, BR + linear SVM, budgets in %) or
  protocol B (train/test, ML-kNN, top 1..50 features).
- **Average ranks**, **Similarity**, **Metric vs budget**: analyses of experiment
  results (the studies a plug-in registers, the sample's, your session's, or a
  results CSV).
- **Learn**: a score, an aggregation and a greedy step, step by step, with every
  number on the current dataset.
"""


ANALYSIS_REFERENCES = """
- G. Forman, *A pitfall and solution in multi-class feature selection for text
  classification*, HPL-2004-86 (Round-Robin, Rand-Robin).
- J. Demšar, *Statistical comparisons of classifiers over multiple data sets*,
  JMLR 7 (2006) (Friedman test, Nemenyi critical difference).
- L. I. Kuncheva, *A stability index for feature selection*, AIA 2007 (similarity).
"""


def references() -> str:
    """Markdown list of the registered methods' sources: each distinct
    ``citation`` once, in registry order, with the methods that cite it, then
    the sources of the analyses (:data:`ANALYSIS_REFERENCES`)."""
    cited: dict[str, list[str]] = {}
    for name in mlfs_core.list_methods():
        citation = mlfs_core.get_method(name).citation
        if citation:
            cited.setdefault(citation, []).append(name)
    lines = [f"- {citation}: {', '.join(names)}." for citation, names in cited.items()]
    return "\n".join(lines) + ANALYSIS_REFERENCES


def method_table(family: str) -> pd.DataFrame:
    """Name, one-sentence description, default options and source publication
    (its spec's ``citation``) of each method of a family."""
    rows = []
    for name in mlfs_core.list_methods(family):
        spec = mlfs_core.get_method(name)
        # "none", not "-": st.table renders a lone "-" as a Markdown bullet
        options = "; ".join(o.describe() for o in spec.options) or "none"
        rows.append(
            {
                "Method": name,
                "What it does": spec.description,
                "Stochastic": "yes" if spec.stochastic else "no",
                "Options (defaults)": options,
                "Source": spec.citation or "none",
            }
        )
    return pd.DataFrame(rows)


PLUGINS_NOTE = """
Plug-ins bring methods, classifiers and metrics of your own. The server loads
them when it starts, from its side only: installed packages (entry-point group
`mlfs_explorer.plugins`) and the files or modules named by `MLFS_PLUGINS` in the
environment of whoever starts it. The app never accepts code from the browser.
"""


def plugin_list(infos) -> str:
    """Markdown list of the loaded plug-ins: name (the file's, for a file),
    how it was named, and what it registered (methods with their versions).
    No file digest: a string of hex digits says nothing to a reader of the
    page (``PluginInfo.digest`` keeps it for the code that checks files).

    Parameters
    ----------
    infos : sequence of mlfs_core.plugins.PluginInfo
    """
    lines = []
    for info in infos:
        methods = ", ".join(
            f"`{name}` (version {version})" if version else f"`{name}`"
            for name, version in info.methods
        )
        parts = [
            f"methods: {methods or 'none'}",
            f"classifiers: {', '.join(info.classifiers) or 'none'}",
            f"metrics: {', '.join(info.metrics) or 'none'}",
        ]
        lines.append(f"- **{info.name}** ({info.kind}): " + "; ".join(parts))
    return "\n".join(lines)


RULES = """
Every number the app shows is deterministic; these rules decide the close calls:

- **Ties in rankings**: equal scores keep the lower feature index first, and
  "equal" means equal in exact arithmetic (CS is computed from exact integer
  counts; BNS and Mean are arranged so that mathematically equal values are
  bit-equal).
- **CS and BNS on dense data**: a feature is *present* when non-zero (the papers'
  rule for text). On dense numeric data almost every feature is non-zero
  everywhere and the scores tie; choose "above its median" (`binarize = median`).
- **ML-kNN neighbours**: distance ascending, equal distances by the lower training
  index, never itself; the same on every machine and thread count. Optional
  `minmax` scaling as in Mulan.
- **Protocol A fits**: the linear SVM always sees the same sparse representation;
  the experiment's summary says how many per-label fits stopped at liblinear's
  iteration limit, and `l2-rows` scaling makes them converge.
- **Friedman test**: the chi-squared form and Iman-Davenport's F (recommended by
  Demšar) are both shown.
"""


def metric_table() -> pd.DataFrame:
    """Each metric of the registry: name, direction and what it measures."""
    from mlfs_core.evaluation import METRICS

    return pd.DataFrame(
        [
            {
                "Metric": name,
                "Better": "higher" if spec.higher_is_better else "lower",
                "Uses": "label scores" if spec.needs_scores else "0/1 predictions",
                "What it measures": spec.description,
            }
            for name, spec in METRICS.items()
        ]
    )
