"""The walk of a config from ``mlfs experiment`` to its files on disk.

The command calls each room of the engine once, in order, and returns to no
room it left: it loads the config, the runner plans, executes and collects,
the output writer writes atomically, the report renders. The output folder's
lock and the clean-stop guard (``runner.guard.lock``,
``runner.execute.stops``) wrap the walk and are not rooms of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mlfs_core
from mlfs_core.cli import main

ENGINE = Path(mlfs_core.__file__).resolve().parent
COMMAND = str(ENGINE / "cli" / "experiment.py")
GUARDS = ("evaluation.runner.guard.lock", "evaluation.runner.execute.stops")
CONFIG = """
name = "walk"
seed = 0
methods = ["MaxCS", "AF"]

[protocol]
name = "A"
n_folds = 2
budgets = [10, 50]
budget_unit = "percent"
n_repeats = 1

[[datasets]]
path = "sample"
"""


def _room(filename: str) -> str | None:
    path = Path(filename).resolve()
    if not path.is_relative_to(ENGINE) or path.is_relative_to(ENGINE / "cli"):
        return None
    parts = path.relative_to(ENGINE).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts)


def walk(argv: list[str]) -> list[str]:
    """The engine modules the command's own code calls into, in call order."""
    rooms: list[str] = []

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        if frame.f_back.f_code.co_filename != COMMAND:  # cheap: every call
            return
        room = _room(frame.f_code.co_filename)
        if room is not None and room not in GUARDS:
            rooms.append(room)

    sys.setprofile(profile)
    try:
        main(argv)
    finally:
        sys.setprofile(None)
    return rooms


def collapsed(rooms: list[str]) -> list[str]:
    """``rooms`` with consecutive repeats merged (staying in a room)."""
    return [r for i, r in enumerate(rooms) if i == 0 or rooms[i - 1] != r]


def test_collapsing_keeps_a_return_visible():
    """Check a return to a room stays in the collapsed walk (the test can fail)."""
    walked = collapsed(["a", "a", "b", "a"])
    assert walked == ["a", "b", "a"] and len(set(walked)) < len(walked)


def test_mlfs_experiment_returns_to_no_room_it_left(tmp_path):
    """Check the command visits config, runner, writer, report once each, in order."""
    config = tmp_path / "walk.toml"
    config.write_text(CONFIG, encoding="utf-8")
    out = tmp_path / "out"
    rooms = collapsed(walk(["experiment", str(config), "--out", str(out)]))
    assert len(rooms) == len(set(rooms)), rooms
    assert rooms == [
        "evaluation.config._toml",
        "evaluation.runner.plan.tuning",  # plan_tuned: plan_experiment, grids chosen
        "evaluation.runner.execute.run",
        "evaluation.runner.results.tables",
        "evaluation.outputs",
        "report._write",
    ]
    assert (out / "results.csv").is_file()
