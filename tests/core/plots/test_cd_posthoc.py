"""The CD diagram's layout (labels on both sides, no overlapping bars), the
p-value heatmap, and a quiet PNG export."""

from __future__ import annotations

import json
import logging
import os

import numpy as np
import pandas as pd
import pytest

from mlfs_core.plots import cd as cdmod
from mlfs_core.plots.cd import cd_diagram, cd_layout
from mlfs_core.plots.export import (
    CHANNEL_LOGGER,
    _quiet_browser_channel,
    png_export_available,
)
from mlfs_core.plots.posthoc import pvalue_heatmap


def _random_ranks(rng, k):
    ranks = np.sort(rng.uniform(1, k, size=k))
    return pd.Series(ranks, index=[f"Method{i}" for i in range(k)])


def _check_layout(ranks: pd.Series, cd: float):
    layout = cd_layout(ranks, cd)
    left, right, bars = layout["left"], layout["right"], layout["bars"]
    # every method once, the better half on the left
    assert sorted(m for m, *_ in left + right) == sorted(ranks.index)
    assert len(left) == (len(ranks) + 1) // 2
    if len(ranks) >= 2:
        assert right, "labels on both sides"
        assert max(r for _, r, _ in left) <= min(r for _, r, _ in right)
    # nearest the axis: the best on the left, the worst on the right
    assert left[0][1] == ranks.min()
    if right:
        assert right[0][1] == ranks.max()
    for side in (left, right):
        ys = [y for *_, y in side]
        assert len(set(ys)) == len(ys), "one label row per method and side"
        assert ys == sorted(ys, reverse=True)
    # bars: each clique once, no two overlapping in one row, all above labels
    first_label = max(y for *_, y in left + right)
    for i, (lo, hi, y) in enumerate(bars):
        assert y > first_label
        for lo2, hi2, y2 in bars[i + 1 :]:
            if y2 == y:
                assert hi + cdmod.BAR_CLEARANCE < lo2 or hi2 + cdmod.BAR_CLEARANCE < lo
    return layout


def test_cd_layout_on_many_random_rankings(rng):
    """Check the layout rules on 200 random rankings of 2 to 16 methods."""
    for _ in range(200):
        k = int(rng.integers(2, 17))
        ranks = _random_ranks(rng, k)
        _check_layout(ranks, float(rng.uniform(0.2, k)))


def test_overlapping_groups_get_their_own_rows_and_apart_ones_share():
    """Check that two overlapping cliques go to two rows, two apart ones to one."""
    ranks = pd.Series({"A": 1.0, "B": 1.8, "C": 2.6, "D": 3.4})
    layout = _check_layout(ranks, cd=1.0)  # cliques A-B, B-C, C-D, chained
    assert len({y for *_, y in layout["bars"]}) >= 2
    apart = pd.Series({"A": 1.0, "B": 1.2, "C": 3.8, "D": 4.0})
    layout = _check_layout(apart, cd=0.5)  # A-B and C-D, far apart: one row
    assert len(layout["bars"]) == 2 and len({y for *_, y in layout["bars"]}) == 1


def test_cd_diagram_labels_both_sides_and_fits_1024_px():
    """Check that labels sit outside the axis on both sides, none cut off at 1024 px,
    rows far enough apart for 12 px text, and the plot still wide enough."""
    names = ["ATR", "PPT-MI", "IGMF", "PMU", "D2F", "MDMR", "LRFS", "LSMFS"]
    names += ["MLSMFS", "SCLS", "PMU-ref", "MDMR-ref"]
    ranks = pd.Series(np.linspace(1.5, 11.2, 12), index=names)
    fig = cd_diagram(ranks, cd=5.0)
    labels = [a for a in fig.layout.annotations if "(" in a.text]
    assert len(labels) == 12
    lo, hi = fig.layout.xaxis.range
    assert {a.xanchor for a in labels if a.x == lo} == {"right"}
    assert {a.xanchor for a in labels if a.x == hi} == {"left"}
    assert sum(a.x == lo for a in labels) == 6 and sum(a.x == hi for a in labels) == 6
    longest = max(len(a.text) for a in labels)
    margin = fig.layout.margin
    assert min(margin.l, margin.r) >= longest * cdmod.CHAR_PX
    assert 1024 - margin.l - margin.r >= 600  # the rank axis keeps most of the width
    px_per_unit = (fig.layout.height - margin.t - margin.b) / (
        fig.layout.yaxis.range[1] - fig.layout.yaxis.range[0]
    )
    assert cdmod.LABEL_STEP * px_per_unit >= 16  # 12 px text does not overlap
    assert json.loads(fig.to_json())


