"""What every file of ``mlfs experiment --out`` holds: ``README.md``.

:data:`OUTPUT_FILES` describes each file and its columns (the user guide
gives the same text); :func:`readme_markdown` renders the descriptions of the
files a folder holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..columns import DATASET, FEATURES, METHOD, METRIC
from ..evaluation.io import FEATURE_NAMES
from ..evaluation.outputs import (
    CONFIG_FILE,
    ENVIRONMENT_FILE,
    RESULTS_FILE,
    SELECTIONS_FILE,
    TIMINGS_FILE,
    TUNING_FILE,
)
from ..evaluation.runner import ExperimentResult
from ._summary import SUMMARY_FILE

PARQUET_FILE = "results.parquet"
README_FILE = "README.md"

_BUDGET_COLUMN = (
    "budget_pct or budget: the budget of the row, as a percentage of the "
    "features when the protocol gives percentages (budget_unit = percent), "
    "else as a number of features"
)

OUTPUT_FILES: dict[str, tuple[str, dict[str, str]]] = {
    RESULTS_FILE: (
        "One row per dataset, method, budget, fold, repeat and metric: every "
        "value the experiment measured (read it with "
        "mlfs_core.evaluation.read_results).",
        {
            DATASET: "the dataset's name",
            "protocol": "the protocol preset's name (field, or a plug-in's)",
            METHOD: "the method's label (its name unless the config sets label)",
            "budget": "number of selected features k",
            "budget_pct": "k as the percentage of the features it came from; "
            "empty for count budgets, 100 for AF",
            "fold": "cross-validation fold (0 for a train/test split)",
            "repeat": "run of a stochastic method (RaR, Random), 0 otherwise",
            METRIC: "the metric's name (micro_f1, hamming_loss, ...)",
            "value": "the metric's value on the test part",
        },
    ),
    PARQUET_FILE: (
        "The same table as results.csv in Parquet (written when pyarrow is installed).",
        {},
    ),
    CONFIG_FILE: (
        "The experiment's config with the dataset paths resolved: "
        "mlfs verify DIR reruns it. It holds only the protocol fields its split "
        "uses (no n_folds for a train/test run).",
        {},
    ),
    SELECTIONS_FILE: (
        "One row per ranking: the features each method chose on each training "
        "part, best first, at the largest budget (smaller budgets are its "
        "prefixes; read it with mlfs_core.evaluation.read_selections).",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            "fold": "the fold whose training part was ranked",
            "repeat": "run of a stochastic method, 0 otherwise",
            "n_features": "number of features M of the dataset",
            FEATURES: "the ranked feature indices (0-based columns), "
            "space-separated, best first",
            FEATURE_NAMES: "the same ranking as feature names, separated by the "
            "character | (a | inside a name is preceded by a backslash)",
        },
    ),
    TIMINGS_FILE: (
        "One row per task stage: where the time went and how the classifier's "
        "solver fared.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            "budget": "number of selected features (empty for selections)",
            "fold": "the fold",
            "repeat": "the run",
            "stage": "selection, fit, predict or metrics",
            "seconds": "wall time of the stage when it was computed (a task "
            "taken from the cache keeps its recorded time)",
            "n_fitted": "fit rows: per-label classifiers fitted",
            "n_not_converged": "fit rows: of those, how many stopped at max_iter",
            "max_n_iter": "fit rows: the largest solver iteration count (empty "
            "for a classifier without an iterative solver)",
            "reused": "fit rows: 1 when the values were copied from an identical "
            "fit (same columns, same fold)",
        },
    ),
    ENVIRONMENT_FILE: (
        "Where the values were computed: engine (the engine version and cache "
        "format), blas (the BLAS library and kernel), kernel_dependent (whether "
        "the classifier's values follow the BLAS kernel), fit_kernels (the "
        "kernels the kernel-dependent fits ran under) and plugins (the code "
        "identity of each plug-in method, variant, classifier and metric the "
        "run used: kind, name, file, version, digest; mlfs verify compares "
        "it with the code it finds).",
        {},
    ),
    "ranks.csv": (
        "Average rank of each method over the datasets, per metric and budget "
        "(the metric's direction is taken into account).",
        {
            "budget_pct": _BUDGET_COLUMN,
            METHOD: "the method's label",
            "mean": "mean rank over the datasets (1 = best; ties share the "
            "average rank)",
            "std": "population standard deviation of the ranks",
            "n_datasets": "datasets ranked",
            "best": "True for the lowest mean rank of the budget (every tied minimum)",
            METRIC: "the metric ranked by",
        },
    ),
    "friedman.csv": (
        "Friedman's test of equal ranks, per metric and budget, with the "
        "Nemenyi critical difference; budgets with fewer than 2 datasets are "
        "left out.",
        {
            "budget_pct": _BUDGET_COLUMN,
            "statistic": "Friedman's chi-squared statistic",
            "pvalue": "its p-value (chi-squared with m - 1 degrees of freedom)",
            "iman_davenport": "Iman and Davenport's F statistic (infinite when "
            "every dataset ranks the methods the same way)",
            "iman_davenport_pvalue": "its p-value",
            "cd": "Nemenyi critical difference of mean ranks at alpha = 0.05",
            "n_datasets": "datasets N",
            "n_methods": "methods m",
            METRIC: "the metric tested",
        },
    ),
    "curves.csv": (
        "The metric-vs-budget curves: each metric's mean and spread over the "
        "folds and repeats, per dataset, method and budget.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            METRIC: "the metric's name",
            "budget_pct": _BUDGET_COLUMN,
            "mean": "mean over the n_runs values",
            "std": "population standard deviation over them",
            "lower": "mean - std: the lower edge of the band a plot draws",
            "upper": "mean + std: the upper edge of that band (lower = upper = "
            "mean for a single run)",
            "min": "smallest value",
            "max": "largest value",
            "n_runs": "values averaged (folds x repeats)",
        },
    ),
    TUNING_FILE: (
        "For a method whose options were given as grids: the value chosen on "
        "each dataset and fold, on an inner hold-out of that fold's training "
        "part (the config's [tuning] table), never on its test part; "
        "mlfs verify DIR makes the choices again and compares them with it.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            "fold": "the outer fold whose training part was split",
            "option": "the option given as a grid",
            "value": "the value chosen",
            "score": "the tuning metric's mean over the budgets on the inner "
            "validation part",
        },
    ),
    "dataset_means.csv": (
        "Per dataset, method and metric, the mean over the budgets of the "
        "per-budget means (one cell of a results table averaged over k).",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            METRIC: "the metric's name",
            "mean": "mean over the budgets of the curve's means",
            "std": "population standard deviation of those per-budget means",
            "n_budgets": "budgets averaged",
        },
    ),
    "similarity.csv": (
        "Kuncheva's consistency index between the methods' top-k subsets at "
        "the middle budget, averaged over the datasets and folds (repeat 0; AF "
        "left out). A square table: the first column names the row's method, "
        "the other columns are the methods; the diagonal is 1, 0 is chance "
        "agreement.",
        {METHOD: "the row's method (the other columns: one per method)"},
    ),
    "recovery.csv": (
        "For a dataset with a planted_truth.json: how many of the planted "
        "informative features each ranking's top k holds.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label (AF left out)",
            "fold": "the fold",
            "repeat": "the run",
            "k": "top-k size",
            "precision": "share of the top k that are planted features",
        },
    ),
    SUMMARY_FILE: (
        "A short report: the grid, then per chosen metric (mlfs experiment "
        "--summary-metric, default micro_f1) the average ranks and the Friedman "
        "tests.",
        {},
    ),
    README_FILE: ("This description of the folder's files.", {}),
}
"""Every file ``mlfs experiment --out`` writes: what it holds and its columns.

