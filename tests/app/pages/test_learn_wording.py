"""AppTest: issue 43, item 11: options boxes, greedy columns and formulas as drawn."""

from __future__ import annotations

import json

import pytest

import mlfs_core

from ..conftest import charts, new_app, open_page

ASCII_MATH = ("sum_", "_{", "l_i", "^-1", "^2", "!=")


def _options_box(at, method: str) -> str:
    (label,) = [e.label for e in at.expander if e.label.startswith(f"{method} options")]
    return label


def test_atr_options_box_lists_its_own_options_not_variant():
    """Check ATR's box names bins, discretize and tau, and no
    variant (it has none); PMU's names its variant."""
    at = open_page(new_app(), "learn_greedy")
    at.selectbox(key="greedy_method").set_value("ATR").run()
    assert _options_box(at, "ATR") == "ATR options (bins, discretize, tau)"
    at.selectbox(key="greedy_method").set_value("PMU").run()
    assert "variant" in _options_box(at, "PMU")


def test_rank_options_box_lists_the_spec_options():
    """Check the Rank page's options box names MaxCS's one option."""
    at = open_page(new_app(), "rank")
    names = ", ".join(o.name for o in mlfs_core.get_method("MaxCS").options)
    assert _options_box(at, "MaxCS") == f"MaxCS options ({names})"


@pytest.mark.parametrize("method", ["PMU", "ATR", "SCLS", "LSMFS"])
def test_greedy_columns_legends_and_formula_read_as_math(method):
    """Check the steps table's term columns are named by role (no "term 1"),
    with readable formulas in their help, and the chart's legend and the
    formula box hold no ASCII notation."""
    at = open_page(new_app(), "learn_greedy")
    at.selectbox(key="greedy_method").set_value(method).run()
    assert not at.exception and not at.error
    columns = json.loads(at.dataframe[0].proto.columns)
    labels = [c.get("label") for name, c in columns.items() if name != "_index"]
    assert not [t for t in labels if t and t.startswith("term")]
    assert labels[-1].startswith("redundancy")
    helps = " ".join(c.get("help", "") for c in columns.values())
    assert "Σ" in helps and not any(a in helps for a in ASCII_MATH)
    legend = [t["name"] for t in json.loads(charts(at)[0].proto.spec)["data"]]
    assert any("Σ" in n for n in legend)
    assert not any(a in n for n in legend for a in ASCII_MATH)
    assert not any(a in at.code[0].value for a in ASCII_MATH)