def test_cd_diagram_bars_are_the_cliques():
    """Check that the thick bars are exactly the maximal groups within the CD."""
    ranks = pd.Series({"A": 1.0, "B": 1.5, "C": 3.5, "D": 3.9})
    fig = cd_diagram(ranks, cd=1.0)
    bars = [
        t for t in fig.data if t.mode == "lines" and t.line.width == cdmod.BAR_WIDTH
    ]
    spans = sorted((round(t.x[0] + 0.03, 6), round(t.x[1] - 0.03, 6)) for t in bars)
    assert spans == [(1.0, 1.5), (3.5, 3.9)]


def _pvalues(values, names):
    return pd.DataFrame(values, index=names, columns=names)


def test_pvalue_heatmap_marks_exactly_the_significant_cells():
    """Check stars, bold and frames on the cells with p <= alpha, a blank diagonal."""
    names = ["A", "B", "C"]
    p = _pvalues([[1, 0.01, 0.2], [0.01, 1, 0.05], [0.2, 0.05, 1]], names)
    fig = pvalue_heatmap(p, alpha=0.05)
    text = np.array(fig.data[0].text)
    starred = np.char.find(text.astype(str), "*") >= 0
    expected = (p.to_numpy() <= 0.05) & ~np.eye(3, dtype=bool)
    assert (starred == expected).all()
    assert len(fig.layout.shapes) == expected.sum() == 4
    assert all(text[i, i] == "" for i in range(3))
    assert list(fig.data[0].y) == names and list(fig.data[0].x) == names
    z = np.array(fig.data[0].z, dtype=float)
    assert np.isfinite(z[~np.eye(3, dtype=bool)]).all()
    assert "p ≤ 0.05" in fig.layout.title.text
    fig = pvalue_heatmap(p, alpha=0.01)
    assert len(fig.layout.shapes) == 2


def test_pvalue_heatmap_on_degenerate_input_is_finite():
    """Check an empty matrix, p = 0 and a 1 x 1 matrix give serialisable figures."""
    assert json.loads(pvalue_heatmap(pd.DataFrame()).to_json())
    fig = pvalue_heatmap(_pvalues([[1.0, 0.0], [0.0, 1.0]], ["A", "B"]))
    z = np.array(fig.data[0].z, dtype=float)
    assert np.isfinite(z[0, 1]) and "<0.001*" in fig.data[0].text[0][1]
    assert json.loads(pvalue_heatmap(_pvalues([[1.0]], ["A"])).to_json())


def test_export_drops_only_choreographers_ignored_message_traceback(caplog):
    """Check that the "JSONError decoding message. Ignoring" traceback is dropped
    while rendering, other records pass, and nothing is dropped afterwards."""
    pytest.importorskip("choreographer")  # kaleido's browser driver
    with _quiet_browser_channel():  # imports choreographer, which makes the logger
        pass
    logger = logging.getLogger(CHANNEL_LOGGER)
    caplog.set_level(logging.DEBUG, logger=CHANNEL_LOGGER)
    try:
        raise ValueError("Expecting value: line 1 column 1")
    except ValueError:
        with _quiet_browser_channel():
            logger.exception("JSONError decoding message. Ignoring")
            logger.error("something else")
        logger.exception("JSONError decoding message. Ignoring")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["something else", "JSONError decoding message. Ignoring"]
    assert not logger.filters


@pytest.mark.skipif(
    not png_export_available() and not os.environ.get("CI"),
    reason="PNG export needs kaleido and a Chromium browser (required under CI)",
)
def test_a_successful_export_writes_nothing_to_stderr(capfd):
    """Check that rendering a CD diagram and a heatmap prints no traceback."""
    from mlfs_core.plots.export import to_png_bytes

    ranks = pd.Series({"A": 1.2, "B": 2.1, "C": 2.7})
    p = _pvalues([[1, 0.01, 0.2], [0.01, 1, 0.05], [0.2, 0.05, 1]], ["A", "B", "C"])
    for fig in (cd_diagram(ranks, cd=1.0), pvalue_heatmap(p)):
        assert to_png_bytes(fig, width=1024, scale=1)[:4] == b"\x89PNG"
    err = capfd.readouterr().err
    assert "Traceback" not in err and "JSONDecodeError" not in err
