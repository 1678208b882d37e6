"""The baselines suite's output folder: CSV and LaTeX tables, CD diagrams, summary.

Every table is written twice, as CSV (the numbers in full) and as a LaTeX
``table`` (booktabs rules, numbers rounded, the best of each row in bold
where there is one), by a small writer of this module (no template engine
needed). ``benchmark.json`` and ``results.csv.gz`` make the folder a results
source of the app, like a suite's benchmark folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..columns import DATASET, MEAN, METHOD, METRIC, STD

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "±": r"$\pm$",
}


def _latex_escape(text) -> str:
    """``text`` with LaTeX's special characters escaped.

    Examples
    --------
    >>> _latex_escape("macro_f1 & 50%")
    'macro\\\\_f1 \\\\& 50\\\\%'
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def latex_table(
    frame: pd.DataFrame, *, caption: str, label: str, bold=None, digits: int = 4
) -> str:
    """A LaTeX ``table`` (booktabs) of ``frame``: index as the first column.

    Parameters
    ----------
    frame : DataFrame
        Cells are numbers (rounded to ``digits``) or text (escaped).
    caption, label : str
    bold : DataFrame of bool, optional
        Same shape: cells set in bold.
    digits : int, default=4

    Returns
    -------
    str

    Examples
    --------
    >>> t = pd.DataFrame({"a_b": [1.23456]}, index=["x"])
    >>> text = latex_table(t, caption="C", label="t", digits=2)
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    \\begin{table}[htbp]
    \\centering
    \\caption{C}
    \\label{t}
    \\begin{tabular}{lr}
    \\toprule
     & a\\_b \\\\
    \\midrule
    x & 1.23 \\\\
    \\bottomrule
    \\end{tabular}
    \\end{table}
    """
    columns = [_latex_escape(c) for c in frame.columns]
    head = " & ".join(["", *columns]) + r" \\"
    lines = [
        r"\begin{table}[htbp]",
        r"\centering",
        rf"\caption{{{_latex_escape(caption)}}}",
        rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{l{'r' * len(columns)}}}",
        r"\toprule",
        head,
        r"\midrule",
    ]
    for i, (index, row) in enumerate(frame.iterrows()):
        cells = [_latex_escape(index)]
        for j, value in enumerate(row):
            cell = _cell(value, digits)
            if bold is not None and bool(bold.iloc[i, j]):
                cell = rf"\textbf{{{cell}}}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def _cell(value, digits: int) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.{digits}g}" if abs(value) >= 1e4 else f"{value:.{digits}f}"
    return _latex_escape(value)


def _both(frame: pd.DataFrame, folder: Path, stem: str, caption: str, bold=None):
    """``stem.csv`` and ``stem.tex`` of ``frame``."""
    frame.to_csv(folder / f"{stem}.csv")
    text = latex_table(frame, caption=caption, label=f"tab:{stem}", bold=bold)
    (folder / f"{stem}.tex").write_text(text, encoding="utf-8")


def _direction(metric: str) -> bool:
    from ..evaluation.metrics import higher_is_better

    return bool(higher_is_better(metric))


