"""The report's figures: Plotly figures saved as small PNGs under ``docs/figures``.

Part of :mod:`studies.report` (see there).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pandas as pd

from mlfs_core.columns import MEAN, METHOD, STD
from mlfs_core.evaluation import METRICS


def small_png(png: bytes, colors: int = 128) -> bytes:
    """The same picture with a 128-colour palette: a quarter of the bytes for
    plots of flat colours (Pillow comes with Streamlit)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.quantize(
        colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def save_png(fig, name: str, enabled: bool, root: Path, **kw) -> str | None:
    """Write ``<root>/docs/figures/<name>.png`` (if ``enabled``) and return its link.

    Without ``enabled`` (``--no-png``) an already committed figure is still
    linked, so the Markdown does not depend on whether PNGs were redrawn.
    """
    path = root / "docs" / "figures" / f"{name}.png"
    if enabled:
        from mlfs_core.plots import png_export_available, to_png_bytes

        browser = os.environ.get("BROWSER_PATH")  # kaleido's variable
        if png_export_available(browser):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(small_png(to_png_bytes(fig, browser=browser, **kw)))
    return f"figures/{name}.png" if path.is_file() else None


def figure1(ranks4: pd.DataFrame, metric: str):
    """Paper 000 Figure 1: one line per aggregation in each measure's panel."""
    from mlfs_core.plots import average_rank_curves

    agg = ranks4.assign(
        aggregation=ranks4[METHOD].str.replace(r"(CS|BNS)$", "", regex=True)
    )
    return average_rank_curves(
        agg,
        x="budget_pct",
        facet="measure",
        method="aggregation",
        title=f"Average rank ({metric}) vs % of features; 1 = best",
    )


def kuncheva_heatmap(sim: pd.DataFrame):
    """Paper 000 Table 6 as a heatmap."""
    from mlfs_core.plots import similarity_heatmap

    return similarity_heatmap(sim, title="Kuncheva index at 50 %")


def cd_figure(row: pd.DataFrame, metric: str):
    """Critical-difference diagram from one row of the Friedman-on-means table."""
    from mlfs_core.plots import cd_diagram

    ranks = row.filter(like="rank_").iloc[0].rename(lambda c: c[len("rank_") :])
    return cd_diagram(
        ranks.astype(float),
        float(row["cd"].iloc[0]),
        title=f"Critical difference, {metric} (mean over k = 1..50)",
    )


def metric_vs_k(curves: pd.DataFrame, metric: str):
    """Paper 001 Figures 1-6: mean +- std of a metric vs k, one line per method."""
    from mlfs_core.plots import metric_vs_budget

    curves = curves.assign(
        lower=curves[MEAN] - curves[STD], upper=curves[MEAN] + curves[STD]
    )
    label = metric.replace("_", " ")
    return metric_vs_budget(
        curves,
        metric_label=label,
        higher_is_better=METRICS[metric].higher_is_better,
        title=f"{label} vs k",
    )


def figure_lines(fig, name: str, alt: str, png: bool, root: Path, **kw) -> list[str]:
    """The Markdown image line of ``fig`` saved as ``docs/figures/<name>.png``
    (none when ``png`` is off and the figure is not already committed)."""
    path = save_png(fig, name, png, root, **kw)
    return [f"![{alt}]({path})", ""] if path else []
