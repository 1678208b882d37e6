"""The app reads what the engine states about a method: stepwise, the kind of
score, the family's title and the citation; a plug-in stating them is shown
as such (no guess from the family's name or from the numbers)."""

from __future__ import annotations

import textwrap

import pytest

import mlfs_core

from ..conftest import charts, new_app, open_page, spy_rankings

TITLE = "Test traits (plug-in)"

PLUGIN = textwrap.dedent(
    f'''
    """Three function plug-ins, each stating its traits at register()."""

    import numpy as np

    from mlfs_core.selectors import register


    def _sums(X):
        return np.asarray(X.sum(axis=0), dtype=float).ravel()


    def TraitStep(X, Y, *, k, random_state):
        """Column sums, one feature a step (as a greedy filter would)."""
        sums = _sums(X)
        return np.argsort(-sums, kind="stable")[:k], sums


    def TraitOrder(X, Y, *, k, random_state):
        """Column sums returned, but stated to be an order only."""
        sums = _sums(X)
        return np.argsort(-sums, kind="stable")[:k], sums


    def TraitScore(X, Y, *, k, random_state):
        """An order alone, its filled-in scores stated to be scores."""
        return np.argsort(-_sums(X), kind="stable")[:k]


    common = {{"family": "traits", "family_label": "{TITLE}", "version": "1"}}
    register(TraitStep, stepwise=True, score_kind="score", **common)
    register(TraitOrder, citation="Someone (2024), Sums as orders", **common)
    register(TraitScore, score_kind="score", **common)
    '''
)


@pytest.fixture
def traits_plugin(plugin_from):
    """The plug-in above, named by MLFS_PLUGINS; removed again afterwards."""
    return plugin_from("traits_plugin", PLUGIN)


def _ranked_by(method: str):
    at = open_page(new_app(), "rank")
    at.selectbox(key="dataset").select("toy").run()
    at.radio(key="rank_a_family").set_value(TITLE).run()
    at.selectbox(key="rank_a_method").select(method).run()
    at.slider(key="rank_top").set_value(5).run()
    at.number_input(key="rank_k").set_value(5).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.subheader[0].value == f"Top 5 features of toy by {method}"
    return at


def _bars(at) -> list:
    return [c for c in charts(at) if '"bar"' in c.proto.spec]


def test_a_stepwise_plugin_ranks_only_the_shown_features(
    traits_plugin, data_dir, monkeypatch
):
    """Check that a plug-in registered with stepwise=True is asked for the 6
    features shown (not all 12), offers "Rank all", and says what its score is."""
    calls = spy_rankings(monkeypatch)
    at = _ranked_by("TraitStep")
    assert ("TraitStep", None) not in calls
    calls.clear()
    at.slider(key="rank_top").set_value(6).run()
    assert calls == [("TraitStep", 6)]  # not k=None or k=12: all M ranked
    assert len(at.dataframe[0].value) == 6
    assert at.button(key="rank_full").label == "Rank all 12 features"
    assert any("J(f | S)" in c.value for c in at.caption)
    assert list(at.dataframe[0].value.columns) == ["position", "feature", "score"]
    assert len(_bars(at)) == 1


def test_a_plugin_stating_an_order_shows_an_order_score_and_no_chart(
    traits_plugin, data_dir, monkeypatch
):
    """Check that a plug-in whose scores are stated to be an order (the default
    of a function) shows the order score 12, 11, 10 ... whatever numbers it
    returned, explains it and draws no bar chart; it is ranked in full."""
    calls = spy_rankings(monkeypatch)
    at = _ranked_by("TraitOrder")
    table = at.dataframe[0].value
    assert list(table.columns) == ["position", "feature", "order score"]
    assert table["order score"].tolist() == [12.0, 11.0, 10.0, 9.0, 8.0]
    assert any("no score of strength" in i.value for i in at.info)
    assert _bars(at) == []
    assert ("TraitOrder", None) in calls
    assert not [b for b in at.button if b.key == "rank_full"]
    assert (
        "Column sums returned, but stated to be an order only. Source: Someone "
        "(2024), Sums as orders."
    ) in [c.value for c in at.caption]


def test_a_plugin_stating_a_score_gets_a_score_column_and_a_chart(
    traits_plugin, data_dir
):
    """Check that a plug-in stating score_kind="score" is shown as a score
    (with its bar chart) even though its numbers count down like positions."""
    at = _ranked_by("TraitScore")
    table = at.dataframe[0].value
    assert list(table.columns) == ["position", "feature", "score"]
    assert table["score"].tolist() == [12.0, 11.0, 10.0, 9.0, 8.0]
    assert not any("no score of strength" in i.value for i in at.info)
    assert len(_bars(at)) == 1


def test_about_titles_families_from_the_registry_and_cites_each_method(
    traits_plugin,
):
    """Check that the About page's method sections carry the registry's family
    titles (the plug-in's own last), and each method's source."""
    from mlfs_core.selectors import FAMILIES, list_methods

    at = open_page(new_app(), "about")
    subheaders = [s.value for s in at.subheader]
    # every built-in family with a method (each branch of issue 52 adds some)
    titles = [*(t for f, t in FAMILIES.items() if list_methods(f)), TITLE]
    assert FAMILIES["instance-based"] in titles
    assert subheaders[: len(titles)] == titles
    tables = {s: t.value for s, t in zip(subheaders, at.table, strict=False)}
    greedy = tables[FAMILIES["information-theoretic"]]
    assert greedy.loc["PMU", "Source"] == mlfs_core.get_method("PMU").citation
    assert greedy.loc["PMU", "Source"].startswith("Lee and Kim (2013)")
    ours = tables[TITLE]
    assert ours.loc["TraitOrder", "Source"] == "Someone (2024), Sums as orders"
    assert ours.loc["TraitStep", "Source"] == "none"
    # the Sources list is the registry's citations, the plug-in's included
    assert any(
        "- Someone (2024), Sums as orders: TraitOrder" in m.value for m in at.markdown
    )
