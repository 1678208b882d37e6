"""``mlfs rank --param NAME=VALUE``: any method's options, typed and checked."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from mlfs_core.cli import main

PLUGIN = """import numpy as np

from mlfs_core.options import Option
from mlfs_core.selectors import MethodSpec, register


def rank(X, Y, *, k, random_state, alpha, n, fast, mode):
    base = n + (100 if fast else 0) + (1000 if mode == "b" else 0)
    scores = base + alpha * np.arange(X.shape[1], dtype=float)
    return np.argsort(-scores, kind="stable")[:k], scores


register(
    MethodSpec(
        "Tunable",
        "user",
        rank,
        options=(
            Option("alpha", 1.0, low=0.0),
            Option("n", 0, low=0, high=9),
            Option("fast", False),
            Option("mode", "a", choices=("a", "b")),
        ),
        version="1",
    )
)
"""


@pytest.fixture
def tunable(tmp_path, fresh_plugins):
    """The plug-in file of a method with a float, int, bool and choice option."""
    path = tmp_path / "tunable.py"
    path.write_text(PLUGIN)
    return path


def _rank(capsys, *argv) -> tuple[int, str, str]:
    status = main(["rank", "sample", "--k", "3", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_params_reach_the_method_as_their_types(tunable, capsys):
    """Check each value's type by the scores it gives (base + alpha * index)."""
    status, out, err = _rank(capsys, "--plugin", tunable, "--method", "Tunable")
    assert status == 0, err
    default = pd.read_csv(io.StringIO(out))
    top = int(default["feature_index"][0])  # the last feature: alpha > 0
    assert top > 100
    indices = [top, top - 1, top - 2]
    assert default["feature_index"].tolist() == indices
    assert default["score"].tolist() == [float(i) for i in indices]
    status, out, err = _rank(
        capsys, "--plugin", tunable, "--method", "Tunable",
        "--param", "alpha=0.5", "--param", "n=7", "--param", "fast=yes",
        "--param", "mode=b",
    )  # fmt: skip
    assert status == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert table["feature_index"].tolist() == indices
    assert table["score"].tolist() == [1107 + 0.5 * i for i in indices]


def test_a_plugin_method_s_options_are_flags_too(tunable, capsys):
    """Check --alpha 0.5 --n=7 --fast yes --mode b (the plug-in's own options,
    declared nowhere in the CLI) give what the --param form gives, and a bad
    flag is refused naming the method and the option."""
    flags = ["--alpha", "0.5", "--n=7", "--fast", "yes", "--mode", "b"]
    params = ["--param", "alpha=0.5", "--param", "n=7", "--param", "fast=yes"]
    params += ["--param", "mode=b"]
    one = _rank(capsys, "--plugin", tunable, "--method", "Tunable", *flags)
    two = _rank(capsys, "--plugin", tunable, "--method", "Tunable", *params)
    assert one[0] == two[0] == 0 and one[1] == two[1]
    status, out, err = _rank(capsys, "--plugin", tunable, "--method", "Tunable",
                             "--mode", "c", "--nope", "1")  # fmt: skip
    assert status == 2 and out == ""
    assert "method 'Tunable': " in err and "mode must be one of a, b; got 'c'" in err
    assert "unknown parameter(s) ['nope']; allowed: alpha, n, fast, mode" in err


def test_a_built_in_method_s_param_equals_its_flag(capsys):
    """Check --param bins=4 gives what --bins 4 gives (PMU)."""
    one = _rank(capsys, "--method", "PMU", "--param", "bins=4")
    two = _rank(capsys, "--method", "PMU", "--bins", "4")
    three = _rank(capsys, "--method", "PMU")
    assert one[0] == two[0] == 0 and one[1] == two[1] != three[1]
    before = main(["rank", "--bins", "4", "sample", "--k", "3", "--method", "PMU"])
    assert before == 0 and capsys.readouterr().out == two[1]  # before the dataset


def test_bad_params_are_one_error_naming_method_and_parameter(tunable, capsys):
    """Check an unknown name and three bad values: one line, each named."""
    status, out, err = _rank(
        capsys, "--plugin", tunable, "--method", "Tunable",
        "--param", "nope=1", "--param", "alpha=abc", "--param", "n=1.5",
        "--param", "fast=maybe", "--param", "mode=c",
    )  # fmt: skip
    assert status == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("mlfs rank: error: method 'Tunable': ")
    assert "unknown parameter(s) ['nope']; allowed: alpha, n, fast, mode" in line
    assert "alpha must be a number >= 0, got 'abc'" in line
    assert "n must be an int in [0, 9], got '1.5'" in line
    assert "fast must be True or False, got 'maybe'" in line
    assert "mode must be one of a, b; got 'c'" in line


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--param", "bins"], "--param must be NAME=VALUE, got 'bins'"),
        (["--param", "=4"], "--param must be NAME=VALUE, got '=4'"),
        (["--bins", "3", "--param", "bins=4"], "--bins 3 and --param bins=4 disagree"),
        (["--param", "bins=1"], "bins must be an int in [2, 1000], got 1"),
        (["--bins"], "--bins needs a value"),
        (["--bins", "--k", "3"], "--bins needs a value"),
    ],
)
def test_malformed_and_conflicting_params_are_refused(capsys, argv, said):
    """Check the form NAME=VALUE, a flag it contradicts, a value out of range."""
    status, _, err = _rank(capsys, "--method", "PMU", *argv)
    assert status == 2
    assert "mlfs rank: error: method 'PMU': " in err and said in err
