"""The Markdown summary of an experiment: ``summary.md``.

:func:`summary_markdown` gives the grid in a few lines, then per chosen
metric the average ranks and the Friedman tests; :func:`markdown_table`,
:func:`convergence_line` and :func:`reuse_line` are its parts, reused by the
app and the studies.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..columns import DATASET, METRIC, N_FITTED, N_NOT_CONVERGED, REUSED
from ..errors import ConfigError
from ..evaluation.metrics import higher_is_better
from ..evaluation.runner import ExperimentResult

SUMMARY_FILE = "summary.md"

_BREAKS = "\n\r\x0b\x0c\x85\u2028\u2029"
_MARKDOWN = str.maketrans(
    {
        **{c: "\\" + c for c in "\\`[]<>|"},
        "\n": "\\n",
        "\r": "\\r",
        **dict.fromkeys(_BREAKS[2:], " "),
    }
)


def markdown_text(value) -> str:
    """``value`` as Markdown text that reads as itself: inline, never markup.

    A name comes from a user's config or data file: a newline in it would
    start a new line of the summary (``# ...`` a heading, ``- ...`` a list
    item), ``[``, ``<``, a backtick a link, HTML or code, ``|`` a new table
    cell. So line breaks are written as the two characters ``\\n``
    (``\\r``; other line separators as a space), and ``\\ ` [ ] < > |`` are
    escaped with a backslash, which renders them as themselves. (``*`` and
    ``_`` stay: at worst they emphasise part of a name, and metric names
    such as ``micro_f1`` read as written.)

    Examples
    --------
    >>> print(markdown_text("evil\\n# heading <b>x</b> | y"))
    evil\\n# heading \\<b\\>x\\</b\\> \\| y
    """
    return str(value).translate(_MARKDOWN)


def summary_metrics_of(
    results: pd.DataFrame, metrics: Sequence[str] | None
) -> tuple[str, ...]:
    """The metrics a summary reports: ``metrics`` checked, or the default one.

    Raises
    ------
    ConfigError
        Naming every metric the results do not hold, and the ones they hold.
    """
    held = list(pd.unique(results[METRIC]))
    if not metrics:
        if not held:
            return ()
        return ("micro_f1",) if "micro_f1" in held else (held[0],)
    missing = [m for m in metrics if m not in held]
    if missing:
        raise ConfigError(
            f"--summary-metric: {', '.join(missing)} not among the experiment's "
            f"metrics ({', '.join(held)})"
        )
    return tuple(metrics)


def convergence_line(timings: pd.DataFrame) -> str:
    """One sentence: per-label classifier fits and how many did not converge.

    Examples
    --------
    >>> t = pd.DataFrame({"stage": ["fit", "fit"], "n_fitted": [3, 1],
    ...                   "n_not_converged": [1, 0]})
    >>> convergence_line(t)
    'classifier solver: 4 per-label fits, 1 stopped at max_iter without converging (25.0 %)'
    """  # noqa: E501
    fits = timings[timings["stage"] == "fit"]
    total = int(fits[N_FITTED].sum())
    bad = int(fits[N_NOT_CONVERGED].sum())
    share = 100.0 * bad / total if total else 0.0
    return (
        f"classifier solver: {total} per-label fits, {bad} stopped at max_iter "
        f"without converging ({share:.1f} %)"
    )


def reuse_line(timings: pd.DataFrame) -> str:
    """One sentence: how many fits took the values of a fit on the same columns."""
    fits = timings[timings["stage"] == "fit"]
    reused = int(fits[REUSED].fillna(0).sum()) if REUSED in fits else 0
    return (
        f"{reused} of {len(fits)} fits reused an identical fit "
        "(same columns, same fold: values copied, not refitted)"
    )


def summary_markdown(
    result: ExperimentResult,
    tables: dict[str, pd.DataFrame],
    *,
    metrics: Sequence[str] | None = None,
) -> str:
    """A short Markdown report: grid size, then ranks and Friedman tests per metric.

    ``tables`` is what :func:`analysis_tables` returns for ``result``;
    ``metrics`` the metrics reported, in order (default micro-F1 when the
    results hold it, else their first metric; ConfigError for one they do
    not hold).
    """
    res, cfg = result.results, result.config
    metrics = summary_metrics_of(res, metrics)
    md = markdown_text
    lines = [
        f"# Experiment {md(cfg.name)}",
        "",
        f"- protocol {md(cfg.protocol.name)}: split {md(cfg.protocol.split)}, "
        f"classifier {md(cfg.protocol.classifier.name)}, seed {cfg.seed}",
        f"- datasets: {', '.join(map(md, pd.unique(res[DATASET])))}",
        f"- methods: {', '.join(md(m.display) for m in cfg.methods)}",
        f"- {len(res)} result rows; selection time "
        f"{_seconds(result, 'selection'):.1f} s, classifier time "
        f"{_seconds(result, 'fit') + _seconds(result, 'predict'):.1f} s",
        f"- {convergence_line(result.timings)}",
        f"- {reuse_line(result.timings)}",
        *_tuning_lines(result),
    ]
    several = len(metrics) > 1
    for metric in metrics:
        lines += _metric_section(metric, tables, several)
    return "\n".join(lines) + "\n"


def _tuning_lines(result: ExperimentResult) -> list[str]:
    """One line per tuned option: the values chosen and how often (tuning.csv)."""
    table = result.tuning
    if table is None or not len(table):
        return []
    lines = []
    for (method, option), sub in table.groupby(["method", "option"], sort=False):
        counts = sub["value"].astype(str).value_counts()
        chosen = ", ".join(f"{v} ({n}x)" for v, n in counts.items())
        lines.append(
            f"- {method}: {option} chosen per dataset and fold on an inner split "
            f"(tuning.csv): {chosen}"
        )
    return lines


def _metric_section(metric: str, tables: dict[str, pd.DataFrame], several: bool):
    direction = "higher" if higher_is_better(metric) else "lower"
    lines = [
        "",
        f"## Average rank by {markdown_text(metric)} ({direction} is better; "
        "rank 1 = best; * = best per budget)",
        "",
    ]
    ranks = tables["ranks"]
    ranks = ranks[ranks[METRIC] == metric]
    if not ranks.empty:
        by = ranks.columns[0]
        cells = [
            f"{m:.2f}{'*' if b else ''}" for m, b in zip(ranks["mean"], ranks["best"])
        ]
        wide = ranks.assign(cell=cells).pivot(index=by, columns="method", values="cell")
        lines.append(markdown_table(wide.reset_index()))
    title = "Friedman test per budget" + (f" ({metric})" if several else "")
    lines += ["", f"## {title}", ""]
    tests = tables["friedman"]
    tests = tests[tests[METRIC] == metric]
    columns = [tests.columns[0], "statistic", "pvalue", "cd", "n_datasets", "n_methods"]
    lines.append(
        markdown_table(tests[columns]) if not tests.empty else "(needs 2+ datasets)"
    )
    return lines


def _seconds(result: ExperimentResult, stage: str) -> float:
    t = result.timings
    return float(t.loc[t["stage"] == stage, "seconds"].sum())


def markdown_table(table: pd.DataFrame) -> str:
    """A pipe table of ``table`` (floats with 4 significant digits; text, the
    column names too, escaped by :func:`markdown_text`).

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"k": [1], "p": [0.123456]})))
    | k | p |
    |---|---|
    | 1 | 0.1235 |
    """

    def fmt(v) -> str:
        return f"{v:.4g}" if isinstance(v, float) else markdown_text(v)

    header = "| " + " | ".join(map(markdown_text, table.columns)) + " |"
    rule = "|" + "---|" * len(table.columns)
    rows = table.itertuples(index=False)
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join([header, rule, *body])
