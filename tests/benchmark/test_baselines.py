"""The baselines suite: baselines by family, Bonferroni-Dunn, tables, a resumed run."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from mlfs_core.benchmark import baseline_methods, latex_table, run_baselines
from mlfs_core.benchmark._baselines_analysis import compare
from mlfs_core.cli import main
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import protocol_preset
from mlfs_core.selectors import (
    FAMILIES,
    MethodSpec,
    Ranking,
    get_method,
    list_methods,
    register,
    unregister,
)

from .conftest import METHOD, PLUGIN


def test_baselines_come_from_the_registry_by_family():
    """Check the first two of each family but the extra measures, the random
    reference kept and the all-features one left out; every method with
    all_baselines; a method registered in a field family joins its family."""
    chosen = baseline_methods()
    for family in FAMILIES:
        names = [n for n in list_methods(family) if get_method(n).reference != "all"]
        mine = [n for n, f in chosen.items() if f == family]
        expected = [] if family == "extra" else names[:2]
        assert mine == expected, family
    assert not any(get_method(n).reference == "all" for n in chosen)
    assert any(get_method(n).reference == "random" for n in chosen)
    everything = baseline_methods(all_baselines=True)
    assert set(everything) == {
        n for f in FAMILIES for n in list_methods(f) if get_method(n).reference != "all"
    }

    def rank(X, Y, *, k, random_state=None):
        scores = np.arange(X.shape[1], dtype=float)
        return Ranking(order=np.argsort(-scores)[:k], scores=scores)

    register(MethodSpec(name="SpectralProbe", family="spectral", rank=rank))
    try:
        spectral = list_methods("spectral")
        assert spectral[-1] == "SpectralProbe"  # a plug-in joins after the built-ins
        assert baseline_methods(all_baselines=True)["SpectralProbe"] == "spectral"
        first_two = [n for n, f in baseline_methods().items() if f == "spectral"]
        assert first_two == spectral[:2]
        assert "SpectralProbe" not in baseline_methods(
            all_baselines=True, exclude=("SpectralProbe",)
        )
    finally:
        unregister("SpectralProbe")


def _synthetic(rng, n_datasets=8, methods=("A", "B", "C", "D")):
    """Results of 4 methods: D clearly best on macro_f1, ties on one dataset."""
    rows = []
    for d in range(n_datasets):
        for i, m in enumerate(methods):
            for fold in range(2):
                for budget in (1, 2):
                    value = 0.1 * i + 0.05 * rng.random()
                    if d == 0:
                        value = 0.5  # a dataset where every method ties
                    for metric, v in (("macro_f1", value), ("hamming_loss", value)):
                        rows.append(
                            {
                                "dataset": f"d{d}",
                                "protocol": "field",
                                "method": m,
                                "budget": budget,
                                "fold": fold,
                                "metric": metric,
                                "value": v,
                            }
                        )
    return pd.DataFrame(rows)


def _tables(results, metrics=("macro_f1", "hamming_loss")):
    protocol = protocol_preset("field", metrics=metrics)
    return SimpleNamespace(results=results, config=SimpleNamespace(protocol=protocol))


def _plain_bonferroni_dunn(results, metric, control, higher):
    """Average ranks (ties share the mean rank) and Bonferroni-Dunn, by loops."""
    table = results[results["metric"] == metric]
    methods = sorted(table["method"].unique())
    datasets = sorted(table["dataset"].unique())
    totals = dict.fromkeys(methods, 0.0)
    for d in datasets:
        values = {
            m: table[(table["dataset"] == d) & (table["method"] == m)]["value"].mean()
            for m in methods
        }
        for m in methods:
            better = sum(
                1
                for o in methods
                if (values[o] > values[m] if higher else values[o] < values[m])
            )
            same = sum(1 for o in methods if values[o] == values[m])
            totals[m] += better + (same + 1) / 2.0
    k, n = len(methods), len(datasets)
    ranks = {m: totals[m] / n for m in methods}
    se = (k * (k + 1) / (6.0 * n)) ** 0.5
    out = {}
    for m in methods:
        if m == control:
            continue
        z = (ranks[m] - ranks[control]) / se
        p = min(1.0, 2 * norm.sf(abs(z)) * (k - 1))
        out[m] = (ranks[m], z, p)
    return ranks, out


@pytest.mark.parametrize("metric", ["macro_f1", "hamming_loss"])
def test_bonferroni_dunn_against_the_control_equals_a_plain_computation(rng, metric):
    """Check ranks, z, adjusted p and significance of every baseline against
    the control, with the metric's direction, against loops written out."""
    results = _synthetic(rng)
    out = compare(_tables(results), "D", "field")
    higher = metric == "macro_f1"
    ranks, expected = _plain_bonferroni_dunn(results, metric, "D", higher)
    table = out["control"][out["control"]["metric"] == metric].set_index("method")
    assert set(table.index) == {"A", "B", "C"}
    for m, (rank, z, p) in expected.items():
        assert table.loc[m, "rank"] == pytest.approx(rank)
        assert table.loc[m, "statistic"] == pytest.approx(z)
        assert table.loc[m, "pvalue_adjusted"] == pytest.approx(p)
        assert bool(table.loc[m, "significant"]) == (p <= 0.05)
    ranked = out["average_ranks"][out["average_ranks"]["metric"] == metric]
    assert dict(zip(ranked["method"], ranked["rank"])) == pytest.approx(ranks)
    q = norm.isf(0.05 / (2 * 3))
    assert table["cd"].iloc[0] == pytest.approx(q * (4 * 5 / (6 * 8)) ** 0.5)


