"""A highlight applied to a drawn figure's dict looks as drawing with it does."""

from __future__ import annotations

import json

import pandas as pd
import plotly.io as pio
import pytest

from mlfs_core.plots import (
    average_rank_curves,
    figure_from_dict,
    highlight_figure,
    metric_vs_budget,
)
from mlfs_core.plots._style import GREY


def _curves() -> pd.DataFrame:
    rows = [
        {
            "dataset": f"d{d}",
            "method": m,
            "budget": b,
            "mean": 0.1 * i + 0.01 * b + d,
            "lower": 0.1 * i + d,
            "upper": 0.2 * i + 0.02 * b + d,
        }
        for d in range(3)
        for i, m in enumerate(["A", "B", "C", "D"])
        for b in (1, 2, 3)
    ]
    rows += [
        {"dataset": f"d{d}", "method": "AF", "budget": 50, "mean": 0.5,
         "lower": 0.4, "upper": 0.6}
        for d in range(3)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def _ranks() -> pd.DataFrame:
    df = _curves()
    return df.assign(panel=df["dataset"].map({"d0": "P", "d1": "Q", "d2": "Q"}))


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


@pytest.mark.parametrize("picked", ["B", ["A", "C"], "AF"])
def test_restyled_budget_figure_equals_the_figure_drawn_highlighted(picked):
    """Check that highlight_figure on the unhighlighted dict gives, trace for
    trace, the JSON of metric_vs_budget(..., highlight=picked): grey others,
    no bands for them, highlighted ones wider and last in each panel."""
    base = metric_vs_budget(_curves(), metric_label="m", references=("AF",))
    restyled = figure_from_dict(highlight_figure(base.to_dict(), picked))
    drawn = metric_vs_budget(
        _curves(), metric_label="m", references=("AF",), highlight=picked
    )
    assert _json(restyled) == _json(drawn)
    lines = [t for t in drawn.data if t.fill != "toself"]
    names = {picked} if isinstance(picked, str) else set(picked)
    assert {t.line.color for t in lines if t.legendgroup not in names} == {GREY}
    assert all(t.legendgroup in names for t in drawn.data if t.fill == "toself")


def test_restyled_rank_figure_equals_the_figure_drawn_highlighted():
    """Check the same for average_rank_curves with two panels."""
    base = average_rank_curves(_ranks(), facet="panel")
    restyled = figure_from_dict(highlight_figure(base.to_dict(), "C"))
    drawn = average_rank_curves(_ranks(), facet="panel", highlight="C")
    assert _json(restyled) == _json(drawn)
    panel_last = [t.name for t in drawn.data if t.xaxis == "x"][-1]
    assert panel_last == "C"


def test_no_highlight_leaves_the_figure_as_it_is_and_the_input_is_not_changed():
    """Check that None returns the dict itself and a highlight copies it."""
    spec = metric_vs_budget(_curves(), metric_label="m").to_dict()
    before = json.dumps(spec, default=str)
    assert highlight_figure(spec, None) is spec
    out = highlight_figure(spec, "A")
    assert out is not spec and json.dumps(spec, default=str) == before
