"""The app names no method: pickers, defaults and baselines come from the registry.

The first test reads every script of the app (``app.py``, ``ui/``,
``app_pages/``) and fails on a string constant that is a registered method
name. The others load a plug-in with a family of its own, a method the
Experiment form starts with and a baseline that keeps every feature, and check
that the app groups, preselects and draws them as it does the built-in ones.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import mlfs_core
from mlfs_core.selectors import default_methods

from ..conftest import ROOT, charts, figure_data, new_app, open_page, widget

SCRIPTS = sorted(
    [ROOT / "app.py", *(ROOT / "ui").rglob("*.py"), *(ROOT / "app_pages").rglob("*.py")]
)
FAMILY_TITLE = "Test baselines (plug-in)"

PLUGIN = textwrap.dedent(
    f'''
    """A test plug-in: a family of its own with a method and a baseline."""

    import numpy as np

    from mlfs_core.selectors import MethodSpec, Ranking, register


    def _by_sum(X, Y, *, k, random_state):
        """Features by their column sum."""
        scores = np.asarray(X.sum(axis=0)).ravel()
        return Ranking(order=np.argsort(-scores, kind="stable")[:k], scores=scores)


    def _all(X, Y, *, k, random_state):
        """Every feature, in file order."""
        n = X.shape[1]
        return Ranking(order=np.arange(n)[:k], scores=n - np.arange(n, dtype=float))


    for name, rank, flags in (
        ("TestColumnSum", _by_sum, {{"default_for": ("experiment-A",)}}),
        ("TestEvery", _all, {{"reference": "all"}}),  # a no-selection baseline
    ):
        register(
            MethodSpec(
                name=name,
                family="testbase",
                family_label="{FAMILY_TITLE}",
                rank=rank,
                description=rank.__doc__,
                version="1",
                **flags,
            )
        )
    '''
)


def _constants(path: Path) -> list[tuple[int, str]]:
    """(line, value) of every string constant of a script (f-string parts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_script_of_the_app_names_a_registered_method():
    """Check that no string constant in app.py, ui/ or app_pages/ equals the name
    of a registered method (the pickers and defaults come from the registry)."""
    names = set(mlfs_core.list_methods())
    assert {"MaxCS", "ATR", "AF"} <= names  # the check has names to look for
    assert len(SCRIPTS) > 20
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for path in SCRIPTS
        for line, value in _constants(path)
        if value in names
    ]
    assert found == []


def test_the_scan_sees_a_method_name_in_a_script(tmp_path):
    """Check that the scan above would catch a name: a literal, a list item and a
    dictionary key each count, a name inside longer text does not."""
    script = tmp_path / "page.py"
    script.write_text(
        'x = "PMU"\ny = ["a", "Random"]\nz = {"MaxCS": 1}\nw = f"{x} and ATR"\n'
        '"""A docstring mentioning AF."""\n'
    )
    names = set(mlfs_core.list_methods())
    found = sorted(v for _, v in _constants(script) if v in names)
    assert found == ["MaxCS", "PMU", "Random"]


@pytest.fixture
def test_plugin(plugin_from):
    """The test plug-in, named by MLFS_PLUGINS; removed again afterwards."""
    return plugin_from("testbase_plugin", PLUGIN)


def test_experiment_picker_groups_the_plugin_family_and_preselects(test_plugin):
    """Check that the Experiment form lists methods family after family with the
    family's title, the plug-in's methods together under its own title after
    the built-in families, and starts with its default_for method."""
    at = open_page(new_app(), "experiment")
    picker = at.multiselect(key="exp_methods_A")
    options = list(picker.options)
    titles = [o.split(" · ", 1)[1] for o in options]
    # family after family: each title's options are contiguous
    runs = [t for i, t in enumerate(titles) if i == 0 or titles[i - 1] != t]
    assert len(runs) == len(set(runs)) >= 4
    assert runs[-1] == FAMILY_TITLE
    assert options[-2:] == [
        f"TestColumnSum · {FAMILY_TITLE}",
        f"TestEvery · {FAMILY_TITLE}",
    ]
    assert "TestColumnSum" in picker.value
    assert set(picker.value) == set(default_methods("experiment-A"))
    assert "TestEvery" not in picker.value
    at.radio(key="exp_protocol").set_value("B").run()
    assert "TestColumnSum" not in at.multiselect(key="exp_methods_B").value


def test_rank_picker_offers_the_plugin_family(test_plugin):
    """Check that Rank features' family radio has the plug-in's family under its
    title, and that choosing it offers its two methods."""
    at = open_page(new_app(), "rank")
    family = at.radio(key="rank_a_family")
    assert family.options[-1] == FAMILY_TITLE
    family.set_value(FAMILY_TITLE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(at.selectbox(key="rank_a_method").options) == [
        "TestColumnSum",
        "TestEvery",
    ]


def _results(baseline: str) -> bytes:
    """Two methods at 10 and 50 %, and ``baseline`` once at 100 %, on one dataset."""
    rows = ["dataset,protocol,method,budget,budget_pct,fold,repeat,metric,value"]
    for method, q in (("A", 0.8), ("B", 0.6)):
        for pct in (10, 50):
            for fold in (0, 1):
                rows.append(f"d0,A,{method},{pct},{pct}.0,{fold},0,micro_f1,{q}")
    for fold in (0, 1):
        rows.append(f"d0,A,{baseline},100,100.0,{fold},0,micro_f1,0.7")
    return ("\n".join(rows) + "\n").encode()


def test_plugin_baseline_is_a_reference_on_metric_vs_budget(test_plugin):
    """Check that a plug-in method with reference="all" is drawn as a flat
    reference line over the budgets run, like the built-in baseline, and that
    its 100 % is not offered as a budget."""
    at = open_page(new_app(), "budget")
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", _results("TestEvery"), "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    widget(at, "selectbox", "budget_metric").select("micro_f1").run()
    lines = [t for t in figure_data(charts(at)[0]) if t.get("fill") != "toself"]
    (line,) = [t for t in lines if t.get("legendgroup") == "TestEvery"]
    assert line["name"] == "TestEvery (reference)"
    assert line["x"] == [10.0, 50.0] and line["y"] == [0.7, 0.7]
    assert max(max(t["x"]) for t in lines) == 50.0