def test_the_summary_states_what_was_and_was_not_significant(rng):
    """Check the paragraph names the significant baselines and the others,
    per metric, from the control table."""
    results = _synthetic(rng)
    out = compare(_tables(results, metrics=("macro_f1",)), "D", "field")
    table = out["control"]
    text = out["summary"]
    assert "Bonferroni-Dunn with D as the control" in text
    significant = table.loc[table["significant"], "method"].tolist()
    others = table.loc[~table["significant"], "method"].tolist()
    assert significant and others  # the synthetic data gives both
    assert f"D ranks significantly better than {', '.join(significant)}" in text
    assert f"no significant difference from {', '.join(others)}" in text


def test_an_incomplete_table_is_refused(rng):
    """Check a missing (dataset, method) value stops the comparison."""
    results = _synthetic(rng)
    gap = (results["dataset"] == "d3") & (results["method"] == "B")
    with pytest.raises((ConfigError, ValueError), match="d3|missing|incomplete"):
        compare(_tables(results[~gap]), "D", "field")


def test_the_latex_writer_escapes_and_sets_the_best_in_bold():
    """Check special characters are escaped, numbers rounded, bold cells."""
    frame = pd.DataFrame({"macro_f1": [0.51234, 0.4]}, index=["My_method", "50%"])
    bold = frame == frame.max()
    text = latex_table(frame, caption="A & B", label="tab:x", bold=bold)
    assert r"\caption{A \& B}" in text and "macro\\_f1" in text
    assert r"My\_method & \textbf{0.5123} \\" in text
    assert r"50\% & 0.4000 \\" in text
    assert text.count(r"\toprule") == text.count(r"\bottomrule") == 1


def test_the_suite_runs_writes_its_tables_and_resumes(tmp_path, shared_datasets, mine):
    """Check a quick run on two small datasets writes every table as CSV and
    LaTeX with a summary, and a second run reads every task from the cache."""
    kwargs = {
        "datasets": ("flags", "emotions"),
        "data_dir": shared_datasets,
        "quick": True,
        "cache_dir": tmp_path / "cache",
    }
    first = run_baselines(METHOD, out=tmp_path / "out", **kwargs)
    folder = first.folder
    metrics = protocol_preset("field").metrics
    for stem in ("average_ranks", "friedman", "bonferroni_dunn"):
        assert (folder / f"{stem}.csv").is_file() and (folder / f"{stem}.tex").is_file()
    for metric in metrics:
        assert (folder / f"per_dataset_{metric}.tex").is_file()
        assert (folder / f"cd_{metric}.html").is_file()
    ranks = pd.read_csv(folder / "average_ranks.csv", index_col=0)
    assert list(ranks.index) == [*first.baselines, METHOD]
    assert set(ranks.columns) == set(metrics)
    n = len(ranks)
    assert np.allclose(ranks.sum(axis=0), n * (n + 1) / 2)  # ranks of each dataset
    summary = (folder / "summary.md").read_text(encoding="utf-8")
    assert first.summary in summary and "2 datasets" in summary
    assert first.timings["n_computed"] > 0
    again = run_baselines(METHOD, **kwargs)
    assert again.timings["n_computed"] == 0
    pd.testing.assert_frame_equal(again.control, first.control)


def test_the_command_line_runs_the_suite(tmp_path, shared_datasets, capsys):
    """Check ``mlfs --plugin mine.py benchmark --suite baselines`` prints the
    ranks and the summary, and refuses an existing folder."""
    out = tmp_path / "out"
    argv = [
        "--plugin",
        str(PLUGIN),
        "benchmark",
        "--suite",
        "baselines",
        "--method",
        METHOD,
        "--quick",
        "--datasets",
        "flags,emotions",
        "--data",
        str(shared_datasets),
        "--out",
        str(out),
        "--cache",
        str(tmp_path / "cache"),
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "average ranks" in printed and "Bonferroni-Dunn" in printed
    assert (out / "benchmark.json").is_file()
    assert main(argv) == 2
    assert "--overwrite" in capsys.readouterr().err


def test_the_summary_file_reports_the_values_a_grid_chose():
    """Check summary.md names the option tuned and how often each value won."""
    from mlfs_core.benchmark._baselines_report import _summary

    chosen = pd.DataFrame(
        {
            "dataset": ["a", "a", "b"],
            "method": "Mine",
            "fold": [0, 1, 0],
            "option": "alpha",
            "value": [0.1, 0.1, 1.0],
            "score": [0.2, 0.3, 0.4],
        }
    )
    result = SimpleNamespace(
        method="Mine",
        summary="S.",
        families={"MaxCS": "score-aggregation"},
        test="bonferroni_dunn",
        chosen=chosen,
    )
    text = _summary(result)
    assert "Mine's alpha was chosen per dataset and split" in text
    assert "0.1 (2x), 1.0 (1x)" in text
    assert "MaxCS (score-aggregation)" in text