def write_baselines(result, out, user) -> Path:
    """Write a :class:`~._baselines.BaselinesResult` to the folder ``out``.

    Files: ``average_ranks`` (method x metric, the best rank per metric in
    bold), ``friedman`` (per metric), ``bonferroni_dunn`` or ``nemenyi``
    (per metric and baseline, against the control), ``per_dataset_<metric>``
    (dataset x method, mean ± std over the splits, the best per dataset in
    bold), each ``.csv`` and ``.tex``; ``per_dataset.csv`` (tidy),
    ``cd_<metric>.html``, ``summary.md``, ``results.csv.gz`` and
    ``benchmark.json``; ``tuning.csv`` when a method's options were tuned.

    Returns
    -------
    Path
        The folder.
    """
    import plotly.io as pio

    from ..evaluation.outputs import write_table
    from ._folder import MANIFEST, RESULTS_FILE

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    write_table(result.results, folder / RESULTS_FILE)
    ranks = result.average_ranks.pivot(index=METHOD, columns=METRIC, values="rank")
    ranks = ranks.loc[
        [*result.baselines, result.method],
        list(dict.fromkeys(result.average_ranks[METRIC])),
    ]
    _both(
        ranks, folder, "average_ranks", "Average ranks (1 = best)", ranks == ranks.min()
    )
    _both(result.friedman.set_index(METRIC), folder, "friedman", "Friedman tests")
    stem = result.test if result.test == "nemenyi" else "bonferroni_dunn"
    result.control.to_csv(folder / f"{stem}.csv", index=False)
    control = result.control.set_index([METRIC, METHOD]).drop(columns="control")
    control.index = [f"{m} / {b}" for m, b in control.index]
    caption = f"Each baseline against {result.method} (the control)"
    text = latex_table(control, caption=caption, label=f"tab:{stem}")
    (folder / f"{stem}.tex").write_text(text, encoding="utf-8")
    result.per_dataset.to_csv(folder / "per_dataset.csv", index=False)
    for metric, sub in result.per_dataset.groupby(METRIC, sort=False):
        _per_dataset(sub, metric, folder)
    for metric, fig in result.figures.items():
        pio.write_html(fig, folder / f"cd_{metric}.html", include_plotlyjs="directory")
    if result.chosen is not None and len(result.chosen):
        result.chosen.to_csv(folder / "tuning.csv", index=False)
    (folder / "summary.md").write_text(_summary(result), encoding="utf-8")
    manifest = _manifest(result, user)
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, default=str) + "\n")
    return folder


def _per_dataset(sub: pd.DataFrame, metric: str, folder: Path) -> None:
    means = sub.pivot(index=DATASET, columns=METHOD, values=MEAN)
    stds = sub.pivot(index=DATASET, columns=METHOD, values=STD)
    means, stds = means[sub[METHOD].unique()], stds[sub[METHOD].unique()]
    best = means.max(axis=1) if _direction(metric) else means.min(axis=1)
    bold = means.eq(best, axis=0)
    cells = means.map(lambda v: f"{v:.4f}") + " ± " + stds.map(lambda v: f"{v:.4f}")
    means.to_csv(folder / f"per_dataset_{metric}.csv")
    direction = "higher" if _direction(metric) else "lower"
    caption = (
        f"{metric} per dataset, mean ± std over the splits ({direction} is better)"
    )
    text = latex_table(cells, caption=caption, label=f"tab:{metric}", bold=bold)
    (folder / f"per_dataset_{metric}.tex").write_text(text, encoding="utf-8")


def _summary(result) -> str:
    lines = [
        f"# {result.method} against the baselines",
        "",
        result.summary,
        "",
        "Baselines (family): "
        + ", ".join(f"{m} ({f})" for m, f in result.families.items())
        + ".",
        "",
        "Tables: average_ranks, friedman, "
        + ("nemenyi" if result.test == "nemenyi" else "bonferroni_dunn")
        + ", per_dataset_<metric> (each .csv and .tex); CD diagrams cd_<metric>.html.",
    ]
    chosen = result.chosen
    if chosen is not None and len(chosen):
        for option, sub in chosen.groupby("option", sort=False):
            counts = sub["value"].astype(str).value_counts()
            values = ", ".join(f"{v} ({n}x)" for v, n in counts.items())
            lines += [
                "",
                f"{result.method}'s {option} was chosen per dataset and split on an "
                f"inner split of the training part (tuning.csv): {values}.",
            ]
    return "\n".join(lines) + "\n"


def _manifest(result, user) -> dict:
    from ..cache import engine_id
    from ..plugins import plugin_specs

    return {
        "suite": "baselines",
        "title": f"Baselines under {result.preset}",
        "method": result.method,
        "method_config": {"name": user.name, "params": dict(user.params)},
        "quick": result.quick,
        "preset": result.preset,
        "test": result.test,
        "alpha": result.alpha,
        "datasets": sorted(result.results[DATASET].unique().tolist()),
        "methods": [*result.baselines, result.method],
        "families": result.families,
        "metric": result.friedman[METRIC].iloc[0],
        "seconds": result.timings,
        "engine": engine_id(),
        "plugins": list(plugin_specs()),
    }
