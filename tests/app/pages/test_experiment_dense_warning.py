"""AppTest: the Experiment page warns when CS/BNS-style methods meet dense data."""

from __future__ import annotations

import pytest

from ..conftest import dataset_dir, dense_arff, new_app, open_page


@pytest.fixture
def dense_dir(tmp_path, monkeypatch):
    """A data folder holding one dense dataset, ``dense``."""
    return dataset_dir(tmp_path, "dense", dense_arff(), monkeypatch)


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
    """Check the warning names MaxCS (not Random) and the median cure."""
    (message,) = _run(["MaxCS", "Random"])
    assert message.startswith("dense: Dense data")
    assert "MaxCS" in message and "Random" not in message
    assert 'binarize = "median"' in message


def test_no_dense_warning_for_methods_it_does_not_concern(dense_dir):
    """Check Random alone, or MaxCS with the median rule, gets no dense-data warning."""
    assert _run(["Random"]) == []
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