``README.md`` is written from it, and the user guide gives the same
descriptions; a table's budget column is ``budget_pct`` or ``budget``.
"""


def readme_markdown(
    names: Sequence[str], result: ExperimentResult | None = None
) -> str:
    """The ``README.md`` of an output folder: each of ``names`` column by column.

    Parameters
    ----------
    names : sequence of str
        The files of the folder (names of :data:`OUTPUT_FILES`), in order;
        ``README.md`` itself is described last.
    result : ExperimentResult, optional
        Names the experiment in the title.

    Examples
    --------
    >>> text = readme_markdown(["curves.csv"])
    >>> "| lower | mean - std" in text
    True
    """
    from ._summary import markdown_text

    title = (
        f"experiment {markdown_text(result.config.name)}"
        if result is not None
        else "experiment"
    )
    lines = [
        f"# Output files of the {title}",
        "",
        "Written by `mlfs experiment`; the user guide's page on experiments "
        "describes the same files. Tables are CSV with a header row, one "
        "observation per row.",
    ]
    for name in [*dict.fromkeys([*names, README_FILE])]:
        if name not in OUTPUT_FILES:
            continue
        what, columns = OUTPUT_FILES[name]
        lines += ["", f"## {name}", "", what]
        if columns:
            lines += ["", "| column | meaning |", "|---|---|"]
            lines += [f"| {c} | {_cell(m)} |" for c, m in columns.items()]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    r"""``text`` for a Markdown table cell: each ``|`` escaped.

    Examples
    --------
    >>> _cell("a | b")
    'a \\| b'
    """
    return text.replace("|", "\\|")
