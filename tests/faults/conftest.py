"""Helpers of the fault suite: small configs, marked subprocesses, /dev/shm files."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

MARK = "MLFS_FAULT_MARK"

FAST_CONFIG = """name = "fast"
seed = 0
methods = ["MaxCS", "AF"]

[protocol]
name = "A"
n_folds = 2
budgets = [10]
metrics = ["micro_f1", "hamming_loss"]

[[datasets]]
path = "sample"
"""


@pytest.fixture
def fast_config(tmp_path) -> Path:
    """A config of the sample that runs in a few seconds."""
    path = tmp_path / "fast.toml"
    path.write_text(FAST_CONFIG)
    return path


def marked_pids(mark: str) -> list[int]:
    """Processes whose environment carries ``MLFS_FAULT_MARK=mark`` (descendants)."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                env = fh.read()
            with open(f"/proc/{entry}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[-1].split()[0]
        except OSError:
            continue
        if needle in env.split(b"\0") and state != b"Z":
            found.append(int(entry))
    return found


def wait_gone(mark: str, seconds: float = 10.0) -> list[int]:
    """Poll until no marked process is left (or ``seconds`` pass); the survivors."""
    end = time.monotonic() + seconds
    while True:
        left = marked_pids(mark)
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.2)


def kill_marked(mark: str) -> None:
    """End the processes a failed test left behind (only ours: by their mark)."""
    for pid in marked_pids(mark):
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def shm_files(pid: int) -> list[str]:
    """Files in /dev/shm named after ``pid`` (joblib folders, loky semaphores)."""
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        return []
    return [n for n in names if f"_{pid}_" in n or f"-{pid}-" in n]


ROOT = Path(__file__).resolve().parents[2]
"""The checkout: on PYTHONPATH of every command started, whatever its cwd."""


def mlfs(*args, mark: str | None = None, **kwargs) -> subprocess.Popen:
    """Start ``python -m mlfs_core ARGS`` with a mark in its environment.

    The checkout's code runs from any working directory (``cwd=``): it is
    first on ``PYTHONPATH``; ``MLFS_PLUGINS`` is not passed on.
    """
    env = dict(os.environ, **({MARK: mark} if mark else {}))
    env.pop("MLFS_DEBUG", None)
    env.pop("MLFS_PLUGINS", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    return subprocess.Popen(
        [sys.executable, "-m", "mlfs_core", *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


@pytest.fixture
def mark():
    """A fresh mark; whatever carries it is killed after the test."""
    value = uuid.uuid4().hex
    yield value
    kill_marked(value)


@pytest.fixture
def fresh_plugins(monkeypatch):
    """Whatever a test loads or registers in this process is removed afterwards
    (registries, plug-in modules, the folders they put on sys.path)."""
    from mlfs_core import plugins

    # set, then delete: the test's end restores the variable as it was, also
    # when the CLI sets it (load_cli_plugins) and it was not set before
    monkeypatch.setenv("MLFS_PLUGINS", "")
    monkeypatch.delenv("MLFS_PLUGINS")
    monkeypatch.setattr(sys, "path", list(sys.path))
    state, modules = plugins.checkpoint(), dict(sys.modules)
    yield plugins
    plugins.rollback(state)
    for name in set(sys.modules) - set(modules):
        module = sys.modules[name]
        if name.startswith("_mlfs_plugin_") or str(
            getattr(module, "__file__", "") or ""
        ).startswith(tempfile.gettempdir()):
            del sys.modules[name]


@pytest.fixture
def helpers():
    """The helpers above, for the tests (conftest modules are not importable)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        marked_pids=marked_pids,
        wait_gone=wait_gone,
        shm_files=shm_files,
        mlfs=mlfs,
        FAST_CONFIG=FAST_CONFIG,
    )
