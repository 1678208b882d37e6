"""AppTest: the Experiment page warns when CS/BNS-style methods meet dense data."""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import TOY_XML, new_app, open_page


def _dense_arff(n_samples: int = 40, n_features: int = 6, seed: int = 0) -> str:
    """Numeric features that are never zero (as on emotions or yeast)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(10.0, 1.0, size=(n_samples, n_features)).round(3)
    Y = (rng.random((n_samples, 3)) < 0.4).astype(int)
    Y[:3] = 1  # every label positive somewhere
    lines = ["@relation dense"]
    lines += [f"@attribute v{j} numeric" for j in range(n_features)]
    lines += [f"@attribute l{i} {{0,1}}" for i in range(3)]
    lines.append("@data")
    lines += [",".join(map(str, [*x, *y])) for x, y in zip(X, Y, strict=True)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def dense_dir(tmp_path, monkeypatch):
    """A data folder holding one dense dataset, ``dense``."""
    folder = tmp_path / "datasets" / "dense"
    folder.mkdir(parents=True)
    (folder / "dense.arff").write_text(_dense_arff())
    (folder / "dense.xml").write_text(TOY_XML)
    monkeypatch.setenv("MLFS_DATA_DIR", str(folder.parent))
    return folder


def _set_folds(at, folds: int) -> None:
    """Folds: a text box (a whole number typed), formerly a number input."""
    boxes = [w for w in at.text_input if w.key == "exp_folds_A"]
    if boxes:
        boxes[0].set_value(str(folds)).run()
    else:
        at.number_input(key="exp_folds_A").set_value(folds).run()


def _run(methods, binarize="presence"):
    at = open_page(new_app(), "experiment")
    at.multiselect(key="exp_datasets").set_value(["dense"]).run()
    at.multiselect(key="exp_methods_A").set_value(methods).run()
    _set_folds(at, 2)
    at.text_input(key="exp_budgets_A").set_value("50").run()
    at.selectbox(key="exp_binarize_A").set_value(binarize).run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    return [w.value for w in at.warning if "Dense data" in w.value]


def test_a_run_of_maxcs_on_dense_data_warns_and_says_what_to_do(dense_dir):
    """Check the warning names MaxCS (not RFS) and the median cure."""
    (message,) = _run(["MaxCS", "RFS"])
    assert message.startswith("dense: Dense data")
    assert "MaxCS" in message and "RFS" not in message
    assert 'binarize = "median"' in message


def test_no_dense_warning_for_methods_it_does_not_concern(dense_dir):
    """Check RFS alone, or MaxCS with the median rule, gets no dense-data warning."""
    assert _run(["RFS"]) == []
    assert _run(["MaxCS"], binarize="median") == []


def test_the_warning_shows_before_the_run_and_once_after_it(dense_dir):
    """Check the dense-data warning appears before Run, and only once after it."""
    at = open_page(new_app(), "experiment")
    at.multiselect(key="exp_datasets").set_value(["dense"]).run()
    at.multiselect(key="exp_methods_A").set_value(["MaxCS", "ATR"]).run()
    before = [w.value for w in at.warning if "Dense data" in w.value]
    assert len(before) == 1 and "MaxCS" in before[0] and "ATR" not in before[0]
    _set_folds(at, 2)
    at.text_input(key="exp_budgets_A").set_value("50").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    assert [w.value for w in at.warning if "Dense data" in w.value] == before
