"""The worked analysis example of docs/user-guide/analysis.md runs as printed.

The test writes a results.csv (protocol-A style: 5 datasets, 4 methods with
ATR among them, two budgets, two folds, two metrics) into a temporary folder,
runs the documentation's code block there and checks what it wrote.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import control_comparisons, select, wilcoxon_holm
from mlfs_core.evaluation import read_results

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "user-guide" / "analysis.md"
FIRST_LINE = "# From results.csv to a CD diagram"


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if b.startswith(FIRST_LINE)]
    assert len(found) == 1, "the worked example is missing from analysis.md"
    return found[0]


def _results_csv(path: Path) -> None:
    rng = np.random.default_rng(7)
    quality = {"ATR": 0.7, "PPT-MI": 0.6, "PMU": 0.55, "MDMR": 0.5}
    rows = []
    for d in range(5):
        for method, q in quality.items():
            for pct in (10.0, 50.0):
                for fold in range(2):
                    for metric, sign in (("micro_f1", 1), ("hamming_loss", -1)):
                        value = 0.5 + sign * (q - 0.5) + 0.05 * rng.standard_normal()
                        key = (f"ds{d}", "A", method, int(pct), pct, fold, 0)
                        rows.append((*key, metric, value))
    columns = ["dataset", "protocol", "method", "budget", "budget_pct", "fold"]
    columns += ["repeat", "metric", "value"]
    pd.DataFrame(rows, columns=columns).to_csv(path, index=False)


def test_the_worked_example_is_short_and_runs(tmp_path, monkeypatch, capsys):
    """Check the example is under 16 lines (select adds one to the 14 it had
    when each analysis selected its own block) and writes the promised files."""
    code = _example()
    assert len(code.strip().splitlines()) < 16
    _results_csv(tmp_path / "results.csv")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(GUIDE), "exec"), {})
    printed = capsys.readouterr().out.split()
    assert len(printed) == 3 and all(np.isfinite(float(v)) for v in printed)
    results = read_results(tmp_path / "results.csv")
    pvalues = pd.read_csv(tmp_path / "pvalues.csv", index_col=0)
    at_50 = select(results, metric="micro_f1", budget=50)
    expected = wilcoxon_holm(at_50)
    np.testing.assert_allclose(pvalues.to_numpy(), expected.round(4).to_numpy())
    assert list(pvalues.index) == list(expected.index) == list(pvalues.columns)
    versus = pd.read_csv(tmp_path / "versus_ATR.csv")
    ref = control_comparisons(at_50, "ATR")
    assert versus["method"].tolist() == ref["method"].tolist()
    assert set(versus["control"]) == {"ATR"}
    for name in ("cd.html", "p.html"):
        assert (tmp_path / name).stat().st_size > 1000


def test_the_example_would_refuse_the_whole_table(tmp_path):
    """Check why the example names metric= and budget=: without them it is refused."""
    _results_csv(tmp_path / "results.csv")
    results = read_results(tmp_path / "results.csv")
    with pytest.raises(ValueError, match="pass metric="):
        select(results)
    with pytest.raises(ValueError, match="pass budget="):
        select(results, metric="micro_f1")
    with pytest.raises(TypeError, match="call|select"):
        wilcoxon_holm(results)
